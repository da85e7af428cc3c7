// Stateful mode's rules for the shapes company documents take, one case per rule, each a create,
// a second create, a read by the id the create answered and a list, over HTTP: an id the create
// answer's own schema leaves out, a patterned id without an example, a resource keyed by its name,
// a path parameter that says more than the property (or, where no name says which property is
// the id, the one of its format: ipv6), an id of a format (ipv4) generated as the
// format asks, an envelope named like the parameter, a page object whose first array is not the
// items, fields the create answer filled in (or showed in another form) read back as answered,
// maps carried as sent, and a create answering without the reads' envelope. Same requests, same
// bytes. A paged list answers the page asked for, its links ending where the store does; a
// resource without a POST is created by a PUT to a new id; a nested collection's items are its
// parent's alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { request, type TestResponse } from './helpers/http.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';

const CALL_SID = '^CA[0-9a-fA-F]{32}$';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A collection and its item path, each with one operation per method, as YAML lines. */
function resource(collection: string, item: string, parts: { create: string; list?: string; read: string; itemParams?: string }): string {
  return `
  ${collection}:
    post:
      ${parts.create}
    get:
      responses: { '200': { description: list, content: { application/json: { schema: ${parts.list ?? `{ type: array, items: ${parts.read} }`} } } } }
  ${item}:
    ${parts.itemParams ?? pathParameters(/\{([^}]+)\}[^{]*$/.exec(item)![1])}
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: ${parts.read} } } }
        '404': { description: none }`;
}

const created = (request: string, answer: string) =>
  `requestBody: { content: { application/json: { schema: ${request} } } }
      responses: { '201': { description: created, content: { application/json: { schema: ${answer} } } } }`;

