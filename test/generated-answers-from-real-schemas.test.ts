// Generated answers for schemas as real documents write them: values of the document that break
// their own schema passed over, a oneOf branch taking any object, a huge string under the size cap.
import { describe, expect, it } from 'vitest';
import { send, startCornerStubs, stubs } from './helpers/corners-document.js';

startCornerStubs();

describe.each(['3.0', '3.1'] as const)('generated answers (OpenAPI %s)', (version) => {
  async function generated(path: string) {
    const response = await send(version, { name: path, method: 'GET', path, status: 200 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mock-scenario')).toBe('generated');
    const [entry] = stubs[version].requests({ method: 'GET' }).slice(-1);
    expect(entry.selfCheck).toBeUndefined(); // the answer fits the document
    return response.json;
  }

  it("pass over the document's values that break their own schema, and keep those that fit", async () => {
    const profile = await generated('/profile');
    expect(typeof profile.name).toBe('string'); // not the `default: null` of a string
    expect(profile.status).toBe('active'); // the first enum value, not the example "Choose..."
    expect(profile.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/); // not the example "2022-01-01"
    expect(profile.visits).toBe(7);
    expect(profile.stop).not.toBeNull(); // its `default: null` fits neither oneOf branch
  });

  it('answer a oneOf whose one branch takes any object with the empty object, the only value matching one branch', async () => {
    expect(await generated('/feed')).toEqual([{ payload: {} }, { payload: {} }, { payload: {} }]);
  });

  it('keep small values whole when a huge string takes data past the size cap', async () => {
    const embed = await generated('/embed');
    expect(embed.url).toMatch(/^https?:\/\//);
    expect(embed.id).toMatch(/^(0|[1-9][0-9]*)$/);
    expect(JSON.stringify(embed).length).toBeLessThan(110_000);
  });
});
