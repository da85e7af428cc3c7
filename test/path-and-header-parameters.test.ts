// Path and header parameters as real documents write them, sent valid and invalid to a listening
// stub (OpenAPI 3.0 and 3.1).
import { describe, expect, it } from 'vitest';
import { send, startCornerStubs, type Case } from './helpers/corners-document.js';

startCornerStubs();

describe.each(['3.0', '3.1'] as const)('path and header parameters (OpenAPI %s)', (version) => {
  const cases: Case[] = [
    { name: 'takes a path value holding a slash sent as %2F as one value', method: 'GET', path: '/refs/heads%2Fmain', status: 200 },
    { name: 'validates that value decoded', method: 'GET', path: '/refs/tags%2Fv1', status: 400, message: '/path/ref: must match pattern' },
    { name: 'does not take an unencoded slash as part of the value', method: 'GET', path: '/refs/heads/main', status: 404 },
    { name: 'ignores documented Accept and Authorization header parameters (OpenAPI says they SHALL be)', method: 'GET', path: '/reports', headers: { accept: '*/*' }, status: 200 },
    { name: 'ignores them when they are not sent either', method: 'GET', path: '/reports', status: 200 },
  ];

  it.each(cases)('$name', async (c) => {
    const response = await send(version, c);
    expect(response.status, response.text).toBe(c.status);
    if (c.status === 200) expect(response.json).toEqual(c.path === '/reports' ? { ok: true } : { found: true });
    if (c.message) expect(response.text).toContain(c.message);
  });
});
