// What is worth telling a client about a request that is nonetheless valid: a parameter the
// document marks deprecated. Prism reports these in its `sl-violations` header (the compat
// policy's `violationsHeader`), worded as Prism words them.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { PlainRequest } from '../common/plain-http.js';
import { escapePointerToken } from '../common/json-pointer.js';

/** `/query/productId: Query param productId is deprecated [deprecated]` for each deprecated parameter the request sends. */
export function requestWarnings(operation: CompiledOperation, request: PlainRequest, query: URLSearchParams): string[] {
  const { deprecated } = operation.validateParameters;
  if (deprecated.length === 0) return [];
  const warnings: string[] = [];
  for (const { location, name } of deprecated) {
    const sent = location === 'query' ? query.has(name) : location === 'header' ? request.headers[name] !== undefined : false;
    if (!sent) continue;
    const where = location[0].toUpperCase() + location.slice(1);
    warnings.push(`/${location}/${escapePointerToken(name)}: ${where} param ${name} is deprecated [deprecated]`);
  }
  return warnings;
}
