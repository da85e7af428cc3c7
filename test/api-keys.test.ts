// API keys in a header or the query: either alternative of the security requirement is enough,
// the 401 names both when neither is sent, and the journal redacts both.
import { describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { keys, startKeysStub } from './helpers/keys-document.js';

startKeysStub();

describe('API keys (header or query)', () => {
  it.each([
    ['neither alternative sent: the 401 names both', {}, '', 401, 'one of these is needed: the API key "X-Api-Key" (header) is missing; or the API key "key" (query) is missing'],
    ['the first alternative is enough', { 'x-api-key': 'k' }, '', 200, null],
    ['the second alternative is enough', {}, '?key=k', 200, null],
  ])('security alternatives (header key or query key): %s', async (_name, headers, query, status, detail) => {
    const response = await request(`${keys.stub.url}/things${query}`, { headers });
    expect(response.status).toBe(status);
    if (detail === null) expect(response.json).toEqual({ n: 1 });
    else expect(response.json).toMatchObject({ status: 401, detail });
  });

  it('redacts the spec’s API keys, header and query, in the journal', async () => {
    keys.stub.reset();
    await request(`${keys.stub.url}/things`, { headers: { 'x-api-key': 'secret-header-key' } });
    await request(`${keys.stub.url}/things?key=secret-query-key&page=2`);
    const entries = keys.stub.requests();
    expect(entries.map((e) => [e.headers['x-api-key'], e.query])).toEqual([
      ['[redacted]', {}],
      [undefined, { key: '[redacted]', page: '2' }],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/secret-/);
  });
});
