// Stage 1: which operation a request is for. A path the document lacks is 404, a method it lacks
// on a known path is 405 with the Allow list derived from the route table.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { RouteTable } from '../openapi/route-table.js';
import { refuse, type Refusal } from './refusal.js';
import type { StubRequest } from '../common/plain-http.js';

export interface Routed {
  operation: CompiledOperation;
  pathParams: Record<string, string>;
}

export function route(routes: RouteTable<CompiledOperation>, request: StubRequest): Routed | Refusal {
  const match = routes.match(request.method, request.path);
  switch (match.kind) {
    case 'operation':
      return { operation: match.operation, pathParams: match.pathParams };
    case 'method-not-allowed':
      return refuse(405, `${request.method} is not allowed on ${request.path}; allowed: ${match.allow.join(', ')}`, {
        fromStub: true,
        headers: { allow: match.allow.join(', ') },
      });
    case 'bad-path':
      return refuse(400, match.reason, { fromStub: true });
    case 'not-found':
      return refuse(404, `no operation of the spec matches ${request.method} ${request.path}`, { fromStub: true });
  }
}
