// The compiled model the engine runs on: what compiling a document produces for each operation
// (security check, validators, response plans, error renderer) and for the document as a whole.
// Types only, so every stage and every compiler reads them without importing a compiler.
import type { CursorPaging } from './compile-paging.js';
import type { FormPost } from './form-post.js';
import type { SecurityCheck } from './compile-security.js';
import type { Projection } from './compile-projection.js';
import type { XmlWriter } from './compile-xml.js';
import type { RouteTable } from './route-table.js';
import type { DocumentWarning } from './document-warnings.js';
import type { Validator } from './schema-compiler.js';
import type { ParameterCheck } from './compile-parameters.js';
import type { FormPlan } from './compile-form.js';
import type { Secrets } from './secrets.js';
import type { CallbackPlan, OutboundPlan } from './compile-outbound.js';
import type { CompatPolicy } from '../config/compat-policy.js';
import type { StreamPlan } from './compile-stream.js';
import type { StubHints } from './stub-hints.js';

export interface MediaPlan {
  /** The media type as documented, lower-case (`application/json`, `application/*`, `*\/*`). */
  type: string;
  json: boolean;
  validate: Validator | null;
  /** Form media types (urlencoded, multipart) with a schema: how the body becomes an object to validate. */
  form: FormPlan | null;
}

export interface BodyPlan {
  required: boolean;
  media: MediaPlan[];
  /** The JSON body's named examples: a request equal to one gets the response example of the same name. */
  examples: ReadonlyMap<string, unknown>;
  /** The field names the body's schema declares at a place in it; null where it leaves names open (see body-fields.ts). */
  fieldNames: (segments: readonly string[]) => readonly string[] | null;
}

export interface HeaderPlan {
  name: string;
  required: boolean;
  validate: Validator | null;
  /** The value the stub sends: the documented example, else generated from the schema. */
  sample: string | null;
}

export interface ResponsePlan {
  /** As documented: `200`, `4XX` or `default`. */
  key: string;
  /** The status sent when this response is chosen: its code, `4XX` -> 400, `default` -> 200. */
  status: number;
  /** The media type as documented; null when the response documents no content. */
  contentType: string | null;
  /** Whether the media type is JSON (`application/json`, `*+json`): sent as JSON, else as text. */
  json: boolean;
  schemaPointer: string | null;
  validateBody: Validator | null;
  project: Projection | null;
  /** For XML media types: writes a value as XML following the schema's `xml` hints. */
  writeXml: XmlWriter | null;
  /** Named examples of this response that fit its schema (`default` for a single `example`). */
  examples: Map<string, unknown>;
  /** Examples that break the response's own schema: a warning at start, served only when asked for by name. */
  brokenExamples: Map<string, unknown>;
  /** The example the response's `x-stub-example` names: first of `examples`, and answered by default even where a success would echo; null for none. */
  hintedExample: string | null;
  headers: HeaderPlan[];
  /** The documented headers with their sample values, sent with every answer of this response. */
  sampleHeaders: Readonly<Record<string, string>>;
  /**
   * Every media type of this response in document order, each a plan of its own sharing key,
   * status and headers (empty when no content is documented). The plan in `responses` is the
   * default one: the JSON media type, else the first.
   */
  variants: ResponsePlan[];
  /** A media type that is a stream of events (text/event-stream, JSON lines): what its events are; null for any other. */
  stream: StreamPlan | null;
}

export interface CompiledOperation {
  /** `POST /plants`: how logs, coverage and fixtures name the operation. */
  key: string;
  method: string;
  path: string;
  operationId: string | null;
  /** With several documents on one port, the name of the one this operation is from; null with one. */
  document: string | null;
  checkSecurity: SecurityCheck;
  validateParameters: ParameterCheck;
  body: BodyPlan | null;
  responses: Map<string, ResponsePlan>;
  /** The response a valid request gets by default: the lowest documented 2xx, else `default`, else the first documented. */
  success: ResponsePlan | null;
  /** Renders the error body for a status, following the operation's documented error shape. */
  renderError: ErrorRenderer;
  /** The status of a request that breaks the contract: 400, or 422 where only that is documented. */
  invalidStatus: number;
  /** Every response header the operation documents, as a list for Access-Control-Expose-Headers ('' for none). */
  responseHeaderNames: string;
  /** Data for the schema at `pointer`, keyed by the request; `dynamic` sets the document's own values aside. */
  generate: (pointer: string, key: string, dynamic: boolean) => unknown;
  /** Whether data for `pointer` is capped below what its schema asks (a start-up warning said so). */
  generationCapped: (pointer: string) => boolean;
  /** Called when no try at generating data for `pointer` satisfied it: a document warning, once per pointer. */
  reportUnsatisfiable: (pointer: string, violations: string[]) => void;
  /** 3.0 `callbacks`: sent after the operation's successful answer, to the URL their expression names. */
  callbacks: CallbackPlan[];
  /** A GET list paged by cursor (`offset`, `marker`, `PageToken`, `starting_after`): its parameters; null otherwise. */
  cursorPaging: CursorPaging | null;
  /** A GET whose request is a form, answered for a form POST too: how the form is read; null otherwise. */
  formPost: FormPost | null;
}

/** What names an operation and is compiled at start in every document. */
export type NamedOperation = Pick<CompiledOperation, 'key' | 'method' | 'path' | 'operationId' | 'document' | 'checkSecurity' | 'generate' | 'generationCapped' | 'reportUnsatisfiable' | 'formPost'>;
/** The rest: how it checks a request and plans its answers (in a big document, on first use). */
export type OperationPlans = Omit<CompiledOperation, keyof NamedOperation>;


import type { MountedDocument } from './open-document.js';

export interface CompiledSpec {
  title: string;
  operations: CompiledOperation[];
  byKey: Map<string, CompiledOperation>;
  routes: RouteTable<CompiledOperation>;
  /** Header and query names that carry credentials, redacted in the journal. */
  secrets: Secrets;
  /**
   * What is wrong with the document but did not stop it: GET /__admin/warnings. Unless the
   * document was compiled whole, it grows as operations are first used.
   */
  warnings: readonly DocumentWarning[];
  /** Whether every validator was compiled and every example checked at start (see COMPILED_WHOLE_UP_TO). */
  compiledWhole: boolean;
  /** 3.1 `webhooks`, by their key as the document writes it. */
  webhooks: ReadonlyMap<string, OutboundPlan>;
  /** The first server's path (`/v2`), under which every path is served too; '' when none. */
  basePath: string;
  /** With several documents on one port, each one's name, mount path and file (mount-documents.ts); empty with one. */
  mounted: readonly MountedDocument[];
  /** Operations written on the same path apart by a `#fragment`: the routed one -> the others (fragment-operations.ts). */
  alternatives: ReadonlyMap<CompiledOperation, readonly CompiledOperation[]>;
  /** The origins of the document's servers (`https://api.github.com`): links to them are answered on the stub. */
  serverOrigins: readonly string[];
  /** Where the answers follow Prism's conventions instead of the stub's, read by the stages that differ. */
  policy: CompatPolicy;
  /** The document's `x-stub-*` hints, checked at start, by where each is written (stub-hints.ts). */
  hints: StubHints;
}

export interface RenderedError {
  /** null when the documented response has no content: the answer has no body either. */
  contentType: string | null;
  /** A JSON value for JSON media types, the text itself for others, undefined for no body. */
  body: unknown;
  /** The documented response's headers with their sample values. */
  headers: Readonly<Record<string, string>>;
}

export type ErrorRenderer = (status: number, message: string, violations: string[]) => RenderedError;

