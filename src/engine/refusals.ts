// Every refusal the stub makes, by name, one small catalogue per stage (as Prism's
// `router/errors.ts` and `mocker/errors.ts`): a stage says which refusal it makes, and the wording,
// status and headers live here, where a reader finds them all. `ownAnswer` refusals are the stub's
// own (problem+json); the others are the API's contract, answered in its documented error shape.
import { refuse, SELECTION_ERROR_STATUS } from './refusal.js';
import type { Refusal, RefusalName } from './engine-types.js';

// 1. Route
export const routeRefusals = {
  methodNotAllowed: (method: string, path: string, allow: readonly string[]): Refusal =>
    refuse('methodNotAllowed', 405, `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}`, { ownAnswer: true, headers: { allow: allow.join(', ') }, facts: { method, path } }),
  badPath: (reason: string): Refusal => refuse('badPath', 400, reason, { ownAnswer: true }),
  /** `mounted`: with several documents, each one's name and mount path, named so a client sees where each lives. */
  noOperation: (method: string, path: string, mounted: ReadonlyArray<{ name: string; mount: string }> = []): Refusal =>
    refuse('noOperation', 404, `no operation of the spec matches ${method} ${path}${mounted.length > 0 ? `; the documents served: ${mounted.map((m) => `${m.name} at ${m.mount || '/'}`).join(', ')}` : ''}`, { ownAnswer: true, facts: { method, path } }),
};

// 2. Authenticate
export const authRefusals = {
  unauthenticated: (message: string, challenge: string | null | undefined): Refusal =>
    refuse('unauthenticated', 401, message, { headers: challenge ? { 'www-authenticate': challenge } : {} }),
};

// 3. Validate the request
export const requestRefusals = {
  /** A body over the size limit; the adapter stopped reading it. */
  bodyTooLarge: (limit: number): Refusal => refuse('bodyTooLarge', 413, `the request body is larger than ${limit} bytes`, { headers: { connection: 'close' } }),
  /** `accepted`: the media types the operation takes (`application/json, text/plain`). */
  unsupportedMediaType: (violations: string[], accepted: string): Refusal => refuse('unsupportedMediaType', 415, violations.join('; '), { violations, facts: { accepted } }),
  /** A request that broke the contract: the message is the violations, joined as the API's error text. */
  invalid: (violations: string[], status = 400): Refusal => refuse('invalid', status, violations.join('; '), { violations }),
};

// 4. Select: the client's steering headers, then the answer they name
const selectionError = (name: RefusalName, message: string, extra?: Record<string, unknown>): Refusal => refuse(name, SELECTION_ERROR_STATUS, message, { ownAnswer: true, extra });

export const selectionRefusals = {
  emptyScenarioHeader: (): Refusal => selectionError('emptyScenarioHeader', 'X-Mock-Scenario is empty; name a scenario (GET /__admin/scenarios lists them)'),
  notAStatusCode: (value: string): Refusal => selectionError('notAStatusCode', `Prefer: code=${value} is not an HTTP status code`),
  badDelay: (delay: string, max: number): Refusal => selectionError('badDelay', `X-Mock-Delay must be a whole number of milliseconds from 0 to ${max}, got "${delay}"`),
  badFault: (fault: string, known: readonly string[]): Refusal => selectionError('badFault', `X-Mock-Fault must be one of ${known.join(', ')}, got "${fault}"`),
  unknownScenario: (name: string, operationKey: string, known: string[]): Refusal =>
    selectionError('unknownScenario', `unknown scenario "${name}" for ${operationKey}; known scenarios: ${known.join(', ') || 'none'}`, { knownScenarios: known }),
  undocumentedCode: (status: number, operationKey: string, documented: string[]): Refusal => ({
    ...selectionError('undocumentedCode', `Prefer: code=${status} is not documented for ${operationKey}; documented statuses: ${documented.join(', ')}`, { documentedStatuses: documented }),
    facts: { status: String(status) },
  }),
  /** `contentType`: the media type the example was looked for in (the response's default one). */
  nothingNamedForStatus: (name: string, status: number, operationKey: string, known: string[], contentType: string): Refusal => ({
    ...selectionError('unknownExample', `no example or scenario "${name}" answers ${status} for ${operationKey}; known for ${status}: ${known.join(', ') || 'none'}`, { knownExamples: known }),
    facts: { example: name, contentType },
  }),
  unknownExample: (name: string, operationKey: string, known: string[], contentType: string): Refusal => ({
    ...selectionError('unknownExample', `unknown example "${name}" for ${operationKey}; known examples and scenarios: ${known.join(', ') || 'none'}`, { knownExamples: known }),
    facts: { example: name, contentType },
  }),
  noSuccess: (operationKey: string): Refusal => selectionError('noSuccess', `${operationKey} documents no success response to serve; choose one with Prefer: code=<status>`),
  notAcceptable: (named: string | null, accept: string, documented: Array<string | null>): Refusal =>
    refuse('notAcceptable', 406, `no documented media type${named === null ? '' : ` with an example "${named}"`} of this response is acceptable for Accept: ${accept}; documented: ${documented.join(', ')}`, {
      ownAnswer: true,
      extra: { documentedMediaTypes: documented },
      facts: { accept },
    }),
};

