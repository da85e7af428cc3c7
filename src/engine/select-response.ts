// Stage 6 (choose): which response a valid request gets. In order: X-Mock-Scenario, Prefer (code, example,
// dynamic), the sticky scenario set through /__admin, a scenario whose `match` the request
// satisfies, then the default: the documented success response (else the first documented one),
// echoing the request where it has a body.
import type { CompiledOperation, ResponsePlan } from '../openapi/compiled-model.js';
import { documentedResponse } from '../openapi/documented-response.js';
import { isSuccessResponse } from '../openapi/success-rule.js';
import type { Choice, Refusal, Selection } from './engine-types.js';
import type { Scenario } from './scenario.js';
import { exampleOrGenerated } from './example-or-generated.js';
import { selectionRefusals } from './refusals.js';
import { isRefusal } from './refusal.js';
import deepEqual from 'fast-deep-equal';

export function selectResponse(
  operation: CompiledOperation,
  scenarios: ReadonlyMap<string, Scenario> | undefined,
  selection: Selection,
  sticky: string | null,
  /** The request has a JSON body and the policy echoes it (not in Prism's way). */
  echoesBody: boolean,
  matched: Scenario | null = null,
  /** The name of the request example the body equals, when a response has an example of that name (Microcks' and Specmatic's pairing). */
  paired: string | null = null,
): Choice | Refusal {
  if (selection.scenario !== null) {
    const scenario = scenarios?.get(selection.scenario);
    if (!scenario) {
      return selectionRefusals.unknownScenario(selection.scenario, operation.key, [...(scenarios?.keys() ?? [])]);
    }
    return { kind: 'scenario', scenario, plan: documentedResponse(operation.responses, scenario.status) };
  }
  // Both together (Prism's `Prefer: code=400, example=x`): the named answer for that status; never
  // one of the two silently dropped.
  if (selection.code !== null && selection.example !== null) return byStatusAndName(operation, scenarios, selection.code, selection.example);
  if (selection.code !== null) return byStatus(operation, scenarios, selection.code);
  if (selection.example !== null) return byExampleName(operation, scenarios, selection.example);
  const success = operation.success;
  if (selection.dynamic) {
    if (!success) return selectionRefusals.noSuccess(operation.key);
    return { kind: 'generated', plan: success, status: success.status, dynamic: true };
  }
  const stickyScenario = sticky === null ? undefined : scenarios?.get(sticky);
  if (stickyScenario) return { kind: 'scenario', scenario: stickyScenario, plan: documentedResponse(operation.responses, stickyScenario.status) };
  if (matched) return { kind: 'scenario', scenario: matched, plan: documentedResponse(operation.responses, matched.status) };
  if (paired !== null) {
    const choice = byExampleName(operation, undefined, paired);
    if (!isRefusal(choice)) return { ...choice, asked: false } as Choice;
  }
  if (!success) return selectionRefusals.noSuccess(operation.key);
  return defaultChoice(success, echoesBody);
}

function defaultChoice(plan: ResponsePlan, echoesBody: boolean): Choice {
  // Only a success echoes the request: an operation whose first documented answer is a 401 or a
  // 302 answers that as documented, not with the request poured into it. An example the
  // document's `x-stub-example` names is what its author wants answered, echo or not.
  const hinted = plan.hintedExample !== null && plan.examples.has(plan.hintedExample);
  if (echoesBody && plan.project && isSuccessResponse(plan) && !hinted) return { kind: 'echo', plan, status: plan.status };
  return exampleOrGenerated(plan, plan.status);
}

/** Prefer: code=N -> a fixture with that status, else the documented response's example, else generated. */
function byStatus(operation: CompiledOperation, scenarios: ReadonlyMap<string, Scenario> | undefined, status: number): Choice | Refusal {
  const plan = documentedResponse(operation.responses, status);
  if (!plan) {
    return selectionRefusals.undocumentedCode(status, operation.key, [...operation.responses.keys()]);
  }
  // A fixture that scripts latency or a fault is only served when asked for by name: asking for a
  // status should not bring a silent three-second wait or a dropped connection.
  for (const scenario of scenarios?.values() ?? []) {
    if (scenario.status === status && !scenario.delayMs && scenario.fault === null) return { kind: 'scenario', scenario, plan };
  }
  return exampleOrGenerated(plan, status);
}

/** Prefer: code=N, example=NAME -> that status's example of that name, else a scenario of that name and status. */
function byStatusAndName(operation: CompiledOperation, scenarios: ReadonlyMap<string, Scenario> | undefined, status: number, name: string): Choice | Refusal {
  const plan = documentedResponse(operation.responses, status);
  if (!plan) return byStatus(operation, scenarios, status); // its failure lists the documented statuses
  const variant = withExample(plan, name);
  if (variant) return { kind: 'example', plan: variant, status, name, asked: true };
  const scenario = scenarios?.get(name);
  if (scenario && scenario.status === status) return { kind: 'scenario', scenario, plan };
  const known = [...mediaOf(plan).flatMap((v) => [...v.examples.keys()]), ...[...(scenarios?.values() ?? [])].filter((s) => s.status === status).map((s) => s.name)];
  return selectionRefusals.nothingNamedForStatus(name, status, operation.key, known, plan.contentType ?? '');
}

/**
 * The name of the operation's request example that `body` equals, where one of its responses has an
 * example of the same name; null otherwise.
 */
export function pairedExample(operation: CompiledOperation, body: unknown): string | null {
  const examples = operation.body?.examples;
  if (!examples || examples.size === 0 || body === undefined) return null;
  for (const [name, example] of examples) {
    if (!deepEqual(example, body)) continue;
    const plans = [operation.success, ...operation.responses.values()].filter((plan): plan is ResponsePlan => plan !== null);
    if (plans.some((plan) => withExample(plan, name))) return name;
  }
  return null;
}

/** Prefer: example=NAME -> a named example of any documented response, else a scenario of that name. */
function byExampleName(operation: CompiledOperation, scenarios: ReadonlyMap<string, Scenario> | undefined, name: string): Choice | Refusal {
  const ordered = [operation.success, ...operation.responses.values()].filter((plan): plan is ResponsePlan => plan !== null);
  for (const plan of ordered) {
    const variant = withExample(plan, name);
    if (variant) return { kind: 'example', plan: variant, status: plan.status, name, asked: true };
  }
  const scenario = scenarios?.get(name);
  if (scenario) return { kind: 'scenario', scenario, plan: documentedResponse(operation.responses, scenario.status) };
  const known = [...new Set([...ordered.flatMap((plan) => mediaOf(plan).flatMap((v) => [...v.examples.keys()])), ...(scenarios?.keys() ?? [])])];
  return selectionRefusals.unknownExample(name, operation.key, known, operation.success?.contentType ?? '');
}

/**
 * The media type of the response that has an example of that name, its default one first. Asked
 * for by name, an example is served even when it breaks its schema (a warning at start).
 */
function withExample(plan: ResponsePlan, name: string): ResponsePlan | undefined {
  return mediaOf(plan).find((variant) => variant.examples.has(name) || variant.brokenExamples.has(name));
}

/** The response's media types, its default one first. */
function mediaOf(plan: ResponsePlan): ResponsePlan[] {
  return [plan, ...plan.variants.filter((variant) => variant !== plan)];
}
