// Stateful mode's model of the document, inferred once at start-up: a collection path (`/plants`,
// `/Messages.json`) whose POST creates and GET lists, and an item path right below it
// (`/plants/{id}`, `/Messages/{Sid}.json`) whose GET reads, PUT replaces, PATCH (or, without one,
// POST) merges and DELETE removes. The item's id is the property the document uses (id-property.ts), its bodies may be
// wrapped in an envelope (`{"data": {...}}`), and the properties only the server sets are noted
// so a create can store them. Path pairs that fit no resource are listed with the reason, and
// answer as they do without stateful mode. The document's `x-stub-*` hints correct the inference:
// `x-stub-resource` (resource-hints.ts) keeps a pair or an operation out, or names the resource
// and its id; a property's `x-stub-id` names the id, its `x-stub-server-set` a field only the
// server sets.
// Over 300 lines: the rules that decide a resource's id, envelopes and scope read the same views
// of one path pair; the model's types are in resource-model.ts.
import { nameWords } from '../generate/name-words.js';
import type { CompiledOperation, CompiledSpec } from './compiled-model.js';
import type { LoadedDocument } from './load-document.js';
import { followRefs } from './follow-ref.js';
import { deref, isSchema, objectView, schemaTypes, type ObjectView, type Schema } from './schema-view.js';
import { findIdKey, itemIdNames, KEYED_BY_NAME, normalizedName, resourceWord } from './id-property.js';
import { listFiguresOf } from './list-figures.js';
import type { Resource, ResourceAction, ResourceActionKind, Resources, StatelessPair } from './resource-model.js';
import { re2 } from './re2.js';
import { idFromConstraints, type IdConstraints } from '../generate/id-values.js';
import type { StubHints } from './stub-hints.js';
import { ConfigError } from '../config/config-error.js';
import { pairHints, type PairHints } from './resource-hints.js';

export type { Resource, ResourceAction, ResourceActionKind, ResourceHinted, Resources, StatelessPair } from './resource-model.js';

// `/plants/{id}` and `/Messages/{Sid}.json`: a collection path, the id parameter, a suffix both share.
const ITEM_PATH = /^(.+)\/\{([^{}/]+)\}(\.[A-Za-z0-9]+)?$/;
const ITEM_ACTIONS: Record<string, ResourceActionKind> = { GET: 'read', PUT: 'replace', PATCH: 'merge', DELETE: 'delete' };

