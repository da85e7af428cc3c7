// The one value the pipeline's stages read and fill in for a request (pipeline.ts composes them):
// what the engine serves from (`EngineState`), the request, and what each stage found or made
// for the stages after it: the operation, the body as read, the client's selection and session,
// the choice, the body built, adjusted and checked, and at last the answer or the refusal that
// ends the request. A stage returns whether the request goes on to the next: false once it has
// recorded a refusal (or, for a stream, made the answer).
import type { CompiledOperation, CompiledSpec } from '../../openapi/compiled-model.js';
import type { ExactJson, PlainRequest } from '../../common/plain-http.js';
import type { CompatPolicy } from '../../config/compat-policy.js';
import type { DelaySpread } from '../../common/delay-spread.js';
import type { DocumentWarning } from '../../openapi/document-warnings.js';
import type { ResourceAction, Resources } from '../../openapi/compile-resources.js';
import type { BuiltResponse, Choice, Refusal, Selection } from '../engine-types.js';
import type { EngineResponse } from '../engine-response.js';
import type { Scenario, ScenarioTable, Sequence } from '../scenario.js';
import type { Scripted, ScriptSettings } from '../script-choice.js';
import type { Sessions } from '../sessions.js';
import type { StreamSettings } from '../answer-stream.js';

/** What the pipeline reads besides the request; swapped whole on reload. */
export interface EngineState {
  compiled: CompiledSpec;
  scenarios: ScenarioTable;
  /** Scenario chosen through /__admin/scenario for requests that carry no selection (the default session's). */
  sticky: string | null;
  /** Operation key -> its fixture's sequence of answers. */
  sequences?: ReadonlyMap<string, Sequence>;
  defaultDelayMs: number;
  /** --delay as a spread (`100-800`): each answer's wait drawn from it; null when fixed. */
  defaultDelaySpread?: DelaySpread | null;
  /** The seed and --chaos, for the scripted choices' draws. */
  script?: ScriptSettings;
  /** The document as loaded, for what reads it whole (GET /__admin/fixture-schema); not read by the pipeline. */
  document?: Record<string, unknown>;
  /** What scripted answers remember between requests, per session; the same object across reloads. */
  sessions?: Sessions;
  /** Stateful mode: the resources inferred from the document; null when stateful mode is off. */
  resources: Resources | null;
  /** Operation key -> webhooks its fixture file sends after each successful answer. */
  triggers?: ReadonlyMap<string, readonly string[]>;
  /** How streamed answers are paced and bounded; the defaults when absent. */
  stream?: StreamSettings;
  /** What loading the fixtures warned of (a file for an operation the document lacks), for GET /__admin/warnings; not read by the pipeline. */
  fixtureWarnings?: readonly DocumentWarning[];
}

/** An answer before the delay stage: `delayMs` is null when neither the request nor its scenario scripted one. */
export type Undelayed = Omit<EngineResponse, 'delayMs'> & { delayMs: number | null };

export interface RequestContext {
  readonly state: EngineState;
  /** Where the answers follow Prism's conventions (--compat prism): read by the stages that differ. */
  readonly policy: CompatPolicy;
  /** The request as the engine answers it (a form POST to an RPC-style GET: as that GET). */
  readonly request: PlainRequest;
  /** The operation answering: the routed one, or its `#fragment` alternative that accepts what it refused. */
  operation: CompiledOperation;
  readonly pathParams: Record<string, string>;
  readonly query: URLSearchParams;
  /** The body as read (a form's fields as the object its schema describes); null for none. */
  body: ExactJson | null;
  /** What the client asked for by name (scenario, Prefer, Prism's query selectors). */
  selection: Selection;
  /** The request's session (X-Mock-Session). */
  session: string;
  /** The operation's scenarios: its fixtures, with the session's added answers first. */
  scenarios: ReadonlyMap<string, Scenario> | undefined;
  /** The sticky scenario that applies to this request (its session's). */
  sticky: string | null;
  /** The scripted choice (an added answer, a sequence's step, a `match`, chance, --chaos), when one applies. */
  scripted: Scripted | null;
  /** Stateful mode: what the operation does to its resource; undefined when it touches none. */
  action: ResourceAction | undefined;
  /** The example a refused request names for the refusal's status (`Prefer: code=401, example=expired`). */
  exampleAsked: string | null;
  /**
   * The refusal that ends the request, recorded once by the stage that refuses; no stage runs after it.
   * The results below are each set by one stage and read only by the stages after it, which run only once it is set.
   */
  refusal: Refusal | null;
  /** Stage 5's answer where stateful mode's store gave one. */
  fromState: Choice | null;
  /** Stage 6: which answer, in which media type. */
  choice: Choice | null;
  /** Stage 7: the body as the builder made it, whose stored value a stateful change keeps. */
  built: BuiltResponse | null;
  /** Stage 8: the built answer made to agree with this request and this stub. */
  adjusted: BuiltResponse | null;
  /** Stage 9: what checking the adjusted answer against the document found (nothing, nearly always). */
  problems: string[];
  /** The answer, once made: by stage 10, or a stream's at stage 6b; no stage runs after it. */
  answer: Undelayed | null;
}
