// Stateful mode answers what its response schema allows, even where the create's request schema
// allows more (Discord's role takes `name: null`, its answer needs a string; Box's folder takes a
// free-form `shared_link`, its answer a shaped one): a stored value that breaks the answer's schema
// is answered (and kept) as the answer without state would give it, or left out, and the item's id
// and its parent's path values stay as sent, so it is still found where the client created it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { post, request } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import { pollUntil } from './helpers/poll.js';

const DOCUMENT = `
${documentHead('Answers fit')}
  /guilds/{guild_id}/roles:
    ${pathParameters('guild_id')}
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: { type: string, nullable: true }
                color: { type: integer, nullable: true }
                tags: { type: object, nullable: true }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Role' }, example: { id: '1', guild_id: '9', name: Moderators, color: 3447003, tags: { bot: false } } } } }
    get:
      responses:
        '200': { description: list, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Role' } } } } }
  /guilds/{guild_id}/roles/{role_id}:
    ${pathParameters('guild_id', 'role_id')}
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Role' } } } }
        '404': { description: none }
components:
  schemas:
    Role:
      type: object
      required: [id, name]
      properties:
        id: { type: string }
        guild_id: { type: string, pattern: '^[0-9]+$' }
        name: { type: string }
        color: { type: integer }
        tags: { type: object, required: [bot], properties: { bot: { type: boolean } } }
`;

let stub: DocumentStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT, { stateful: true, seed: 5 }); });
afterAll(() => stub?.close());

const cases = [
  { sent: { name: null, color: 255 }, answered: { name: 'Moderators', color: 255 }, why: 'null where a string is needed takes the documented value' },
  { sent: { name: 'Admins', color: null, tags: {} }, answered: { name: 'Admins', color: 3447003, tags: { bot: false } }, why: 'each breaking value is mended on its own, the rest kept as sent' },
  { sent: { name: 'Guests' }, answered: { name: 'Guests' }, why: 'a body that fits is answered as sent' },
];

describe('a stored item answered in its response schema', () => {
  it.each(cases)('$why', async ({ sent, answered }) => {
    const created = await post(`${stub.url}/guilds/42/roles`, sent, { 'content-type': 'application/json' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ ...answered, guild_id: '42' });
    expect(typeof created.json.id).toBe('string');

    const read = await request(`${stub.url}/guilds/42/roles/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    // Neither answer broke the document, so the self-check had nothing to say.
    const entries = await pollUntil(async () => stub.requests({ path: `/guilds/42/roles/${created.json.id}` }), (found) => found.length === 1, 5_000);
    expect(entries.map((entry) => entry.selfCheck)).toEqual([undefined]);
  });

  it('keeps the parent path value that places the item, even where it breaks the pattern', async () => {
    const created = await post(`${stub.url}/guilds/general/roles`, { name: null }, { 'content-type': 'application/json' });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: 'Moderators', guild_id: 'general' });

    const read = await request(`${stub.url}/guilds/general/roles/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json.guild_id).toBe('general');

    const list = await request(`${stub.url}/guilds/general/roles`);
    expect(list.status).toBe(200);
    expect(list.json.map((role: { id: string }) => role.id)).toEqual([created.json.id]);
  });
});