/** Stateful mode's resources, with what the document's `x-stub-*` hints say of them (checked when `compiled` was). */
export function compileResources(spec: LoadedDocument, compiled: Pick<CompiledSpec, 'operations' | 'hints'>): Resources {
  const { operations, hints } = compiled;
  const byPath = new Map<string, Map<string, CompiledOperation>>();
  for (const operation of operations) {
    let methods = byPath.get(operation.path);
    if (!methods) byPath.set(operation.path, (methods = new Map()));
    methods.set(operation.method, operation);
  }
  const actions = new Map<string, ResourceAction>();
  const byName = new Map<string, Resource>();
  const stateless: StatelessPair[] = [];
  for (const [itemPath, itemMethods] of byPath) {
    const match = ITEM_PATH.exec(itemPath);
    if (!match) continue;
    const name = match[1] + (match[3] ?? '');
    const collection = byPath.get(name);
    if (!collection) continue;
    const leave = (reason: string) => stateless.push({ collection: name, item: itemPath, reason });
    const hinted = pairHints(spec, hints, name, itemPath, [...collection.values(), ...itemMethods.values()]);
    if (hinted.never !== null) { leave(`${hinted.never} says never stateful`); continue; }
    // An operation a hint keeps out of stateful mode answers as without it.
    const kept = (operation: CompiledOperation | undefined) => (operation !== undefined && !hinted.left.has(operation) ? operation : null);
    const create = kept(collection.get('POST'));
    const list = kept(collection.get('GET'));
    const itemOperations = Object.keys(ITEM_ACTIONS).filter((method) => kept(itemMethods.get(method)) !== null);
    // Stripe, OpenAI and Twilio update an item by POST to its path, with the fields to change: a
    // merge, as PATCH, where the path has no PATCH. A POST without a body is an action (`/jobs/{id}` starts one).
    if (kept(itemMethods.get('POST'))?.body && !itemMethods.has('PATCH')) itemOperations.push('POST');
    if (create === null && list === null) { leave('the collection has neither a POST (create) nor a GET (list)'); continue; }
    if (itemOperations.length === 0) { leave('the item path has no GET, PUT, PATCH or DELETE'); continue; }
    const idParam = match[2];
    const resource = describeResource(spec, name, itemPath, idParam, create, kept(itemMethods.get('GET')), hints, hinted);
    byName.set(name, resource);
    const plain = { resource, listField: null, limitParam: false, envelope: resource.answerEnvelope };
    if (create) bind(actions, resource, create, { ...plain, kind: 'create', envelope: envelopeOf(spec, create, resource) });
    if (list) {
      const listField = listFieldOf(spec, list, resource.idField);
      if (listField !== undefined) bind(actions, resource, list, { ...plain, kind: 'list', listField, limitParam: hasQueryParameter(spec, list, 'limit'), paging: pagingOf(spec, list), figures: listFiguresOf(spec, schemaAt(spec, list.success?.schemaPointer)) });
    }
    for (const method of itemOperations) {
      const operation = itemMethods.get(method)!;
      bind(actions, resource, operation, { ...plain, kind: ITEM_ACTIONS[method] ?? 'merge', envelope: envelopeOf(spec, operation, resource) });
    }
  }
  refuseNamesGivenTwice(spec, [...byName.values()]);
  return { actions, byName, stateless };
}

/** Two resources a hint gives one name would be one in the admin API: the start stops, naming both hints. */
function refuseNamesGivenTwice(spec: LoadedDocument, resources: readonly Resource[]): void {
  const given = new Map<string, string>();
  for (const { hinted } of resources) {
    if (hinted.name === null) continue;
    const before = given.get(hinted.name.value);
    if (before !== undefined) throw new ConfigError(spec.file, `${hinted.name.from.replace(/^x-stub-resource at /, '')}/name: "${hinted.name.value}" is already the name of another resource (${before}); each resource takes its own`);
    given.set(hinted.name.value, hinted.name.from);
  }
}

function bind(actions: Map<string, ResourceAction>, resource: Resource, operation: CompiledOperation, action: ResourceAction): void {
  actions.set(operation.key, action);
  resource.operations[action.kind] = operation.key;
}

/** The resource's answer envelope where `operation`'s answer schema has it (or says nothing), else null. */
function envelopeOf(spec: LoadedDocument, operation: CompiledOperation, resource: Resource): string | null {
  const envelope = resource.answerEnvelope;
  const schema = schemaAt(spec, operation.success?.schemaPointer);
  const view = envelope !== null && schema ? objectView(spec, schema) : null;
  return view === null || view.properties.size === 0 || view.properties.has(envelope!) ? envelope : null;
}

