// Stage 10, finish: the checked answer as the engine's response. Its headers (the scenario that
// answered; a templated answer's violations, which is still sent: it is the user's script;
// Prism's `sl-violations` where the policy lists them), its body serialized, what goes out once
// it is sent (webhooks the fixtures name, callbacks), what it did to the state, and a conditional
// GET whose ETag still matches answered 304 (conditional-get.ts).
import { isSuccessStatus } from '../../openapi/success-rule.js';
import { violationsHeaderText } from '../../common/violations-header.js';
import { storedAsAnswered } from '../answer-from-state.js';
import { conditionalGet } from '../conditional-get.js';
import { planDeliveries } from '../plan-deliveries.js';
import { violationsHeader } from '../prism-answers.js';
import { requestWarnings } from '../request-warnings.js';
import { seededDelay } from '../script-choice.js';
import { serializeBody } from '../serialize-body.js';
import { DEFAULT_SESSION } from '../sessions.js';
import type { RequestContext } from './request-context.js';

export function finishStage(context: RequestContext): void {
  const { state, request, operation, query, selection, session, scripted, problems } = context;
  const choice = context.choice!;
  const answer = context.adjusted!;
  const scenario = choice.kind === 'scenario' ? choice.scenario : null;
  const fault = selection.fault ?? scenario?.fault ?? undefined;
  const fired = webhooksToFire(state.triggers?.get(operation.key), scenario?.webhooks);
  const sendsOut = (fired.length > 0 || operation.callbacks.length > 0) && isSuccessStatus(answer.status) && fault === undefined;
  const headers: Record<string, string> = { ...answer.headers, 'x-mock-scenario': answer.scenario };
  if (scenario?.render && problems.length > 0) headers['x-mock-violations'] = violationsHeaderText(problems);
  if (context.policy.violationsHeader) {
    const warnings = requestWarnings(operation, request, query);
    if (warnings.length > 0 || problems.length > 0) headers['sl-violations'] = violationsHeader([], warnings, problems);
  }
  if (answer.body !== undefined && answer.contentType) headers['content-type'] = answer.contentType;
  context.answer = conditionalGet(operation, request, {
    status: answer.status,
    headers,
    body: answer.body === undefined ? '' : serializeBody(answer.body, answer.exact, answer.contentType, answer.plan?.writeXml ?? null),
    scenario: answer.scenario,
    ...(scripted?.step ? { step: scripted.step } : {}),
    ...(session === DEFAULT_SESSION ? {} : { session }),
    violations: NOTHING,
    selfCheck: problems.length === 0 ? NOTHING : problems,
    delayMs: selection.delayMs ?? scenario?.delayMs ?? (scenario?.delaySpread && state.sessions ? seededDelay(scenario.delaySpread, state.script?.seed ?? 0, scenario.name, state.sessions.delayDraws++) : null),
    operation,
    documented: answer.plan,
    ownAnswer: false,
    fault,
    deliveries: sendsOut ? planDeliveries(state.compiled.webhooks, fired, operation, request, context.body, context.pathParams, query) : undefined,
    stateChange: choice.kind === 'state' ? storedAsAnswered(choice, context.built!) : null,
  });
}

/**
 * An answer's lists when they are empty, shared (frozen: nothing may add to them): the journal
 * keeps each answer's lists for as long as it keeps the answer, and a new empty array per request
 * is one more object per entry to copy out of the young generation and promote.
 */
const NOTHING = Object.freeze([]) as unknown as string[];

/** Shared by every answer that fires no webhook (a default `= []` is a new array per call). */
const NONE: readonly string[] = [];

/** The operation's own webhook triggers plus the chosen scenario's, each once. */
function webhooksToFire(forOperation: readonly string[] = NONE, forScenario: readonly string[] = NONE): readonly string[] {
  return forScenario.length === 0 ? forOperation : [...new Set([...forOperation, ...forScenario])];
}
