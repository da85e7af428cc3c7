// The `x-stub-*` hints: corrections to what the stub infers, written in the document or added by an
// overlay. Found and checked once when the document is compiled: an unknown hint, one in a place
// it means nothing, a value of the wrong type, a property or example name that does not exist and
// a faker method faker lacks each stop the start, naming the document and the hint's JSON pointer
// with the nearest right name. The stages that act on a hint read it where it is written (the
// property, the response, the operation); this keeps where each is, for the reports that say so.
import { ConfigError } from '../config/config-error.js';
import { nearestName } from '../common/nearest-name.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';
import { anyKey } from '../common/any-key.js';
import { generatorLibraries } from '../generate/generator-libraries.js';
import { cheapRandomizer } from '../generate/seeded-random.js';
import { fakerMethod, fakerMethodNames } from '../generate/faker-methods.js';
import type { LoadedDocument } from './load-document.js';
import { followToObject } from './follow-ref.js';
import { deref, objectView, schemaTypes, type Schema } from './schema-view.js';
import { CONSUMES_EXTENSION } from './swagger-consumes.js';
import { EXACT_INTEGER } from './validation-copy.js';
import { UNIQUE_ITEMS } from './unique-items-keyword.js';

/** Where each hint may be written. */
type Site = 'path item' | 'operation' | 'response' | 'schema property';

const HINT_SITES = {
  'x-stub-resource': ['path item', 'operation'],
  'x-stub-id': ['schema property'],
  'x-stub-generate': ['schema property'],
  'x-stub-server-set': ['schema property'],
  'x-stub-example': ['response'],
} as const satisfies Record<string, readonly Site[]>;

export type HintKey = keyof typeof HINT_SITES;
const HINT_KEYS = Object.keys(HINT_SITES) as HintKey[];
const RESOURCE_KEYS = ['name', 'idProperty'];
/** Extensions the stub writes itself (a converted Swagger 2.0 operation's `consumes`, the validation copy's keywords): no hints. */
const OWN_EXTENSIONS = new Set([CONSUMES_EXTENSION, EXACT_INTEGER, UNIQUE_ITEMS]);
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/** `x-stub-resource: { name, idProperty }`: what stateful mode should call the resource and key it by. */
export interface ResourceHint {
  name: string | null;
  idProperty: string | null;
}

/** The hints of one document, each by the object it is written on. */
export class StubHints {
  private readonly written = new WeakMap<object, Map<HintKey, string>>();
  /** How many hints the document holds. */
  count = 0;

  add(holder: object, key: HintKey, pointer: string): void {
    let keys = this.written.get(holder);
    if (!keys) this.written.set(holder, (keys = new Map()));
    keys.set(key, pointer);
    this.count++;
  }

  /** The JSON pointer of hint `key` written on `holder` (a property, an operation…); undefined where it holds none. */
  pointer(holder: unknown, key: HintKey): string | undefined {
    return isObject(holder) ? this.written.get(holder)?.get(key) : undefined;
  }

  /** `x-stub-resource` of a path item or operation: false (never stateful), a name and id, or undefined for none. */
  resource(holder: unknown): false | ResourceHint | undefined {
    if (this.pointer(holder, 'x-stub-resource') === undefined) return undefined;
    const value = (holder as Record<string, unknown>)['x-stub-resource'];
    if (value === false) return false;
    const hint = value as Record<string, unknown>;
    return { name: typeof hint.name === 'string' ? hint.name : null, idProperty: typeof hint.idProperty === 'string' ? hint.idProperty : null };
  }

  /** Whether `holder` (a schema property) carries hint `key` set to true. */
  isSet(holder: unknown, key: 'x-stub-id' | 'x-stub-server-set'): boolean {
    return this.pointer(holder, key) !== undefined && (holder as Record<string, unknown>)[key] === true;
  }
}

/**
 * Finds and checks every `x-stub-*` hint of the document; the first walk only looks for one, so a
 * document without hints (most) costs a key test per object.
 */