/** A resource's id property, envelopes and server-only fields, read from its create body and its item answer. */
function describeResource(spec: LoadedDocument, name: string, itemPath: string, idParam: string, create: CompiledOperation | null, read: CompiledOperation | null, hints: StubHints, hinted: PairHints): Resource {
  const names = [...itemIdNames(idParam, resourceWord(name)), KEYED_BY_NAME];
  const body = unwrapped(spec, create ? jsonBodySchema(spec, create) : null, names);
  const answer = unwrapped(spec, schemaAt(spec, (read ?? create)?.success?.schemaPointer), names);
  const views = [answer.view, body.view].filter((view) => view !== null);
  const paramSchema = pathParameterSchema(spec, itemPath, idParam);
  const { idField, idHint } = idFieldOf(spec, name, idParam, answer.view, body.view, paramSchema, hints, hinted);
  const serverSet = hintedServerSet(views, idField, hints);
  return {
    name,
    itemPath,
    idParam,
    idField,
    ...newIds(spec, idField, answer, body.view, paramSchema, read ?? create),
    validateItem: body.envelope === null ? create?.body?.media.find((media) => media.json)?.validate ?? null : null,
    bodyEnvelope: body.envelope,
    answerEnvelope: answer.envelope,
    // Only when the create's answer documents them: a document whose answers echo the request has none.
    serverFields: create ? [...new Set([...serverOnlyFields(answer.view, body.view, idField), ...Object.keys(serverSet)])] : [],
    serverSet: Object.keys(serverSet),
    hinted: { name: hinted.name, idProperty: idHint ? { from: idHint.from } : null, serverSet },
    scope: scopeOf(spec, name, answer.view, idField),
    operations: {},
  };
}

/** The item's id property: a hint's, else an id-like name of the answer or the create's body, the path parameter's format, `name`, the parameter's own name, `id`. */
function idFieldOf(spec: LoadedDocument, name: string, idParam: string, answer: ObjectView | null, body: ObjectView | null, paramSchema: Schema | undefined, hints: StubHints, hinted: PairHints): { idField: string; idHint: { value: string; from: string } | null } {
  // An id-like name in the answer, else in the create's body (the Plant Store's `NewPlant` has
  // `id`, its `Plant` answer not): either wins over `name`, the last resort.
  const idNames = itemIdNames(idParam, resourceWord(name));
  const answerId = (answer ? findIdKey(answer.properties.keys(), idNames) : null) ?? (body ? findIdKey(body.properties.keys(), idNames) : null);
  // No name says it (`{reserved_ipv6}` of `{ip, region_slug}`): the one property of the path
  // parameter's format (`ipv6`) is the id.
  const byFormat = answerId === null ? propertyOfFormat(spec, answer, paramSchema) : null;
  const byName = answer ? findIdKey(answer.properties.keys(), [KEYED_BY_NAME]) : null;
  // A hint names the id outright: the pair's `x-stub-resource: { idProperty }`, else a property's `x-stub-id: true`.
  const views = [answer, body].filter((view) => view !== null);
  const marked = views.flatMap((view) => [...view.properties].filter(([, property]) => hints.isSet(property, 'x-stub-id'))).at(0);
  const idHint = hinted.idProperty ?? (marked ? { value: marked[0], from: `x-stub-id at ${hints.pointer(marked[1], 'x-stub-id')}` } : null);
  return { idField: idHint?.value ?? answerId ?? byFormat ?? byName ?? (body?.properties.has(idParam) ? idParam : 'id'), idHint };
}

