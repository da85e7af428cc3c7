// compileSecurity on its own: which credentials each security requirement accepts, the message and
// challenge of each refusal, alternatives and anonymous access, and unknown schemes refused up front.
import { describe, expect, it } from 'vitest';
import { compileSecurity } from '../../src/openapi/compile-security.js';
import type { PlainRequest } from '../../src/common/plain-http.js';

const schemes = {
  bearerAuth: { type: 'http', scheme: 'bearer' },
  basicAuth: { type: 'http', scheme: 'basic' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  queryKey: { type: 'apiKey', in: 'query', name: 'key' },
};

function request(headers: Record<string, string>): PlainRequest {
  return { method: 'GET', path: '/', rawQuery: '', headers, body: Buffer.alloc(0) };
}

const noWarning = (problem: string): void => {
  throw new Error(`unexpected warning: ${problem}`);
};

describe('compileSecurity', () => {
  const bearer = compileSecurity([{ bearerAuth: [] }], schemes, [], noWarning);
  const q = new URLSearchParams();

  it.each([
    [{}, 'the Authorization header is missing; send "Authorization: Bearer <credentials>"'],
    [{ authorization: 'Basic abc' }, 'the Authorization header must use the Bearer scheme'],
    [{ authorization: 'Bearer ' }, 'the Bearer credentials are empty'],
    [{ authorization: 'bearer' }, 'the Bearer credentials are empty'],
    [{ authorization: 'Bearer    ' }, 'the Bearer credentials are empty'],
    [{ authorization: 'Bearertoken' }, 'the Authorization header must use the Bearer scheme'],
  ])('refuses %j with a Bearer challenge', (headers, message) => {
    expect(bearer(request(headers), q)).toEqual({ challenge: 'Bearer', message });
  });

  it.each(['Bearer t', 'bearer t', 'BEARER t'])('accepts %j: the scheme is case-insensitive', (authorization) => {
    expect(bearer(request({ authorization }), q)).toBeNull();
  });

  it('accepts only configured tokens when given a list', () => {
    const limited = compileSecurity([{ bearerAuth: [] }], schemes, ['alpha', 'beta'], noWarning);
    expect(limited(request({ authorization: 'Bearer beta' }), q)).toBeNull();
    expect(limited(request({ authorization: 'Bearer gamma' }), q)?.message).toBe('the Bearer token is not accepted');
    expect(limited(request({ authorization: 'Bearer alph' }), q)?.message).toBe('the Bearer token is not accepted');
  });

  it('passes when any alternative is met, and an empty requirement means anonymous access', () => {
    const either = compileSecurity([{ bearerAuth: [] }, { apiKey: [] }], schemes, [], noWarning);
    expect(either(request({ 'x-api-key': 'k' }), q)).toBeNull();
    expect(either(request({}), q)?.challenge).toBe('Bearer');
    const optional = compileSecurity([{ bearerAuth: [] }, {}], schemes, [], noWarning);
    expect(optional(request({}), q)).toBeNull();
    expect(compileSecurity(undefined, schemes, [], noWarning)(request({}), q)).toBeNull();
  });

  it('checks API keys in the query and Basic credentials', () => {
    const query = compileSecurity([{ queryKey: [] }], schemes, [], noWarning);
    expect(query(request({}), new URLSearchParams('key=1'))).toBeNull();
    expect(query(request({}), q)).toEqual({ challenge: null, message: 'the API key "key" (query) is missing' });
    const basic = compileSecurity([{ basicAuth: [] }], schemes, [], noWarning);
    expect(basic(request({ authorization: 'Basic dTpw' }), q)).toBeNull();
    expect(basic(request({ authorization: 'Bearer x' }), q)?.challenge).toBe('Basic');
  });

  it('warns of a requirement that names no security scheme and checks the rest of it', () => {
    const problems: string[] = [];
    const check = compileSecurity([{ bearerAuth: [], nowhere: [] }], schemes, [], (problem) => problems.push(problem));
    expect(problems).toEqual(['"nowhere" is not a security scheme of components.securitySchemes; it is not checked']);
    expect(check(request({ authorization: 'Bearer t' }), q)).toBeNull();
    expect(check(request({}), q)?.challenge).toBe('Bearer');
  });
});
