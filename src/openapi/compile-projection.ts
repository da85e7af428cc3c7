// Echo: projects the request body onto the response schema. Only fields the response schema
// declares are copied (so `id` is dropped from a Plant answer); a required field the request
// lacks comes from the fallback (an example or generated data), and so does a field only the
// server sets: one the request's schema does not declare (`id`, `createdAt`, `resultCode` in an
// answer to a body without them) or that is `readOnly`. An object declaring no properties (a map,
// a free-form object, a oneOf) is carried as it is. Each plan is compiled once. A field the
// request holds in another spelling (`FriendlyName` sent, `friendly_name` answered) is carried too,
// where that spelling is the only one of its words in the request: one name, several spellings.
import { deref, objectView, schemaTypes, type Schema } from './schema-view.js';
import type { LoadedDocument } from './load-document.js';
import { setOwn } from '../common/json-value.js';
import { nameWords } from '../generate/name-words.js';

// `nullable`: a null source is carried as null (a stored `date_value: null` stays null), not
// replaced by the fallback's object.
type Plan =
  | { kind: 'object'; fields: Array<{ name: string; words: string; plan: Plan; required: boolean; serverSet: boolean }>; nullable: boolean }
  | { kind: 'array'; items: Plan; nullable: boolean }
  | { kind: 'value' };

/** Projects `source`; `fallback` is called (at most once per level) only when something is missing. */
export interface Projection {
  (source: unknown, fallback: () => unknown): unknown;
  /** Whether the projection would carry anything of `source`: an object sharing no field with the response carries nothing. */
  takesFrom(source: unknown): boolean;
}

/**
 * `schema` is the response's; `requestSchema` the JSON body schema of the same operation (undefined
 * when it has none), which tells the fields a client sends from those only the server sets.
 */
export function compileProjection(spec: LoadedDocument, schema: unknown, requestSchema?: unknown): Projection {
  // Planned on first use: a document's many operations mostly go unused, and planning every
  // response at start was a quarter of a second of GitHub's start-up.
  let planned: Plan | null = null;
  const plan = () => (planned ??= compilePlan(spec, schema, requestSchema === undefined ? UNKNOWN : deref(spec, requestSchema), new Map(), false));
  const project = (source: unknown, fallback: () => unknown) => apply(plan(), source, once(fallback));
  return Object.assign(project, {
    takesFrom: (source: unknown) => {
      const top = plan();
      if (top.kind !== 'object' || !isPlainObject(source)) return true;
      if (top.fields.some(({ name }) => Object.hasOwn(source, name))) return true;
      // Other spellings only when no field is there under its own name: the words cost a regex per key.
      const spellings = spellingsOf(source);
      return top.fields.some(({ words }) => spellings.has(words));
    },
  });
}

/** No request schema to compare with: no field counts as set by the server alone, except readOnly ones. */
const UNKNOWN: Schema = {};

function compilePlan(spec: LoadedDocument, raw: unknown, request: Schema, memo: Map<Schema, Map<Schema, Plan>>, nested = true): Plan {
  const schema = deref(spec, raw);
  const known = memo.get(schema)?.get(request);
  if (known) return known;
  const remember = <P extends Plan>(plan: P): P => {
    // Registered before recursing, so recursive schemas terminate.
    if (!memo.has(schema)) memo.set(schema, new Map());
    memo.get(schema)!.set(request, plan);
    return plan;
  };
  const view = objectView(spec, schema);
  // An object that declares no properties (a map of `additionalProperties`, a free-form
  // `metadata`, a `oneOf` of shapes) has nothing to project onto: what was sent is carried as it
  // is, not emptied to `{}` (the answer's validation still decides whether it is kept).
  // (Not the answer itself: a body sharing nothing with it is answered by the example instead.)
  if (nested && view && view.properties.size === 0 && schema.additionalProperties !== false) return { kind: 'value' };
  if (view) {
    const plan = remember<Extract<Plan, { kind: 'object' }>>({ kind: 'object', fields: [], nullable: schemaTypes(schema).includes('null') });
    // The request's own fields at this level; none known (no request schema, a free-form object,
    // oneOf alternatives) means no field is taken for the server's alone.
    const sent = request === UNKNOWN ? null : objectView(spec, request);
    const sendable = sent !== null && sent.properties.size > 0 ? sent.properties : null;
    for (const [name, property] of view.properties) {
      const readOnly = deref(spec, property).readOnly === true;
      const inRequest = sendable?.get(name);
      plan.fields.push({
        name,
        words: nameWords(name).join('_'),
        plan: compilePlan(spec, property, inRequest === undefined ? UNKNOWN : deref(spec, inRequest), memo),
        required: view.required.has(name),
        serverSet: readOnly || (sendable !== null && inRequest === undefined),
      });
    }
    return plan;
  }
  if (schemaTypes(schema).includes('array') && schema.items !== undefined) {
    const plan = remember<Extract<Plan, { kind: 'array' }>>({ kind: 'array', items: { kind: 'value' }, nullable: schemaTypes(schema).includes('null') });
    const requestItems = schemaTypes(request).includes('array') && request.items !== undefined ? deref(spec, request.items) : UNKNOWN;
    plan.items = compilePlan(spec, schema.items, requestItems, memo);
    return plan;
  }
  return { kind: 'value' };
}

function apply(plan: Plan, source: unknown, fallback: () => unknown): unknown {
  if (source === null && plan.kind !== 'value' && plan.nullable) return null;
  switch (plan.kind) {
    case 'value':
      return source;
    case 'array':
      if (!Array.isArray(source)) return fallback();
      return source.map((item) => apply(plan.items, item, once(() => firstItem(fallback()))));
    case 'object': {
      if (!isPlainObject(source)) return fallback();
      const result: Record<string, unknown> = {};
      // The source's keys by their words, read only when a field is missing under its own name.
      let spellings: Map<string, string> | undefined;
      for (const { name, words, plan: fieldPlan, required, serverSet } of plan.fields) {
        let value: unknown;
        const key = Object.hasOwn(source, name) ? name : (spellings ??= spellingsOf(source)).get(words);
        if (key !== undefined) {
          // Leaves (the common case) are copied without building a fallback for them.
          value = fieldPlan.kind === 'value' ? source[key] : apply(fieldPlan, source[key], once(() => propertyOf(fallback(), name)));
        } else if (required || serverSet) {
          value = propertyOf(fallback(), name);
        }
        if (value === undefined) continue;
        if (name === '__proto__') setOwn(result, name, value);
        else result[name] = value;
      }
      return result;
    }
  }
}

/** An object's keys by their words (`FriendlyName` under `friendly_name`); words two keys share name neither. */
function spellingsOf(source: Record<string, unknown>): Map<string, string> {
  const byWords = new Map<string, string>();
  const shared = new Set<string>();
  for (const key of Object.keys(source)) {
    const words = wordsOf(key);
    if (byWords.has(words)) shared.add(words);
    else byWords.set(words, key);
  }
  for (const words of shared) byWords.delete(words);
  return byWords;
}

/** The words of a request's key, remembered: the same few names come with every request. */
const KNOWN_WORDS = new Map<string, string>();

function wordsOf(key: string): string {
  let words = KNOWN_WORDS.get(key);
  if (words === undefined) {
    // Bounded: a client sending ever new keys never grows it past this.
    if (KNOWN_WORDS.size >= 10_000) KNOWN_WORDS.clear();
    KNOWN_WORDS.set(key, (words = nameWords(key).join('_')));
  }
  return words;
}

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function propertyOf(value: unknown, name: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function firstItem(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}