/** How the stub makes a created item's id: its kind (a counted integer, a uuid, a template, a pattern or format), how one is drawn and checked, its least length. */
function newIds(spec: LoadedDocument, idField: string, answer: { view: ObjectView | null; envelope: string | null }, body: ObjectView | null, paramSchema: Schema | undefined, answering: CompiledOperation | null): Pick<Resource, 'idKind' | 'idTemplate' | 'drawId' | 'idFits' | 'minLength'> {
  const idSchema = answer.view?.properties.get(idField) ?? body?.properties.get(idField);
  // The read's path must take the id: where the property leaves a string open and the path
  // parameter says more (`format: uuid`, a pattern), new ids follow the parameter.
  const idSchemaView = idSchema && !(isOpenString(deref(spec, idSchema)) && paramSchema && !isOpenString(paramSchema)) ? deref(spec, idSchema) : paramSchema;
  let { idKind, idTemplate } = idKindOf(idSchemaView);
  const constraints = idSchemaView && idKind !== 'integer' && idKind !== 'uuid' ? idConstraints(idSchemaView) : null;
  const idFits = constraints ? idChecker(constraints) : null;
  // New ids are drawn like one the answer's own data generator makes (Twilio's `SM` + 32 hex
  // digits), where that fits what the read's path asks; else generated for the id's own pattern,
  // lengths and format (a path parameter's `^se(-[a-z0-9]+)+$` the answer's property leaves open).
  const fromAnswer = idDrawer(answering, idField, answer.envelope);
  const followsParam = idSchemaView === paramSchema && idSchemaView !== undefined;
  const drawId = constraints === null ? fromAnswer : (key: string) => {
    const drawn = followsParam && constraints.format !== undefined ? null : fromAnswer?.(key) ?? null;
    return drawn !== null && idFits!(drawn) ? drawn : idFromConstraints(constraints, key);
  };
  // A patterned id without an example: new ids are that of a drawn one, redrawn.
  if (idKind === 'string' && typeof idSchemaView?.pattern === 'string') {
    idTemplate = [0, 1, 2, 3, 4].map((attempt) => drawId?.(`id template ${attempt}`) ?? null).find((id) => id !== null && idFits?.(id) === true) ?? null;
    if (idTemplate !== null) idKind = 'pattern';
  }
  // Any other format (`ipv4`): each new id is generated, as the format asks.
  if (idKind === 'string' && typeof idSchemaView?.format === 'string' && drawId !== null) idKind = 'format';
  return {
    idKind,
    idTemplate,
    drawId: idKind === 'format' || idKind === 'pattern' ? drawId : null,
    idFits,
    minLength: typeof idSchemaView?.minLength === 'number' ? idSchemaView.minLength : 0,
  };
}

/** The collection path's parameters (`/accounts/{account_id}/messages`) that an answer's field holds, besides the id: what scopes a list. */
function scopeOf(spec: LoadedDocument, name: string, answer: ObjectView | null, idField: string): Resource['scope'] {
  const answerKeys = [...(answer?.properties.keys() ?? [])];
  return [...name.matchAll(/\{([^{}]+)\}/g)].flatMap(([, param]) => {
    const field = findIdKey(answerKeys, [normalizedName(param)]);
    if (field === null || field === idField) return [];
    return [{ param, field, integer: schemaTypes(deref(spec, answer!.properties.get(field))).includes('integer') }];
  });
}

/** The answer's fields the client does not send, in any spelling (`FriendlyName` sent is `friendly_name` answered): the server's to set. */
function serverOnlyFields(answer: ObjectView | null, body: ObjectView | null, idField: string): string[] {
  const sent = new Set([...(body?.properties.keys() ?? [])].map((key) => nameWords(key).join('_')));
  return answer ? [...answer.properties.keys()].filter((key) => key !== idField && !sent.has(nameWords(key).join('_'))) : [];
}

/** The fields a hint (`x-stub-server-set`) says the server sets, each with where: made by it even where the client's body may send it. */
function hintedServerSet(views: readonly ObjectView[], idField: string, hints: StubHints): Record<string, string> {
  const serverSet: Record<string, string> = {};
  for (const view of views) {
    for (const [key, property] of view.properties) if (key !== idField && !(key in serverSet) && hints.isSet(property, 'x-stub-server-set')) serverSet[key] = `x-stub-server-set at ${hints.pointer(property, 'x-stub-server-set')}`;
  }
  return serverSet;
}

/**
 * An object schema and, when it only wraps the item (`{"data": {...}}`: one object property and no
 * id-like property of its own), the envelope's name and the item's view.
 */
function unwrapped(spec: LoadedDocument, schema: Schema | null, names: readonly string[]): { view: ObjectView | null; envelope: string | null } {
  const view = schema ? objectView(spec, schema) : null;
  // An id is never an object: `{"floating_ip": {...}}` of `/floating_ips/{floating_ip}` is an envelope.
  const scalarKeys = view ? [...view.properties].filter(([, property]) => !schemaTypes(deref(spec, property)).includes('object')).map(([key]) => key) : [];
  if (!view || findIdKey(scalarKeys, names) !== null || view.properties.size !== 1) return { view, envelope: null };
  const [[envelope, inner]] = [...view.properties];
  const innerView = objectView(spec, inner);
  return innerView && innerView.properties.size > 0 ? { view: innerView, envelope } : { view, envelope: null };
}

