// --proxy, step 1: what becomes of a request. The stub's own selections (X-Mock-*, the Prefer
// preferences code/example/dynamic, Prism's `__code`-style query selectors, a sticky scenario of
// the operation) are the mock's to answer and never reach the real API; a request that breaks
// the document is forwarded and reported, or refused in the API's own error shape under
// --proxy-errors; a request the document does not describe is forwarded as it is (only the
// document's base path, if it starts with it, gives way to the target's).
import type { EngineState } from '../engine/pipeline.js';
import { route } from '../engine/route.js';
import { isRefusal, refusalResponse } from '../engine/refusal.js';
import { readSelection } from '../engine/read-selection.js';
import { validateRequest } from '../engine/validate-request.js';
import type { EngineResponse } from '../engine/engine-response.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { PlainRequest } from '../common/plain-http.js';

export type ProxyDecision =
  /** The mock answers, as without --proxy. */
  | { kind: 'mock' }
  /** --proxy-errors: the request broke the document; this is the API's own error answer. */
  | { kind: 'refuse'; response: EngineResponse }
  /** `path`: the path to send upstream, the document's server base path taken off; null operation: undocumented. */
  | { kind: 'forward'; operation: CompiledOperation | null; violations: string[]; path: string; pathParams: Record<string, string>; requestBody: unknown };

const NO_QUERY = new URLSearchParams();

export function decide(state: EngineState, request: PlainRequest, refuseInvalid: boolean): ProxyDecision {
  // Over the size limit, the body was never read whole: the mock's 413 answers.
  if (request.bodyLimitExceeded !== undefined) return { kind: 'mock' };
  const query = request.rawQuery === '' ? NO_QUERY : new URLSearchParams(request.rawQuery);
  const selection = readSelection(request, query);
  const asked = isRefusal(selection) || selection.scenario !== null || selection.code !== null || selection.example !== null
    || selection.dynamic || selection.delayMs !== null || selection.fault !== null;
  if (asked) return { kind: 'mock' };
  const routed = route(state.compiled.routes, request);
  if (isRefusal(routed)) return { kind: 'forward', operation: null, violations: [], path: withoutPrefix(request.path, state.compiled.basePath), pathParams: {}, requestBody: undefined };
  const { operation, pathParams } = routed;
  if (state.sticky !== null && state.scenarios.get(operation.key)?.has(state.sticky)) return { kind: 'mock' };
  // The real API judges credentials; the stub checks what the document says of the request.
  const body = validateRequest(operation, request, pathParams, query);
  const violations = isRefusal(body) ? body.violations : [];
  if (isRefusal(body) && refuseInvalid) return { kind: 'refuse', response: refusalResponse(body, operation) };
  const requestBody = isRefusal(body) || body === null || body.form ? undefined : body.value;
  return { kind: 'forward', operation, violations, path: withoutBasePath(request.path, operation.path), pathParams, requestBody };
}

/** `/v2/status` -> `/status` when the document's base path is `/v2`: the target URL brings its own. */
function withoutPrefix(path: string, basePath: string): string {
  return basePath !== '' && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
}

/**
 * `/v2/plants/7` for `/plants/{id}` -> `/plants/7`: the stub serves each path under the document's
 * server base path too, and the target URL brings its own. The leading segments beyond the
 * template's count are that base path (a template segment never holds a `/`).
 */
function withoutBasePath(path: string, template: string): string {
  const segments = path.split('/');
  const extra = segments.length - template.split('/').length;
  return extra > 0 ? ['', ...segments.slice(1 + extra)].join('/') : path;
}
