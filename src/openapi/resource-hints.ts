// What the `x-stub-resource` hints of one collection/item path pair say to stateful mode: written
// on either path item or on one of their operations, `false` keeps the pair (or that operation)
// out of it, and `{ name, idProperty }` names the resource and its id. Two hints of one pair that
// disagree stop the start, naming both.
import { ConfigError } from '../config/config-error.js';
import type { CompiledOperation } from './compiled-model.js';
import type { LoadedDocument } from './load-document.js';
import { deref } from './schema-view.js';
import type { StubHints } from './stub-hints.js';

/** A value a hint gave, and `from`: the hint and where it is written (`x-stub-resource at /paths/~1users`). */
export interface Hinted {
  value: string;
  from: string;
}

export interface PairHints {
  /** `x-stub-resource at <pointer>` of a path item set to false: the pair is not made stateful; null otherwise. */
  never: string | null;
  /** Operations whose own hint is false: they answer as without stateful mode. */
  left: ReadonlySet<CompiledOperation>;
  name: Hinted | null;
  idProperty: Hinted | null;
}

/** The hints of the pair `collection`/`item` and of its `operations`. */
export function pairHints(spec: LoadedDocument, hints: StubHints, collection: string, item: string, operations: readonly CompiledOperation[]): PairHints {
  const found: PairHints & { left: Set<CompiledOperation> } = { never: null, left: new Set(), name: null, idProperty: null };
  if (hints.count === 0) return found;
  const pathItems = [collection, item].map((path) => deref(spec, spec.document.paths?.[path]));
  const holders: Array<{ holder: unknown; operation: CompiledOperation | null }> = [
    ...pathItems.map((holder) => ({ holder, operation: null })),
    ...operations.map((operation) => ({ holder: deref(spec, pathItems[operation.path === collection ? 0 : 1][operation.method.toLowerCase()]), operation })),
  ];
  for (const { holder, operation } of holders) {
    const hint = hints.resource(holder);
    if (hint === undefined) continue;
    const from = `x-stub-resource at ${hints.pointer(holder, 'x-stub-resource')}`;
    if (hint === false) {
      if (operation === null) found.never ??= from;
      else found.left.add(operation);
      continue;
    }
    if (hint.name !== null) found.name = agreed(spec, found.name, { value: hint.name, from }, 'name');
    if (hint.idProperty !== null) found.idProperty = agreed(spec, found.idProperty, { value: hint.idProperty, from }, 'idProperty');
  }
  return found;
}

/** The value two hints of one resource agree on; differing, the start stops naming both. */
function agreed(spec: LoadedDocument, before: Hinted | null, now: Hinted, field: string): Hinted {
  if (before === null || before.value === now.value) return before ?? now;
  throw new ConfigError(spec.file, `${now.from.replace(/^x-stub-resource at /, '')}/${field}: "${now.value}" differs from "${before.value}" given to the same resource by ${before.from}; give it once`);
}