function schemaAt(spec: LoadedDocument, pointer: string | null | undefined): Schema | null {
  return pointer ? deref(spec, spec.resolveRef(`#${pointer}`)) : null;
}

/** The raw operation object of a compiled operation, `$ref`s followed. */
function operationObject(spec: LoadedDocument, operation: CompiledOperation): Schema {
  const pathItem = deref(spec, spec.document.paths?.[operation.path]);
  return deref(spec, pathItem[operation.method.toLowerCase()]);
}

/** The create body's schema: its JSON media type's, else the first documented (a form's). */
function jsonBodySchema(spec: LoadedDocument, operation: CompiledOperation): Schema | null {
  const body = deref(spec, operationObject(spec, operation).requestBody);
  const content = Object.entries(isSchema(body.content) ? body.content : {}).filter(([, media]) => isSchema(media) && media.schema !== undefined);
  const chosen = content.find(([type]) => /json/i.test(type)) ?? content[0];
  return chosen ? deref(spec, (chosen[1] as Schema).schema) : null;
}

/**
 * Where a list operation's items go: undefined when its success response is no list at all. Of a
 * page object's arrays (Box's `{order: [...], entries: [...]}`), the one whose items carry the id
 * property, else the first.
 */
function listFieldOf(spec: LoadedDocument, operation: CompiledOperation, idField: string): string | null | undefined {
  const pointer = operation.success?.schemaPointer;
  if (!pointer) return undefined;
  const schema = deref(spec, spec.resolveRef(`#${pointer}`));
  if (schemaTypes(schema).includes('array')) return null;
  const arrays = [...(objectView(spec, schema)?.properties ?? [])].filter(([, property]) => schemaTypes(deref(spec, property)).includes('array'));
  const holdsItems = ([, property]: [string, Schema]) => objectView(spec, deref(spec, property).items)?.properties.has(idField) === true;
  return (arrays.find(holdsItems) ?? arrays[0])?.[0];
}

function parametersOf(spec: LoadedDocument, operation: CompiledOperation): Schema[] {
  const pathItem = deref(spec, spec.document.paths?.[operation.path]);
  const listed = [pathItem.parameters, operationObject(spec, operation).parameters].flatMap((list) => (Array.isArray(list) ? list : []));
  return listed.map((parameter) => deref(spec, parameter));
}

/** Names a page-size query parameter goes by, beside `page`. */
const PAGE_SIZE_NAMES = ['per_page', 'page_size', 'pageSize', 'perPage', 'limit'];

/** The `page` and page-size query parameters of a list operation; null unless it documents both. */
function pagingOf(spec: LoadedDocument, operation: CompiledOperation): ResourceAction['paging'] {
  const query = parametersOf(spec, operation).filter((parameter) => parameter.in === 'query');
  const size = PAGE_SIZE_NAMES.map((name) => query.find((parameter) => parameter.name === name)).find((parameter) => parameter !== undefined);
  if (!query.some((parameter) => parameter.name === 'page') || size === undefined) return null;
  const fallback = deref(spec, size.schema).default;
  return { page: 'page', size: String(size.name), defaultSize: typeof fallback === 'number' && Number.isInteger(fallback) && fallback > 0 ? fallback : 30 };
}

function hasQueryParameter(spec: LoadedDocument, operation: CompiledOperation, name: string): boolean {
  return parametersOf(spec, operation).some((parameter) => parameter.in === 'query' && parameter.name === name);
}

