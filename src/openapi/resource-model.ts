// Stateful mode's model of a document: its resources (a collection path and its item path, the
// item's id, envelopes, the fields only the server sets, what hints decided) and what each bound
// operation does to one. Types only: compile-resources.ts infers them, the engine and the admin
// reports read them.
import type { Validator } from './schema-compiler.js';
import type { ListFigure } from './list-figures.js';

export type ResourceActionKind = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'delete';

export interface Resource {
  /** The collection path as documented (`/plants`); the key of the resource in the state. */
  name: string;
  /** The item path as documented (`/plants/{id}`). */
  itemPath: string;
  /** The item path's parameter (`id` of `/plants/{id}`). */
  idParam: string;
  /** The body property that carries the identity: the one the document's answers use (`gid`, `sid`), else the parameter's name when the created body has it, else `id`. */
  idField: string;
  /**
   * How the stub makes an identity for a created body that carries none; `pattern` redraws
   * `idTemplate`; `format` takes the id of data generated for the answer (`format: ipv4`).
   */
  idKind: 'integer' | 'uuid' | 'string' | 'pattern' | 'format';
  /** `pattern`: a valid id (the schema's example) new ids are drawn like. */
  idTemplate: string | null;
  /** `format`, `pattern`: an id drawn for `key` (the same key, the same id; the answer's data's where it fits the id's schema); null when none is made. */
  drawId: ((key: string) => string | null) | null;
  /** Whether a string id fits the id's pattern and lengths; null where the id is no constrained string. */
  idFits: ((id: string) => boolean) | null;
  /** The id's `minLength` (0 for none): a counted id is padded with zeros to it. */
  minLength: number;
  /** Validates one stored item (the create operation's JSON body schema); null when none is documented. */
  validateItem: Validator | null;
  /** The request bodies' envelope property (`data` of `{"data": {...}}`); null when the body is the item. */
  bodyEnvelope: string | null;
  /** The item answers' envelope property; null when the answer is the item. */
  answerEnvelope: string | null;
  /** Properties the answers carry that requests never send (`created_at`, `size`): made at create time and stored with the item. */
  serverFields: string[];
  /** Of those, the ones an `x-stub-server-set` hint names: never taken from what a client sends, even where its body has them. */
  serverSet: string[];
  /** What `x-stub-*` hints decided, each with the pointer of the hint (GET /__admin/resources says so). */
  hinted: ResourceHinted;
  /**
   * The collection's parent path parameters and the item properties they name
   * (`{AccountSid}` -> `account_sid`): an item belongs to the parent it was created under, and is
   * listed and read only there. Parameters no property names do not scope.
   */
  scope: Array<{ param: string; field: string; integer: boolean }>;
  /** Which operation does what, for GET /__admin/resources. */
  operations: Partial<Record<ResourceActionKind, string>>;
}

/** A resource's name, id property and server-set fields as hints decided them; null (or empty) where inferred. */
export interface ResourceHinted {
  /** The name the admin API calls the resource by, in place of the one made from its path. */
  name: { value: string; from: string } | null;
  /** `from`: the hint and where it is written (`x-stub-id at /components/schemas/User/properties/login`). */
  idProperty: { from: string } | null;
  /** Each property an `x-stub-server-set` hint names, with where it is written. */
  serverSet: Record<string, string>;
}

export interface ResourceAction {
  kind: ResourceActionKind;
  resource: Resource;
  /** list: the property of the documented list object that holds the items; null for a bare array. */
  listField: string | null;
  /** list: the operation documents a `limit` query parameter, so it is honoured. */
  limitParam: boolean;
  /** list: the page and page-size query parameters it documents (`page`, `per_page`) and the size's default. */
  paging?: { page: string; size: string; defaultSize: number } | null;
  /** list: the figures its answer declares about the whole list (`total`, `meta.num_pages`), answered from the store. */
  figures?: readonly ListFigure[];
  /**
   * The envelope this operation's answer wraps the item in: the resource's, unless this answer's
   * own schema has no such property (a create answering a bare `{"test_case_uuid": ...}` where
   * reads answer `{"evaluation_test_case": {...}}`).
   */
  envelope: string | null;
}

/** A collection/item path pair stateful mode left alone, and why. */
export interface StatelessPair {
  collection: string;
  item: string;
  reason: string;
}

export interface Resources {
  /** Operation key (`GET /plants/{id}`) -> what it does to which resource. */
  actions: ReadonlyMap<string, ResourceAction>;
  /** Collection path -> resource, in document order. */
  byName: ReadonlyMap<string, Resource>;
  /** Path pairs that look like a collection and its items but were not made stateful. */
  stateless: readonly StatelessPair[];
}
