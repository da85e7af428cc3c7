// Several operations on one path told apart by a `#fragment` in the path, as Box's document writes
// them (`PUT /files/{file_id}` beside `PUT /files/{file_id}#remove_shared_link`, whose body takes
// `{"shared_link": null}`). A client never sends the fragment, so each such operation is served
// at the path without it: the operation written there (else the first of them) is routed, and the
// others are its alternatives, one of which answers when the routed one's request validation
// refuses a request that theirs accepts (engine/pipeline.ts).
import type { CompiledOperation } from './compiled-model.js';

/**
 * Routes the fragment operations through `add` (which keeps an operation already at a path) and
 * returns each routed operation's alternatives, in the document's order.
 */
export function fragmentAlternatives(operations: readonly CompiledOperation[], add: (method: string, path: string, operation: CompiledOperation) => void): Map<CompiledOperation, CompiledOperation[]> {
  const alternatives = new Map<CompiledOperation, CompiledOperation[]>();
  const plainOf = (operation: CompiledOperation) => operation.path.split('#', 1)[0];
  const written = new Map(operations.filter((operation) => !operation.path.includes('#')).map((operation) => [`${operation.method} ${operation.path}`, operation]));
  for (const operation of operations) {
    if (!operation.path.includes('#') || plainOf(operation) === '') continue;
    const key = `${operation.method} ${plainOf(operation)}`;
    const routed = written.get(key);
    if (routed === undefined) {
      written.set(key, operation);
      add(operation.method, plainOf(operation), operation);
    } else alternatives.set(routed, [...(alternatives.get(routed) ?? []), operation]);
  }
  return alternatives;
}