function pathParameterSchema(spec: LoadedDocument, path: string, name: string): Schema | undefined {
  const pathItem = deref(spec, spec.document.paths?.[path]);
  const operations = Object.values(pathItem).filter(isSchema);
  const listed = [pathItem.parameters, ...operations.map((operation) => operation.parameters)].flatMap((list) => (Array.isArray(list) ? list : []));
  // Operations of one path may declare the parameter differently (Digitalocean's DELETE says
  // `format: uuid` where its GET says string): the one that says most is the one every id must fit.
  const declared = listed.map((entry) => followRefs(spec, entry, '').value).filter((entry) => isSchema(entry) && entry.in === 'path' && entry.name === name);
  const schemas = declared.map((parameter) => deref(spec, (parameter as Schema).schema));
  return schemas.find((schema) => !isOpenString(schema)) ?? schemas[0];
}

/** What draws ids from the operation's answer data generated afresh (not its examples): `idField` of the item. */
function idDrawer(operation: CompiledOperation | null, idField: string, envelope: string | null): ((key: string) => string | null) | null {
  const pointer = operation?.success?.schemaPointer;
  if (!operation || !pointer) return null;
  return (key) => {
    const whole = operation.generate(pointer, key, true);
    const item = envelope !== null && isSchema(whole) ? whole[envelope] : whole;
    const id = isSchema(item) ? item[idField] : undefined;
    return typeof id === 'string' ? id : null;
  };
}

/** The only property of `view` whose format is the path parameter's (not a number's); null for none or several. */
function propertyOfFormat(spec: LoadedDocument, view: ObjectView | null, paramSchema: Schema | undefined): string | null {
  const format = paramSchema?.format;
  if (view === null || typeof format !== 'string' || /^(int32|int64|float|double)$/.test(format)) return null;
  const matching = [...view.properties].filter(([, property]) => deref(spec, property).format === format);
  return matching.length === 1 ? matching[0][0] : null;
}

/** A string schema without format, pattern, enum or a least length: any string (a counted `1`) fits. */
function isOpenString(schema: Schema): boolean {
  return schemaTypes(schema).includes('string') && schema.format === undefined && schema.pattern === undefined && schema.enum === undefined
    && !(typeof schema.minLength === 'number' && schema.minLength > 1);
}

/** The pattern, lengths and format of a string id's schema. */
function idConstraints(schema: Schema): IdConstraints | null {
  const picked: IdConstraints = {};
  if (typeof schema.pattern === 'string') picked.pattern = schema.pattern;
  if (typeof schema.minLength === 'number') picked.minLength = schema.minLength;
  if (typeof schema.maxLength === 'number') picked.maxLength = schema.maxLength;
  if (typeof schema.format === 'string') picked.format = schema.format;
  return Object.keys(picked).length === 0 ? null : picked;
}

/** Whether an id fits the pattern (by RE2, as the validators match it) and the lengths; the format is the generator's to keep. */
function idChecker({ pattern, minLength = 0, maxLength = Infinity }: IdConstraints): (id: string) => boolean {
  let matcher: ((text: string) => boolean) | null = null;
  try {
    const compiled = pattern === undefined ? null : re2().compile(pattern);
    matcher = compiled === null ? () => true : (text) => compiled.matcher(text).find();
  } catch {
    // A pattern RE2 cannot run is not enforced by the validators either.
    matcher = () => true;
  }
  return (id) => [...id].length >= minLength && [...id].length <= maxLength && matcher!(id);
}

function idKindOf(schema: Schema | undefined): Pick<Resource, 'idKind' | 'idTemplate'> {
  if (!schema) return { idKind: 'integer', idTemplate: null };
  const types = schemaTypes(schema);
  if (types.includes('integer') || types.includes('number')) return { idKind: 'integer', idTemplate: null };
  if (schema.format === 'uuid') return { idKind: 'uuid', idTemplate: null };
  // An id with a pattern (`^SM[0-9a-fA-F]{32}$`) is drawn like the schema's own example.
  const example = typeof schema.example === 'string' ? schema.example : Array.isArray(schema.examples) && typeof schema.examples[0] === 'string' ? schema.examples[0] : null;
  if (typeof schema.pattern === 'string' && example !== null) return { idKind: 'pattern', idTemplate: example };
  return { idKind: 'string', idTemplate: null };
}
