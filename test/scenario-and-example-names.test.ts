// Names that travel in the X-Mock-Scenario header: a non-ASCII example name is sent
// percent-encoded, and fixtures with names outside visible ASCII or reserved by the stub are
// refused at start-up.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { keys, startKeysStub } from './helpers/keys-document.js';

startKeysStub();

describe('names in X-Mock-Scenario', () => {
  it('sends a non-ASCII example name percent-encoded instead of failing the answer', async () => {
    const response = await request(`${keys.stub.url}/things`, { headers: { 'x-api-key': 'k' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('example:caf%C3%A9');
    expect(response.json).toEqual({ n: 1 });
  });

  it.each([
    ['a scenario name outside visible ASCII', 'naïve', /\/scenarios\/naïve: a scenario name must be visible ASCII/],
    ['a scenario named like the stub’s own answers', 'echo', /\/scenarios\/echo: "echo", "generated", "state" and "example:…" name the stub's own answers/],
  ])('refuses at start-up %s', async (_name, scenario, message) => {
    const fixtures = await mkdtemp(join(tmpdir(), 'review-fixtures-'));
    await writeFile(join(fixtures, 'things.yaml'), `operation: GET /things\nscenarios:\n  ${scenario}:\n    status: 200\n    body: { n: 2 }\n`);
    await expect(startStub({ spec: join(keys.dir, 'spec.yaml'), fixtures, port: 0, watch: false })).rejects.toThrow(message);
  });
});
