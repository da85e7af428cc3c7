// A oneOf with a discriminator (and one without) in requests and in generated answers, as real
// documents write it: the tag picks the branch, a wrong or missing tag is a 400 naming it.
import { describe, expect, it } from 'vitest';
import { send, startCornerStubs, stubs, type Case } from './helpers/corners-document.js';

startCornerStubs();

describe.each(['3.0', '3.1'] as const)('a discriminated oneOf (OpenAPI %s)', (version) => {
  const cases: Case[] = [
    { name: 'accepts a Cat named by its schema name (implicit mapping)', method: 'PATCH', path: '/pets', body: { pet_type: 'Cat', hunts: true }, status: 204 },
    { name: 'accepts a Dog named by its schema name', method: 'PATCH', path: '/pets', body: { pet_type: 'Dog', bark: false }, status: 204 },
    { name: 'refuses a tag that names no branch', method: 'PATCH', path: '/pets', body: { pet_type: 'Lizard' }, status: 400, message: '/pet_type' },
    { name: 'refuses a tagged branch that breaks its own schema', method: 'PATCH', path: '/pets', body: { pet_type: 'Dog', bark: 'loud' }, status: 400, message: '/bark: must be a boolean' },
    { name: 'accepts a branch told apart by a discriminator its schemas inherit (allOf)', method: 'PATCH', path: '/pets/embedded', body: { pet_type: 'Dog' }, status: 204 },
    { name: 'accepts a tag given by mapping to a $ref', method: 'POST', path: '/events', body: { event_type: 'approved', id: 'e1' }, status: 204 },
    { name: 'accepts a tag given by mapping to a schema name', method: 'POST', path: '/events', body: { event_type: 'denied' }, status: 204 },
  ];

  it.each(cases)('$name', async (c) => {
    const response = await send(version, c);
    expect(response.status, response.text).toBe(c.status);
    if (c.status === 204) expect(response.text).toBe('');
    if (c.message) expect(response.text).toContain(c.message);
  });

  it('answers with generated data tagged for one branch, which the self-check finds valid', async () => {
    const response = await send(version, { name: 'generated', method: 'GET', path: '/pets/3', status: 200 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    expect(['Cat', 'Dog']).toContain(response.json.pet_type);
    const [entry] = stubs[version].requests({ method: 'GET' }).slice(-1);
    expect(entry.status).toBe(200);
    expect(entry.selfCheck).toBeUndefined(); // the journal lists self-check failures only
  });
});
