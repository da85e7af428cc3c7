// A mutualTLS security scheme: the client certificate travels in the TLS handshake, which a stub
// serving plain HTTP never sees, so such a requirement lets the request through (a bearer token is
// not asked for instead), while the other schemes beside it are still checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';

const DOCUMENT = `
openapi: 3.1.0
info: { title: certificates, version: '1' }
components:
  securitySchemes:
    certificate: { type: mutualTLS }
    key: { type: apiKey, in: header, name: X-Key }
paths:
  /certified:
    get:
      security: [{ certificate: [] }]
      responses: { '200': { description: ok, content: { application/json: { schema: { const: certified } } } } }
  /certified-and-keyed:
    get:
      security: [{ certificate: [], key: [] }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { const: keyed } } } }
`;

let stub: DocumentStub;
beforeAll(async () => {
  stub = await startStubOn(DOCUMENT);
});
afterAll(() => stub.close());

describe('mutualTLS requirements', () => {
  it.each([
    ['a certificate alone is required: answered', '/certified', {}, 200, 'certified'],
    ['a certificate and a key: the key is still checked', '/certified-and-keyed', {}, 401, null],
    ['a certificate and a key, the key sent: answered', '/certified-and-keyed', { 'x-key': 'k' }, 200, 'keyed'],
  ])('%s', async (_name, path, headers, status, body) => {
    const response = await request(`${stub.url}${path}`, { headers });
    expect(response.status).toBe(status);
    if (body !== null) expect(response.json).toBe(body);
    else expect(response.json).toMatchObject({ status: 401, detail: 'the API key "X-Key" (header) is missing' });
  });

  it('starts without a warning about the scheme', async () => {
    const warnings = await request(`${stub.url}/__admin/warnings`);
    expect(warnings.status).toBe(200);
    expect(JSON.stringify(warnings.json)).not.toMatch(/certificate/);
  });
});
