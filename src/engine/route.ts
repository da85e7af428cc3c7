// Stage 1 (route): which operation a request is for. A path the document lacks is 404, a method it lacks
// on a known path is 405 with the Allow list derived from the route table.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { RouteTable } from '../openapi/route-table.js';
import type { Refusal } from './engine-types.js';
import { routeRefusals } from './refusals.js';
import type { PlainRequest } from '../common/plain-http.js';

export interface Routed {
  operation: CompiledOperation;
  pathParams: Record<string, string>;
}

/** `mounted`: with several documents, each one's name and mount path, named by the 404. */
export function route(routes: RouteTable<CompiledOperation>, request: PlainRequest, mounted: ReadonlyArray<{ name: string; mount: string }> = []): Routed | Refusal {
  const match = routes.match(request.method, request.path);
  switch (match.kind) {
    case 'operation':
      return { operation: match.operation, pathParams: match.pathParams };
    case 'method-not-allowed':
      return routeRefusals.methodNotAllowed(request.method, request.path, match.allow);
    case 'bad-path':
      return routeRefusals.badPath(match.reason);
    case 'not-found':
      return routeRefusals.noOperation(request.method, request.path, mounted);
  }
}