export function readStubHints(spec: LoadedDocument): StubHints {
  const hints = new StubHints();
  if (!anyKey(spec.document, (key) => key.startsWith('x-stub-'))) return hints;
  const problems: string[] = [];
  const stack: Array<{ node: object; tokens: string[] }> = [{ node: spec.document, tokens: [] }];
  while (stack.length > 0) {
    const { node, tokens } = stack.pop()!;
    // A `properties` map's keys are the names of properties, whatever they are.
    const names = tokens.at(-1) === 'properties';
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-stub-') && !OWN_EXTENSIONS.has(key) && !Array.isArray(node) && !names) {
        const pointer = `${tokens.map((token) => `/${escapePointerToken(token)}`).join('')}/${escapePointerToken(key)}`;
        const problem = checkHint(spec, key, value, node as Schema, siteOf(tokens));
        if (problem === null) hints.add(node, key as HintKey, pointer);
        else problems.push(`${pointer}: ${problem}`);
      }
      // Values the document gives as data (an example, a default) hold no hints, whatever their keys.
      if (value !== null && typeof value === 'object' && !(DATA_KEYS.has(key) && !names)) stack.push({ node: value, tokens: [...tokens, key] });
    }
  }
  if (problems.length > 0) throw new ConfigError(spec.file, problems.sort().join('; '), problems);
  return hints;
}

/** What the object at `tokens` is, by where it stands; null for anything no hint is written on. */
function siteOf(tokens: readonly string[]): Site | null {
  const [first, second] = tokens;
  const pathItem = (first === 'paths' && tokens.length === 2) || (first === 'components' && second === 'pathItems' && tokens.length === 3);
  if (pathItem) return 'path item';
  const inPathItem = first === 'paths' ? 2 : first === 'components' && second === 'pathItems' ? 3 : -1;
  if (inPathItem > 0 && tokens.length === inPathItem + 1 && METHODS.has(tokens[inPathItem])) return 'operation';
  if (inPathItem > 0 && tokens.length === inPathItem + 2 && tokens[inPathItem] === 'additionalOperations') return 'operation';
  if (tokens.at(-2) === 'responses' && (first === 'paths' || (first === 'components' && (second === 'responses' || second === 'pathItems')))) return 'response';
  if (tokens.at(-2) === 'properties') return 'schema property';
  return null;
}

/** What is wrong with hint `key` written on `holder`; null when it is right. */
function checkHint(spec: LoadedDocument, key: string, value: unknown, holder: Schema, site: Site | null): string | null {
  if (!(key in HINT_SITES)) {
    const near = nearestName(key, HINT_KEYS);
    return `unknown hint${near ? ` (did you mean "${near}"?)` : ''}; the hints are ${HINT_KEYS.join(', ')}`;
  }
  const sites: readonly Site[] = HINT_SITES[key as HintKey];
  if (site === null || !sites.includes(site)) return `${key} is written on ${sites.map(withArticle).join(' or ')}${site ? `, not on ${withArticle(site)}` : ''}`;
  switch (key as HintKey) {
    case 'x-stub-id':
    case 'x-stub-server-set':
      return typeof value === 'boolean' ? null : `must be true or false, not ${JSON.stringify(value)}`;
    case 'x-stub-generate':
      return checkFakerCall(value);
    case 'x-stub-example':
      return checkExampleName(spec, value, holder);
    case 'x-stub-resource':
      return checkResource(spec, value, holder, site);
  }
}

function withArticle(site: Site): string {
  return `${/^[aeiou]/.test(site) ? 'an' : 'a'} ${site}`;
}

/** A faker method by its dotted name (`internet.email`), or `{ 'number.int': { max: 10 } }` with its arguments: as `x-faker` takes it. */
function checkFakerCall(value: unknown): string | null {
  const method = typeof value === 'string' ? value : isObject(value) && Object.keys(value).length === 1 ? Object.keys(value)[0] : null;
  if (method === null) return `must name a faker method ('internet.email'), or be { method: arguments } ({ 'number.int': { max: 10 } }), not ${JSON.stringify(value)}`;
  let faker;
  try {
    faker = generatorLibraries().createFaker(cheapRandomizer());
  } catch {
    return null; // faker not loaded (a page whose document the check cleared of faker): nothing calls it
  }
  if (fakerMethod(faker, method) !== null) return null;
  const near = nearestName(method, fakerMethodNames(faker));
  return `faker has no method "${method}"${near ? ` (did you mean "${near}"?)` : ''}; write it as faker's module and method: 'person.fullName', 'internet.email'`;
}

