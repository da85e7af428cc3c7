// Every refusal http/ makes itself, by name (as engine/refusals.ts does for the engine's stages):
// the admin API's, its guard's, and the edge's for requests node:http cannot serve. Each is data
// (status, detail, extra members, headers) that send-problem.ts writes as problem+json.

/** A refusal written by http/: what send-problem.ts turns into a problem+json answer. */
export interface HttpRefusal {
  status: number;
  detail: string;
  /** Extra problem+json members that help the client (the known names, the violations). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Violations listed in an answer; the rest are counted out of it. */
const LISTED_VIOLATIONS = 100;

// The admin API (/__admin)
export const adminRefusals = {
  filterGivenTwice: (name: string): HttpRefusal => ({ status: 400, detail: `${name} must be given once` }),
  statusNotAWholeNumber: (): HttpRefusal => ({ status: 400, detail: 'status must be a whole number' }),
  badJournalPage: (name: string, value: string): HttpRefusal => ({ status: 400, detail: `${name} must be a whole number${name === 'limit' ? ' from 1' : ''}, got ${value}` }),
  scenarioNameMissing: (): HttpRefusal => ({ status: 400, detail: 'send {"name": "<scenario>"}' }),
  scenarioDoesNotFit: (violations: string[]): HttpRefusal =>
    ({ status: 422, detail: 'the scenario does not fit the document; nothing was added', extra: { violations: violations.slice(0, LISTED_VIOLATIONS) } }),
  unknownOperation: (key: string): HttpRefusal => ({ status: 404, detail: `the document has no operation "${key}"; name it as METHOD /path or by its operationId` }),
  unknownAddedScenario: (name: string): HttpRefusal => ({ status: 404, detail: `no added scenario is named "${name}"; GET /__admin/scenarios lists them (added: true)` }),
  unknownScenario: (name: string, known: string[]): HttpRefusal => ({ status: 404, detail: `no operation has a scenario "${name}"`, extra: { knownScenarios: known } }),
  stateDoesNotFit: (violations: string[]): HttpRefusal =>
    ({ status: 400, detail: 'the state does not fit the document; nothing was changed', extra: { violations: violations.slice(0, LISTED_VIOLATIONS) } }),
  unknownResource: (name: string, known: string[]): HttpRefusal => ({ status: 404, detail: `no stored resource is named "${name}"; GET /__admin/resources names them`, extra: { knownResources: known } }),
  unknownItem: (resource: string, id: string): HttpRefusal => ({ status: 404, detail: `${resource} holds no item ${id}` }),
  itemDoesNotFit: (violations: string[]): HttpRefusal =>
    ({ status: 422, detail: 'the item does not fit the document; nothing was stored', extra: { violations: violations.slice(0, LISTED_VIOLATIONS) } }),
  badItemsPage: (name: string, value: string): HttpRefusal => ({ status: 400, detail: `${name} must be a whole number${name === 'limit' ? ' from 1 to 100' : ''}, got ${value}` }),
  statefulOff: (): HttpRefusal => ({ status: 404, detail: 'stateful mode is off; start the stub with --stateful (stateful: true) to keep resources' }),
  unknownWebhook: (name: string, known: string[]): HttpRefusal => ({ status: 404, detail: `the document has no webhook "${name}"`, extra: { knownWebhooks: known } }),
  webhookUrlMissing: (): HttpRefusal => ({ status: 400, detail: 'send {"url": "http://…"}, or {"url": null} to remove the target' }),
  webhookWithoutTarget: (name: string): HttpRefusal =>
    ({ status: 409, detail: `webhook "${name}" has no target; register one with --webhook or PUT /__admin/webhooks/${encodeURIComponent(name)} {"url": …}` }),
  payloadDoesNotFit: (violations: string[]): HttpRefusal =>
    ({ status: 400, detail: 'the payload does not fit the webhook\'s schema; nothing was sent', extra: { violations: violations.slice(0, LISTED_VIOLATIONS) } }),
  reloadRefused: (): HttpRefusal => ({ status: 409, detail: 'the spec or a fixture is broken; the last good version keeps serving (see the log)' }),
  noEndpoint: (method: string, path: string): HttpRefusal => ({ status: 404, detail: `no admin endpoint ${method} ${path}` }),
  /** Not the request's fault: the store or the other workers did not answer. Retrying later may work. */
  sharedStateSilent: (reason: string | undefined): HttpRefusal => ({ status: 503, detail: `the stub's shared state did not answer: ${reason ?? 'unknown error'}`, headers: { 'retry-after': '1' } }),
  /** A body Express's parsers refused: 400 for JSON that does not parse, else their own 4xx. */
  unreadableBody: (status: number, message: string | undefined): HttpRefusal =>
    ({ status, detail: status === 400 ? 'the request body is not valid JSON' : (message ?? 'bad request') }),
  tokenNeeded: (): HttpRefusal =>
    ({ status: 401, detail: 'the admin API needs "Authorization: Bearer <admin token>"', headers: { 'www-authenticate': 'Bearer realm="stub-admin"' } }),
  /** The admin guard: a request without an admin token that does not come from this machine. */
  untrusted: (reason: string): HttpRefusal => ({ status: 403, detail: reason }),
  adminUnavailable: (): HttpRefusal => ({ status: 500, detail: 'the admin API could not be loaded; see the stub log' }),
  adminFailed: (): HttpRefusal => ({ status: 500, detail: 'the stub failed to answer this admin request; its log says why' }),
};

// The edge: what node:http cannot hand to the engine
export const edgeRefusals = {
  tooManyHeaders: (max: number): HttpRefusal => ({ status: 431, detail: `a request may carry fewer than ${max} header lines`, headers: { connection: 'close' } }),
  connectNotServed: (): HttpRefusal => ({ status: 400, detail: 'CONNECT is not served: this is a stub of an API, not a proxy' }),
  unparsable: (status: number): HttpRefusal => ({ status, detail: 'the request could not be parsed as HTTP/1.1' }),
};