const DOCUMENT = `
${documentHead('Company rules')}
${resource('/Calls.json', '/Calls/{Sid}.json', {
  create: created('{ type: object, properties: { To: { type: string } } }', "{ $ref: '#/components/schemas/Call' }"),
  list: "{ type: object, properties: { calls: { type: array, items: { $ref: '#/components/schemas/Call' } } } }",
  read: "{ $ref: '#/components/schemas/Call' }",
})}
${resource('/gateways', '/gateways/{id}', {
  create: created("{ $ref: '#/components/schemas/GatewayRequest' }", "{ type: object, properties: { gateway: { $ref: '#/components/schemas/GatewayRequest' } } }"),
  list: "{ type: object, properties: { gateways: { type: array, items: { $ref: '#/components/schemas/Gateway' } } } }",
  read: "{ type: object, properties: { gateway: { $ref: '#/components/schemas/Gateway' } } }",
})}
${resource('/tags', '/tags/{tag_id}', {
  create: created('{ type: object, required: [name], properties: { name: { type: string } } }', "{ $ref: '#/components/schemas/Tag' }"),
  read: "{ $ref: '#/components/schemas/Tag' }",
})}
${resource('/users', '/users/{username}', {
  create: created('{ type: object, required: [name], properties: { name: { type: string }, email: { type: string } } }', "{ $ref: '#/components/schemas/User' }"),
  read: "{ $ref: '#/components/schemas/User' }",
})}
${resource('/volumes', '/volumes/{volume_id}', {
  create: created('{ type: object, properties: { size: { type: integer } } }', "{ $ref: '#/components/schemas/Volume' }"),
  read: "{ $ref: '#/components/schemas/Volume' }",
  itemParams: 'parameters: [{ name: volume_id, in: path, required: true, schema: { type: string, format: uuid } }]',
})}
${resource('/floating_ips', '/floating_ips/{floating_ip}', {
  create: created('{ type: object, properties: { region: { type: string } } }', "{ type: object, properties: { floating_ip: { $ref: '#/components/schemas/FloatingIp' } } }"),
  list: "{ type: object, properties: { floating_ips: { type: array, items: { $ref: '#/components/schemas/FloatingIp' } } } }",
  read: "{ type: object, properties: { floating_ip: { $ref: '#/components/schemas/FloatingIp' } } }",
})}
${resource('/reserved_ipv6', '/reserved_ipv6/{reserved_ipv6}', {
  create: created('{ type: object, properties: { region_slug: { type: string } } }', "{ type: object, properties: { reserved_ipv6: { $ref: '#/components/schemas/ReservedIpv6' } } }"),
  list: "{ type: object, properties: { reserved_ipv6s: { type: array, items: { $ref: '#/components/schemas/ReservedIpv6' } } } }",
  read: "{ type: object, properties: { reserved_ipv6: { $ref: '#/components/schemas/ReservedIpv6' } } }",
  itemParams: 'parameters: [{ name: reserved_ipv6, in: path, required: true, schema: { type: string, format: ipv6 } }]',
})}
${resource('/folders', '/folders/{folder_id}', {
  create: created("{ $ref: '#/components/schemas/FolderRequest' }", "{ $ref: '#/components/schemas/Folder' }"),
  list: "{ type: object, properties: { order: { type: array, items: { type: object, properties: { by: { type: string } } } }, entries: { type: array, items: { $ref: '#/components/schemas/Folder' } } } }",
  read: "{ $ref: '#/components/schemas/Folder' }",
})}
${resource('/runs', '/runs/{run_uuid}', {
  create: created('{ type: object, properties: { name: { type: string } } }', '{ type: object, properties: { run_uuid: { type: string } } }'),
  list: "{ type: object, properties: { runs: { type: array, items: { $ref: '#/components/schemas/Run' } } } }",
  read: "{ type: object, properties: { run: { $ref: '#/components/schemas/Run' } } }",
})}
  /Accounts/{AccountSid}/Queues.json:
    ${pathParameters('AccountSid')}
    get:
      responses: { '200': { description: queues, content: { application/json: { schema: { type: object, properties: { queues: { type: array, items: { $ref: '#/components/schemas/Queue' } } } } } } } }
    post:
      ${created('{ type: object, properties: { FriendlyName: { type: string } } }', "{ $ref: '#/components/schemas/Queue' }")}
  /Accounts/{AccountSid}/Queues/{Sid}.json:
    ${pathParameters('AccountSid', 'Sid')}
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Queue' } } } }
        '404': { description: none }
  /keys:
    get:
      responses: { '200': { description: keys, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Key' } } } } } }
  /keys/{key_id}:
    ${pathParameters('key_id')}
    get:
      responses:
        '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
        '404': { description: none }
    put:
      requestBody: { content: { application/json: { schema: { type: object, properties: { value: { type: string } } } } } }
      responses: { '200': { description: stored, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } } }
  /notes:
    post:
      ${created('{ type: object, properties: { text: { type: string } } }', "{ $ref: '#/components/schemas/Note' }")}
    get:
      parameters:
        - { name: page, in: query, schema: { type: integer, default: 1 } }
        - { name: per_page, in: query, schema: { type: integer, default: 30 } }
      responses:
        '200':
          description: a page of notes
          headers: { Link: { schema: { type: string }, example: '<https://api.example.com/notes?page=2>; rel="next"' } }
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } }
  /notes/{note_id}:
    ${pathParameters('note_id')}
    get:
      responses: { '200': { description: one, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } } }
components:
  schemas:
    Queue:
      type: object
      properties:
        sid: { type: string, pattern: '^QU[0-9a-f]{32}$', example: QU0123456789abcdef0123456789abcdef }
        account_sid: { type: string, example: AC0123456789abcdef0123456789abcdef }
        FriendlyName: { type: string }
    Key:
      type: object
      properties: { key_id: { type: string }, value: { type: string } }
    Note:
      type: object
      properties: { id: { type: integer }, text: { type: string } }
    Run:
      type: object
      properties: { run_uuid: { type: string, format: uuid }, name: { type: string } }
    Call:
      type: object
      properties:
        sid: { type: string, nullable: true, minLength: 34, maxLength: 34, pattern: '${CALL_SID}' }
        to: { type: string, nullable: true }
        To: { type: string }
    GatewayRequest:
      type: object
      properties: { name: { type: string }, size: { type: integer } }
    Gateway:
      type: object
      properties: { id: { type: string }, name: { type: string }, size: { type: integer }, state: { type: string, example: ACTIVE } }
    Tag:
      type: object
      properties: { name: { type: string }, resources: { type: object, properties: { count: { type: integer, example: 0 } } } }
    User:
      type: object
      properties: { id: { type: integer, readOnly: true }, name: { type: string }, email: { type: string } }
    Volume:
      type: object
      properties: { id: { type: string }, size: { type: integer } }
    FloatingIp:
      type: object
      properties: { ip: { type: string, format: ipv4, example: 45.55.96.47 }, region: { type: string } }
    ReservedIpv6:
      type: object
      properties: { ip: { type: string, format: ipv6, example: '2409:40d0:f7:1017:74b4:3a96:105e:4c6e' }, region_slug: { type: string }, reserved_at: { type: string, format: date-time } }
    FolderRequest:
      type: object
      properties:
        name: { type: string }
        labels: { type: object, additionalProperties: { type: string } }
        owners: { type: object, additionalProperties: { type: string } }
        due: { type: object, nullable: true, properties: { date: { type: string } } }
    Folder:
      type: object
      required: [id, owners]
      properties:
        id: { type: string }
        name: { type: string }
        labels: { type: object, additionalProperties: { type: string } }
        owners: { type: array, items: { type: object, properties: { login: { type: string } } }, example: [{ login: ada }] }
        due: { type: object, nullable: true, properties: { date: { type: string } }, example: { date: '2024-01-01' } }
`;

