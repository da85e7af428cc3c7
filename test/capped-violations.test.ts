// A body with thousands of violations is answered 400 with the first 100 listed and a count of
// the rest, so the answer stays small.
import { describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { keys, startKeysStub } from './helpers/keys-document.js';

startKeysStub();

describe('violations of a large body', () => {
  it('caps the violations of a body with thousands of wrong items at 100, and still answers 400', async () => {
    const response = await request(`${keys.stub.url}/lists`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array(5000).fill('x')) });
    expect(response.status).toBe(400);
    const listed = response.json.violations as string[];
    expect(listed).toHaveLength(101);
    expect(listed.slice(0, 2)).toEqual(['/0: must be an integer', '/1: must be an integer']);
    expect(listed[100]).toBe('…and 4900 more violations');
  });
});