/** The name of one of the response's examples (`default` for a single `example`). */
function checkExampleName(spec: LoadedDocument, value: unknown, response: Schema): string | null {
  if (typeof value !== 'string' || value === '') return `must name one of the response's examples, not ${JSON.stringify(value)}`;
  const content = isObject(response.content) ? Object.values(response.content).filter(isObject) : [];
  const names = [...new Set(content.flatMap((media) => [...(isObject(media.examples) ? Object.keys(media.examples) : []), ...(media.example !== undefined ? ['default'] : [])]))];
  if (names.includes(value)) return null;
  const near = nearestName(value, names);
  return `the response has no example "${value}"${near ? ` (did you mean "${near}"?)` : ''}; its examples: ${names.join(', ') || 'none'}`;
}

/** false, or `{ name, idProperty }` with an id property the operations' bodies or answers have. */
function checkResource(spec: LoadedDocument, value: unknown, holder: Schema, site: Site): string | null {
  if (value === false) return null;
  if (!isObject(value)) return `must be false (never stateful) or { name, idProperty }, not ${JSON.stringify(value)}`;
  const unknown = Object.keys(value).find((key) => !RESOURCE_KEYS.includes(key));
  if (unknown !== undefined) {
    const near = nearestName(unknown, RESOURCE_KEYS);
    return `unknown field "${unknown}"${near ? ` (did you mean "${near}"?)` : ''}; it takes ${RESOURCE_KEYS.join(', ')}`;
  }
  if (value.name === undefined && value.idProperty === undefined) return 'names neither a name nor an idProperty';
  if (value.name !== undefined && (typeof value.name !== 'string' || !/^[A-Za-z0-9._~-]+$/.test(value.name))) return `name must be a word of letters, digits, '-', '_', '.' or '~' (it names the resource in /__admin/resources/{name}), not ${JSON.stringify(value.name)}`;
  if (value.idProperty === undefined) return null;
  if (typeof value.idProperty !== 'string' || value.idProperty === '') return `idProperty must be a property name, not ${JSON.stringify(value.idProperty)}`;
  const operations = site === 'operation' ? [holder] : Object.entries(holder).filter(([method, operation]) => METHODS.has(method) && isObject(operation)).map(([, operation]) => operation as Schema);
  const names = [...new Set(operations.flatMap((operation) => itemPropertyNames(spec, operation)))];
  if (names.length === 0 || names.includes(value.idProperty)) return null;
  const near = nearestName(value.idProperty, names);
  return `idProperty "${value.idProperty}" is no property of the items${near ? ` (did you mean "${near}"?)` : ''}; they have ${names.join(', ')}`;
}

/**
 * The property names of the items an operation sends or answers: its JSON bodies' and successes'
 * objects, an envelope's (`{"data": {...}}`) and a list's items' too.
 */
function itemPropertyNames(spec: LoadedDocument, operation: Schema): string[] {
  const body = followToObject(spec, operation.requestBody, '').value;
  const responses = isObject(operation.responses) ? Object.entries(operation.responses).filter(([status]) => /^2/.test(status)).map(([, response]) => followToObject(spec, response, '').value) : [];
  const schemas = [body, ...responses].flatMap((holder) => (isObject(holder.content) ? Object.entries(holder.content) : []))
    .filter(([type, media]) => /json/i.test(type) && isObject(media) && media.schema !== undefined).map(([, media]) => (media as Schema).schema);
  const names: string[] = [];
  const visit = (schema: unknown, depth: number): void => {
    const resolved = deref(spec, schema);
    if (schemaTypes(resolved).includes('array')) {
      if (depth < 2) visit(resolved.items, depth + 1);
      return;
    }
    for (const [name, property] of objectView(spec, resolved)?.properties ?? []) {
      names.push(name);
      if (depth < 2) visit(property, depth + 1);
    }
  };
  for (const schema of schemas) visit(schema, 0);
  return names;
}