interface Case {
  rule: string;
  collection: string;
  /** The item path of an id, the collection's path with the id before its suffix. */
  body: object;
  second: object;
  /** Where the create answer and the read hold the item. */
  envelope?: string;
  /** Where the create answer holds it, when not where the read does (null: bare). */
  createdEnvelope?: string | null;
  idProperty: string;
  /** The id the first create answers, as a pattern or the value itself. */
  id: RegExp | string | number;
  listField?: string;
  /** What the create answered beyond the id, read back unchanged. */
  answered?: object;
}

const CASES: Case[] = [
  { rule: 'a patterned sid without an example is drawn to fit the pattern (never null)', collection: '/Calls.json', body: { To: '+1555' }, second: { To: '+1666' }, idProperty: 'sid', id: new RegExp(CALL_SID), listField: 'calls' },
  { rule: 'the id is answered even where the create answer\'s schema is the request\'s, without it', collection: '/gateways', body: { name: 'edge' }, second: { name: 'core' }, envelope: 'gateway', idProperty: 'id', id: '1', listField: 'gateways', answered: { name: 'edge' } },
  { rule: 'a resource with no id-like property is keyed by its name', collection: '/tags', body: { name: 'blue' }, second: { name: 'red' }, idProperty: 'name', id: 'blue', answered: { resources: { count: 0 } } },
  { rule: 'a one-word parameter ending in a known name takes that name ({username} -> name)', collection: '/users', body: { name: 'ada', email: 'ada@example.com' }, second: { name: 'bob' }, idProperty: 'name', id: 'ada' },
  { rule: 'a path parameter with format uuid makes uuid ids where the property leaves the string open', collection: '/volumes', body: { size: 10 }, second: { size: 20 }, idProperty: 'id', id: UUID },
  { rule: 'an envelope named like the path parameter is an envelope, not the id, and an ipv4 id is generated as an address', collection: '/floating_ips', body: { region: 'nyc3' }, second: { region: 'ams3' }, envelope: 'floating_ip', idProperty: 'ip', id: /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, listField: 'floating_ips' },
  { rule: 'where no name says which property is the id, the only one of the path parameter\'s format is ({reserved_ipv6} -> ip, an ipv6 address)', collection: '/reserved_ipv6', body: { region_slug: 'nyc3' }, second: { region_slug: 'ams3' }, envelope: 'reserved_ipv6', idProperty: 'ip', id: /^[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}$/i, listField: 'reserved_ipv6s' },
  { rule: 'a page object lists its items in the array that holds the id, fields filled by the create read back, maps carried as sent, a null kept null', collection: '/folders', body: { name: 'Docs', labels: { team: 'web' }, owners: { ada: 'owner' }, due: null }, second: { name: 'More' }, idProperty: 'id', id: '1', listField: 'entries', answered: { labels: { team: 'web' }, owners: [{ login: 'ada' }], due: null } },
  { rule: 'a create whose answer has no envelope answers the bare item, with the id reads take', collection: '/runs', body: { name: 'nightly' }, second: { name: 'weekly' }, createdEnvelope: null, envelope: 'run', idProperty: 'run_uuid', id: UUID, listField: 'runs' },
];