// 4b. Stateful mode
export const stateRefusals = {
  full: (resource: string, max: number): Refusal => selectionError('resourceFull', `${resource} holds ${max} items, the most the stub keeps; delete some (or DELETE /__admin/state)`),
  bytesFull: (max: number): Refusal =>
    selectionError('storeFull', `the stored items would take more than ${max} bytes, the most the stub keeps (--max-state); delete some (or DELETE /__admin/state), or start it with a larger --max-state`),
  /** `documented`: the API documents a 400, so it answers in its own shape. */
  unnameable: (idField: string, id: string, itemPath: string, documented: boolean): Refusal =>
    refuse('unnameable', 400, `/${idField}: ${JSON.stringify(id)} cannot name an item: it could never be read, changed or deleted at ${itemPath}; send an id with a character other than blanks, or none for the stub to assign one`, { ownAnswer: !documented }),
  /** `documented`: the API documents this status, so it answers in its own shape. */
  itemExists: (resource: string, idField: string, id: string, status: 400 | 409, documented: boolean): Refusal =>
    refuse('itemExists', status, `${resource}: an item with ${idField} ${id} already exists`, { ownAnswer: !documented }),
  noItem: (resource: string, idParam: string, id: string, documented: boolean): Refusal =>
    refuse('noItem', 404, `${resource}: no item with ${idParam} ${id}`, { ownAnswer: !documented }),
};

// Around the engine: the server's own limits and failures
export const serverRefusals = {
  /** A shared store (Redis) that did not answer: the client may retry. */
  storeUnavailable: (reason: string): Refusal =>
    refuse('storeUnavailable', 503, `the state store did not answer (${reason}); retry when it is back`, { ownAnswer: true, headers: { 'retry-after': '1' } }),
  /** A change other processes kept beating to the store: nothing was stored, and the answer says so. */
  storeBusy: (tries: number): Refusal =>
    refuse('storeBusy', 503, `other processes changed the same items first, ${tries} times in a row; nothing was stored; retry`, { ownAnswer: true, headers: { 'retry-after': '1' } }),
  tooManyOwed: (max: number): Refusal =>
    refuse('tooManyOwed', 429, `more than ${max} delayed or held answers are already waiting; retry later`, { ownAnswer: true, headers: { 'retry-after': '1' } }),
  internalError: (): Refusal => refuse('internalError', 500, 'the stub failed to handle this request; see its log', { ownAnswer: true }),
  /** --errors: the answer built breaks its own schema, so it is not sent. */
  brokenAnswer: (violations: string[]): Refusal =>
    refuse('brokenAnswer', 500, `the answer breaks the document's schema, so it was not sent (--errors): ${violations.join('; ')}`, { ownAnswer: true, violations }),
  /** A `text/*` answer whose value is not text, where only text is sent as text (--compat prism). */
  notText: (contentType: string): Refusal => refuse('notText', 500, `the answer's value is not text, so it cannot be sent as ${contentType}`, { ownAnswer: true }),
  /** Prism's static data: the schema's sample would be too large to build. */
  tooComplex: (pointer: string): Refusal =>
    refuse('tooComplex', 500, `the schema at ${pointer} asks for data too large to build`, { ownAnswer: true }),
  /** --proxy: a path whose `..` segments would leave the target's base path is never forwarded. */
  outsideProxyTarget: (path: string, base: string): Refusal =>
    refuse('outsideProxyTarget', 400, `plant-store-stub (proxy): ${path} climbs out of ${base} with its dot segments (.., %2e%2e); only paths under it are forwarded`, { ownAnswer: true }),
  /** --proxy: the stub's own 502 or 504 for the real API's answer (the API documents neither). */
  gateway: (status: number, detail: string): Refusal => refuse('gateway', status, `plant-store-stub (proxy): ${detail}`, { ownAnswer: true }),
};
