// Stateful mode's model of the document, inferred once at start-up: a collection path (`/plants`)
// whose POST creates and GET lists, and an item path right below it (`/plants/{id}`) whose GET
// reads, PUT replaces, PATCH merges and DELETE removes. Operations that fit no such pair are left
// out, and answer as they do without stateful mode.
import type { CompiledOperation } from './compiled-model.js';
import type { LoadedDocument } from './load-document.js';
import type { Validator } from './schema-compiler.js';
import { followRefs } from './follow-ref.js';
import { deref, isSchema, objectView, schemaTypes, type Schema } from './schema-view.js';

export type ResourceActionKind = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'delete';

export interface Resource {
  /** The collection path as documented (`/plants`); the key of the resource in the state. */
  name: string;
  /** The item path's parameter (`id` of `/plants/{id}`). */
  idParam: string;
  /** The body property that carries the identity: the parameter's name when the created body has it, else `id`. */
  idField: string;
  /** How the stub makes an identity for a created body that carries none. */
  idKind: 'integer' | 'uuid' | 'string';
  /** Validates one stored item (the create operation's JSON body schema); null when none is documented. */
  validateItem: Validator | null;
}

export interface ResourceAction {
  kind: ResourceActionKind;
  resource: Resource;
  /** list: the property of the documented list object that holds the items; null for a bare array. */
  listField: string | null;
  /** list: the operation documents a `limit` query parameter, so it is honoured. */
  limitParam: boolean;
}

export interface Resources {
  /** Operation key (`GET /plants/{id}`) -> what it does to which resource. */
  actions: ReadonlyMap<string, ResourceAction>;
  /** Collection path -> resource, in document order. */
  byName: ReadonlyMap<string, Resource>;
}

const ITEM_PATH = /^(.+)\/\{([^{}/]+)\}$/;
const ITEM_ACTIONS: Record<string, ResourceActionKind> = { GET: 'read', PUT: 'replace', PATCH: 'merge', DELETE: 'delete' };

export function compileResources(spec: LoadedDocument, operations: readonly CompiledOperation[]): Resources {
  const byPath = new Map<string, Map<string, CompiledOperation>>();
  for (const operation of operations) {
    let methods = byPath.get(operation.path);
    if (!methods) byPath.set(operation.path, (methods = new Map()));
    methods.set(operation.method, operation);
  }
  const actions = new Map<string, ResourceAction>();
  const byName = new Map<string, Resource>();
  for (const [itemPath, itemMethods] of byPath) {
    const match = ITEM_PATH.exec(itemPath);
    const collection = match ? byPath.get(match[1]) : undefined;
    if (!match || !collection) continue;
    const create = collection.get('POST') ?? null;
    const list = collection.get('GET') ?? null;
    const itemOperations = Object.keys(ITEM_ACTIONS).filter((method) => itemMethods.has(method));
    if ((create === null && list === null) || itemOperations.length === 0) continue;
    const [, name, idParam] = match;
    const bodySchema = create ? jsonBodySchema(spec, create) : null;
    const bodyView = bodySchema ? objectView(spec, bodySchema) : null;
    const idField = bodyView?.properties.has(idParam) ? idParam : 'id';
    const resource: Resource = {
      name,
      idParam,
      idField,
      idKind: idKindOf(bodyView?.properties.get(idField) ?? pathParameterSchema(spec, itemPath, idParam)),
      validateItem: create?.body?.media.find((media) => media.json)?.validate ?? null,
    };
    byName.set(name, resource);
    const plain = { resource, listField: null, limitParam: false };
    if (create) actions.set(create.key, { ...plain, kind: 'create' });
    if (list) {
      const listField = listFieldOf(spec, list);
      if (listField !== undefined) actions.set(list.key, { ...plain, kind: 'list', listField, limitParam: hasQueryParameter(spec, list, 'limit') });
    }
    for (const method of itemOperations) actions.set(itemMethods.get(method)!.key, { ...plain, kind: ITEM_ACTIONS[method] });
  }
  return { actions, byName };
}

/** The raw operation object of a compiled operation, `$ref`s followed. */
function operationObject(spec: LoadedDocument, operation: CompiledOperation): Schema {
  const pathItem = deref(spec, spec.document.paths?.[operation.path]);
  return deref(spec, pathItem[operation.method.toLowerCase()]);
}

function jsonBodySchema(spec: LoadedDocument, operation: CompiledOperation): Schema | null {
  const body = deref(spec, operationObject(spec, operation).requestBody);
  const content = isSchema(body.content) ? body.content : {};
  const json = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  return isSchema(json) && json.schema !== undefined ? deref(spec, json.schema) : null;
}

/** Where a list operation's items go: undefined when its success response is no list at all. */
function listFieldOf(spec: LoadedDocument, operation: CompiledOperation): string | null | undefined {
  const pointer = operation.success?.schemaPointer;
  if (!pointer) return undefined;
  const schema = deref(spec, spec.resolveRef(`#${pointer}`));
  if (schemaTypes(schema).includes('array')) return null;
  const view = objectView(spec, schema);
  for (const [name, property] of view?.properties ?? []) {
    if (schemaTypes(deref(spec, property)).includes('array')) return name;
  }
  return undefined;
}

function parametersOf(spec: LoadedDocument, operation: CompiledOperation): Schema[] {
  const pathItem = deref(spec, spec.document.paths?.[operation.path]);
  const listed = [pathItem.parameters, operationObject(spec, operation).parameters].flatMap((list) => (Array.isArray(list) ? list : []));
  return listed.map((parameter) => deref(spec, parameter));
}

function hasQueryParameter(spec: LoadedDocument, operation: CompiledOperation, name: string): boolean {
  return parametersOf(spec, operation).some((parameter) => parameter.in === 'query' && parameter.name === name);
}

function pathParameterSchema(spec: LoadedDocument, path: string, name: string): Schema | undefined {
  const pathItem = deref(spec, spec.document.paths?.[path]);
  const operations = Object.values(pathItem).filter(isSchema);
  const listed = [pathItem.parameters, ...operations.map((operation) => operation.parameters)].flatMap((list) => (Array.isArray(list) ? list : []));
  const parameter = listed.map((entry) => followRefs(spec, entry, '').value).find((entry) => isSchema(entry) && entry.in === 'path' && entry.name === name);
  return isSchema(parameter) ? deref(spec, parameter.schema) : undefined;
}

function idKindOf(schema: Schema | undefined): Resource['idKind'] {
  if (!schema) return 'integer';
  const types = schemaTypes(schema);
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return schema.format === 'uuid' ? 'uuid' : 'string';
}