const JSON_TYPE = { 'content-type': 'application/json' };
let stub: DocumentStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT, { stateful: true, seed: 3 }); });
afterAll(async () => { await stub?.close(); });

const itemUrl = (collection: string, id: unknown) => collection.replace(/(\.json)?$/, (suffix) => `/${encodeURIComponent(String(id))}${suffix}`);

describe('stateful mode on company shapes', () => {
  it.each(CASES)('$rule', async (c) => {
    const post = (body: object) => request(`${stub.url}${c.collection}`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    const unwrap = (answer: TestResponse, envelope: string | null | undefined = c.envelope) => (envelope ? answer.json[envelope] : answer.json);
    const createdEnvelope = c.createdEnvelope === undefined ? c.envelope : c.createdEnvelope;
    const first = await post(c.body);
    expect(first.status).toBe(201);
    const item = unwrap(first, createdEnvelope);
    const id = item[c.idProperty];
    if (c.id instanceof RegExp) expect(String(id)).toMatch(c.id);
    else expect(id).toBe(c.id);
    if (c.answered) expect(item).toMatchObject(c.answered);

    const second = await post(c.second);
    expect(second.status).toBe(201);
    const secondId = unwrap(second, createdEnvelope)[c.idProperty];
    expect(secondId).not.toBe(id);

    const read = await request(`${stub.url}${itemUrl(c.collection, id)}`);
    expect(read.status).toBe(200);
    if (c.createdEnvelope === undefined) expect(unwrap(read)).toEqual(item);
    else expect(unwrap(read)[c.idProperty]).toBe(id);

    const list = await request(`${stub.url}${c.collection}`);
    expect(list.status).toBe(200);
    const items = c.listField ? list.json[c.listField] : list.json;
    expect(items.map((entry: any) => entry[c.idProperty])).toEqual([id, secondId]);
  });
});

describe('the same requests give the same bytes', () => {
  it('answers two stubs of one seed alike, uuids and generated fields included', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const fresh = await startStubOn(DOCUMENT, { stateful: true, seed: 3 });
      try {
        const texts: string[] = [];
        for (const body of [{ size: 1 }, { size: 2 }]) texts.push((await request(`${fresh.url}/volumes`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) })).text);
        texts.push((await request(`${fresh.url}/Calls.json`, { method: 'POST', headers: JSON_TYPE, body: '{"To":"+1"}' })).text);
        texts.push((await request(`${fresh.url}/volumes`)).text);
        runs.push(texts);
      } finally {
        await fresh.close();
      }
    }
    expect(JSON.parse(runs[0][0]).id).toMatch(UUID);
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe('stateless lists of nullable ids', () => {
  it('generates each item\'s sid as a value that fits its pattern, distinct from the others', async () => {
    const plain = await startStubOn(DOCUMENT, { seed: 3 });
    try {
      const answer = await request(`${plain.url}/Calls.json`);
      expect(answer.status).toBe(200);
      const sids = answer.json.calls.map((call: any) => call.sid);
      expect(sids.length).toBeGreaterThan(0);
      for (const sid of sids) expect(sid).toMatch(new RegExp(CALL_SID));
      expect(new Set(sids).size).toBe(sids.length);
    } finally {
      await plain.close();
    }
  });
});

describe('a paged list in stateful mode', () => {
  it('answers the page asked for, with next and last links that end at the pages the store fills', async () => {
    for (const text of ['a', 'b', 'c']) expect((await request(`${stub.url}/notes`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ text }) })).status).toBe(201);
    const first = await request(`${stub.url}/notes?per_page=2`);
    expect(first.status).toBe(200);
    expect(first.json.map((note: any) => note.text)).toEqual(['a', 'b']);
    const host = new URL(stub.url).host;
    expect(first.headers.get('link')).toBe(`<http://${host}/notes?per_page=2&page=2>; rel="next", <http://${host}/notes?per_page=2&page=2>; rel="last"`);
    const last = await request(`${stub.url}/notes?per_page=2&page=2`);
    expect(last.json.map((note: any) => note.text)).toEqual(['c']);
    expect(last.headers.get('link')).not.toContain('rel="next"');
  });
});

