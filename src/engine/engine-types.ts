// The values the engine's stages hand each other, in one file of types, so that a stage need not
// import another for a type: a refusal, the client's selection, the chosen answer, the built
// body, and stateful mode's stored resources and changes. (The engine's output, EngineResponse,
// is in engine-response.ts; a stage that calls another's function imports that stage.)
import type { ResponsePlan } from '../openapi/compiled-model.js';
import type { ResourceActionKind } from '../openapi/compile-resources.js';
import type { ListFigure } from '../openapi/list-figures.js';
import type { Fault } from '../common/faults.js';
import type { TemplateContext } from './templates.js';
import type { Scenario } from './scenario.js';

/**
 * Which refusal this is (refusals.ts names every one): what metrics count it as, what the log and
 * a renderer that words it its own way (Prism's problem types, prism-answers.ts) read, rather than
 * guessing from its status.
 */
export type RefusalName =
  // 1. Route
  | 'noOperation' | 'methodNotAllowed' | 'badPath'
  // 2. Authenticate
  | 'unauthenticated'
  // 3. Validate the request
  | 'bodyTooLarge' | 'unsupportedMediaType' | 'invalid'
  // 4. Select
  | 'emptyScenarioHeader' | 'notAStatusCode' | 'badDelay' | 'badFault' | 'unknownScenario'
  | 'undocumentedCode' | 'unknownExample' | 'noSuccess' | 'notAcceptable'
  // Stateful mode
  | 'resourceFull' | 'storeFull' | 'unnameable' | 'itemExists' | 'noItem'
  // Around the engine
  | 'storeUnavailable' | 'storeBusy' | 'tooManyOwed' | 'internalError' | 'brokenAnswer' | 'notText'
  | 'tooComplex' | 'outsideProxyTarget' | 'gateway';

export interface Refusal {
  refusal: true;
  status: number;
  message: string;
  violations: string[];
  name: RefusalName;
  /** What the refusal is about (the path, the Accept header, the example asked for), for renderers; never sent as it is. */
  facts?: Record<string, string>;
  /** True when the answer is the stub's own (routing, selection), never the API's documented error. */
  ownAnswer?: boolean;
  headers?: Record<string, string>;
  /** Extra problem+json members, e.g. the known scenario names. */
  extra?: Record<string, unknown>;
}

export interface Selection {
  scenario: string | null;
  /** Prefer: code=N */
  code: number | null;
  /** Prefer: example=NAME */
  example: string | null;
  /** Prefer: dynamic=true (or false); null when the request does not say. */
  dynamic: boolean | null;
  delayMs: number | null;
  fault: Fault | null;
}

/** What makes an answer's body: a fixture, a documented example, generated data, the request echoed, or the stored resources (stateful mode). */
export type ChoiceKind = 'scenario' | 'example' | 'generated' | 'echo' | 'state';

export type Choice =
  /** `context`: what the scenario's templates read, when it has any. */
  | { kind: 'scenario'; scenario: Scenario; plan: ResponsePlan | null; context?: TemplateContext }
  /** `asked`: the client named the example (Prefer: example); else it is the response's first. */
  | { kind: 'example'; plan: ResponsePlan; status: number; name: string; asked: boolean }
  /** `dynamic`: Prefer: dynamic=true, data generated from the schema alone, its example values set aside. */
  | { kind: 'generated'; plan: ResponsePlan; status: number; dynamic: boolean }
  | { kind: 'echo'; plan: ResponsePlan; status: number }
  /**
   * Stateful mode: the stored item (or list) to project onto the success response, and the change
   * to make. `placing`: the item properties that say which item it is and under which parent (its id,
   * the parent's path values), never replaced when the answer is mended. `identity`: an item's id property (and envelope), kept even where the answer's schema
   * does not declare it, so the client learns the id it must use; null for a list.
   */
  | { kind: 'state'; plan: ResponsePlan; status: number; value: unknown; change: StateChange | null; identity: StateIdentity | null; placing: ReadonlySet<string>; pages?: number; next?: string | null; figures?: StoreFigures };

