// The requests every runtime must answer alike (the HTTP server, the fetch handler, MSW in Node
// and in a browser), as plain data so a browser page can be handed them too, and the part of an
// answer that must be the same bytes everywhere. CORS headers are left out: only the server sees
// other origins.

export interface RuntimeCase {
  /** What every runtime does, as a sentence. */
  name: string;
  method: string;
  /** Path and query under the base URL. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as UTF-8 text, unless `bodyBytes` (each byte 0-255) is given. */
  body?: string;
  bodyBytes?: number[];
  /** The status every runtime answers. */
  status: number;
  /** A part of the body each runtime's answer must hold (the rest is compared between runtimes). */
  bodyHolds?: string;
}

/** The headers compared between runtimes (besides those the operation documents, compared when present). */
export const COMPARED_HEADERS = ['content-type', 'www-authenticate', 'allow', 'x-mock-scenario', 'retry-after', 'location'];

const AUTH = { authorization: 'Bearer test-token' };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };

/** The Plant Store (openapi.yaml) with its fixtures/, seed 7. */
export const PLANT_STORE_CASES: RuntimeCase[] = [
  { name: 'echoes a valid plant as the 200 Plant', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"id": 1, "name": "Monstera", "tag": "aroid", "extra": true}', status: 200, bodyHolds: '{"name":"Monstera","tag":"aroid"}' },
  { name: 'keeps every digit of an int64 id', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"id": 9223372036854775807, "name": "Fern"}', status: 200 },
  { name: 'answers 400 naming every violation at once', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"tag": 5}', status: 400, bodyHolds: '/name: is required' },
  { name: 'answers 400 with line and column for broken JSON', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"id": 1,', status: 400 },
  { name: 'answers 400 for a body that is not UTF-8', method: 'POST', path: '/plants', headers: JSON_BODY, bodyBytes: [0x7b, 0x22, 0xff, 0x22, 0x7d], status: 400, bodyHolds: 'not valid UTF-8' },
  { name: 'answers 401 with WWW-Authenticate without credentials', method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "Fern"}', status: 401 },
  { name: 'answers 401 for another scheme', method: 'POST', path: '/plants', headers: { authorization: 'Basic dTpw', 'content-type': 'application/json' }, body: '{"id": 1, "name": "Fern"}', status: 401 },
  { name: 'answers 415 for a body sent as text/plain', method: 'POST', path: '/plants', headers: { ...AUTH, 'content-type': 'text/plain' }, body: '{"id": 1, "name": "Fern"}', status: 415 },
  { name: 'serves a scenario asked for by header', method: 'POST', path: '/plants', headers: { ...JSON_BODY, 'x-mock-scenario': 'duplicate-id' }, body: '{"id": 1, "name": "Fern"}', status: 400, bodyHolds: '"error":1001' },
  { name: 'serves a scenario asked for by Prefer', method: 'POST', path: '/plants', headers: { ...JSON_BODY, prefer: 'code=400, example=unknown-tag' }, body: '{"id": 1, "name": "Fern"}', status: 400, bodyHolds: '"error":1002' },
  { name: 'answers 422 naming the known scenarios for an unknown one', method: 'POST', path: '/plants', headers: { ...JSON_BODY, 'x-mock-scenario': 'nope' }, body: '{"id": 1, "name": "Fern"}', status: 422, bodyHolds: 'duplicate-id' },
  { name: 'generates seeded data when asked for dynamic answers', method: 'POST', path: '/plants', headers: { ...JSON_BODY, prefer: 'dynamic=true' }, body: '{"id": 1, "name": "Fern"}', status: 200 },
  { name: 'answers 406 when no documented media type is acceptable', method: 'POST', path: '/plants', headers: { ...JSON_BODY, accept: 'application/xml' }, body: '{"id": 1, "name": "Fern"}', status: 406 },
  { name: 'answers 405 with Allow for an undocumented method', method: 'GET', path: '/plants', headers: AUTH, status: 405 },
  { name: "answers the stub's 404 for a path the document lacks", method: 'GET', path: '/nothing/here?x=1', status: 404 },
];

/** test/specs/plant-store-full.yaml with its fixtures, stateful, seed 7: a sequence, each runtime from an empty store. */
export const STATEFUL_CASES: RuntimeCase[] = [
  { name: 'lists an empty store', method: 'GET', path: '/plants', headers: AUTH, status: 200, bodyHolds: '[]' },
  { name: 'stores a created plant', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"id": 1, "name": "Monstera", "tag": "aroid"}', status: 200 },
  { name: 'refuses a second plant with the same id', method: 'POST', path: '/plants', headers: JSON_BODY, body: '{"id": 1, "name": "Fern"}', status: 400, bodyHolds: 'already exists' },
  { name: 'reads the stored plant', method: 'GET', path: '/plants/1', headers: AUTH, status: 200, bodyHolds: 'Monstera' },
  { name: 'removes it', method: 'DELETE', path: '/plants/1', headers: AUTH, status: 204 },
  { name: 'answers 404 for it then', method: 'GET', path: '/plants/1', headers: AUTH, status: 404 },
  { name: 'generates a seeded list when asked for dynamic answers', method: 'GET', path: '/plants?limit=2', headers: { ...AUTH, prefer: 'dynamic=true' }, status: 200 },
  { name: 'answers HEAD wherever GET is, without a body', method: 'HEAD', path: '/plants', headers: AUTH, status: 200 },
];

/** What must be equal between runtimes: status, the compared headers that are present, the body's bytes. */
export interface Comparable {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function comparable(response: Response, documentedHeaders: readonly string[] = []): Promise<Comparable> {
  const headers: Record<string, string> = {};
  for (const name of [...COMPARED_HEADERS, ...documentedHeaders]) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body: String.fromCharCode(...bytes) };
}

/** The RequestInit for a case (its body as bytes when given as bytes). */
export function requestInit(testCase: RuntimeCase): RequestInit {
  const body = testCase.bodyBytes ? new Uint8Array(testCase.bodyBytes) : testCase.body;
  return { method: testCase.method, headers: testCase.headers ?? {}, body, redirect: 'manual' };
}