describe('a resource created by PUT (no POST on its collection)', () => {
  it('creates the item at the id its path names, then reads, lists and replaces it', async () => {
    const put = (id: string, value: string) => request(`${stub.url}/keys/${id}`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ value }) });
    expect((await request(`${stub.url}/keys/colour`)).status).toBe(404);
    const created = await put('colour', 'green');
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ key_id: 'colour', value: 'green' });
    expect((await request(`${stub.url}/keys/colour`)).json).toEqual(created.json);
    expect((await put('colour', 'blue')).json).toEqual({ key_id: 'colour', value: 'blue' });
    await put('size', 'L');
    expect((await request(`${stub.url}/keys`)).json).toEqual([{ key_id: 'colour', value: 'blue' }, { key_id: 'size', value: 'L' }]);
  });
});

describe('a nested collection (Twilio\'s queues of an account)', () => {
  it('keeps each account\'s items to itself: listed and read only under the account that made them', async () => {
    const post = (account: string, name: string) => request(`${stub.url}/Accounts/${account}/Queues.json`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ FriendlyName: name }) });
    const mine = await post('AC1', 'support');
    const theirs = await post('AC2', 'sales');
    expect(mine.status).toBe(201);
    expect(mine.json.account_sid).toBe('AC1');
    expect(theirs.json.account_sid).toBe('AC2');
    const names = async (account: string) => (await request(`${stub.url}/Accounts/${account}/Queues.json`)).json.queues.map((q: any) => q.FriendlyName);
    expect(await names('AC1')).toEqual(['support']);
    expect(await names('AC2')).toEqual(['sales']);
    expect(await names('AC3')).toEqual([]);
    expect((await request(`${stub.url}/Accounts/AC1/Queues/${mine.json.sid}.json`)).json).toEqual(mine.json);
    expect((await request(`${stub.url}/Accounts/AC2/Queues/${mine.json.sid}.json`)).status).toBe(404);
  });

  it('is shown in /__admin/resources with the parent path parameter it is scoped by and the property that holds it', async () => {
    const answer = await request(`${stub.url}/__admin/resources`);
    expect(answer.status).toBe(200);
    const queues = answer.json.resources.find((resource: any) => resource.collection === '/Accounts/{AccountSid}/Queues.json');
    expect(queues).toMatchObject({ item: '/Accounts/{AccountSid}/Queues/{Sid}.json', scope: [{ parameter: 'AccountSid', property: 'account_sid' }] });
  });
});