/** A stateful list's figures, from the store: what its answer's `total`, `num_pages`, `X-Total-Count`… say. */
export interface StoreFigures {
  /** Where the answer declares them (compiled from its schema). */
  declared: readonly ListFigure[];
  /** The items in all (under this parent, for a nested collection). */
  total: number;
  /** The page answered, counted as the request counts it; null where the list is not paged by number. */
  page: number | null;
  /** Items per page; null where the list is answered whole. */
  size: number | null;
  /** The pages the items fill (1 for a list answered whole). */
  pages: number;
}

/** Where an item answered from the state carries its id: `gid` inside `data` of `{"data": {...}}`. */
export interface StateIdentity {
  field: string;
  envelope: string | null;
}

export interface BuiltResponse {
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  /** The body value; may hold LosslessNumber leaves when `exact` is true. undefined: no body. */
  body: unknown;
  exact: boolean;
  /** What made the body; fixture and example bodies were checked against the spec at start-up. */
  choiceKind: ChoiceKind;
  /** The X-Mock-Scenario value: the scenario name, `example:<name>`, `echo` or `generated`. */
  scenario: string;
  /** The documented response this answer is; null for a scenario whose status is undocumented. */
  plan: ResponsePlan | null;
  /** The body's violations of its schema when the builder already checked it (echoes), else null. */
  bodyViolations: string[] | null;
  /** A stateful list's page count (the store's items over the page size); pagination links end there. */
  pages?: number;
  /** A stateful list paged by cursor: the cursor of the next page, null on the last (undefined: not from the state). */
  next?: string | null;
}

/** Resource name -> item identity -> the item as JSON text (numbers exact), in insertion order. */
export type StoredState = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * An item as a store keeps it: its JSON text and the parent it is listed under (its scope: the
 * parent's path values, see `scopeOfItem`; '' for a top-level resource's items).
 */
export interface StoredItem {
  text: string;
  scope: string;
}

/** Resource name -> item identity -> the item and its scope, in insertion order: what a store is filled with whole. */
export type PlacedState = ReadonlyMap<string, ReadonlyMap<string, StoredItem>>;

/**
 * What a request asks of the store, decided from its route once it is authenticated and valid:
 * only these parts are read, so a request costs the same whatever else the store holds.
 */
export interface StateQuestion {
  resource: string;
  /** One item by its id. */
  item?: string;
  /** A page of the items listed under `scope`, in the order they were created. */
  page?: { scope: string; start: PageStart; limit: number | null };
  /** How many items the resource holds (every scope): its cap, and the draw of a new id. */
  count?: boolean;
  /** Which of these ids are taken (a create's own id, new ids drawn). */
  taken?: string[];
  /** A new counted id: one above the largest integer-like id the resource has held. */
  newNumber?: boolean;
}

/** Where a page starts: at a rank, or after an item (a cursor naming the last item seen). */
export type PageStart = { offset: number } | { after: string };

/** The store's answer to a StateQuestion: the parts asked for, nothing more. */
export interface StateFacts {
  /** The item's JSON text; null when the store holds none under that id. */
  item?: string | null;
  page?: StoredPage;
  count?: number;
  /** The ids asked about that are taken. */
  taken?: string[];
  newNumber?: number;
}

export interface StoredPage {
  /** The items listed under the scope in all. */
  total: number;
  /** The rank of the page's first item (`total` when an `after` cursor names no item of the scope). */
  start: number;
  ids: string[];
  /** Each id's JSON text, in the page's order. */
  items: string[];
}

/** What a request did to the state: `item` null removes the identity; `scope` is the item's parent (see StoredItem). */
export interface StateChange {
  action: ResourceActionKind;
  resource: string;
  id: string;
  item: string | null;
  scope?: string;
}
