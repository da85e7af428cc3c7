// Stage 4, select: what the client asked for (a scenario, Prefer, Prism's query selectors), its
// session (X-Mock-Session: its sticky scenario, sequences, counts and added answers), and the
// scripted answer that applies when nothing was asked for by name (an added answer, the
// sequence's step, a `match`, chance, --chaos).
import type { Selection } from '../engine-types.js';
import { readSelection } from '../read-selection.js';
import { isRefusal } from '../refusal.js';
import { scriptedChoice, withAdded } from '../script-choice.js';
import { DEFAULT_SESSION, sessionOf } from '../sessions.js';
import type { RequestContext } from './request-context.js';

export function selectStage(context: RequestContext): boolean {
  const { state, request, operation, query } = context;
  const asked = readSelection(request, query);
  if (isRefusal(asked)) {
    context.refusal = asked;
    return false;
  }
  // Prism's -d: dynamic unless the request says otherwise (`__dynamic=false`).
  context.selection = asked.dynamic === null && context.policy.dynamicByDefault ? { ...asked, dynamic: true } : asked;
  context.session = sessionOf(request.headers['x-mock-session']);
  const play = state.sessions?.play(context.session);
  context.sticky = context.session === DEFAULT_SESSION || !play ? state.sticky : play.sticky;
  const fixtures = state.scenarios.get(operation.key);
  const added = play?.added.get(operation.key);
  context.scenarios = added ? withAdded(added, fixtures) : fixtures;
  const sequence = state.sequences?.get(operation.key);
  const { pathParams, selection, scenarios, sticky, body } = context;
  context.scripted = play && state.script && (scenarios || sequence || state.script.chaos) && choosesNothing(selection, scenarios, sticky)
    ? scriptedChoice(operation, fixtures, sequence, play, { pathParams, query, headers: request.headers, body: body?.value }, state.script) : null;
  return true;
}

/** No answer chosen by name (a fault injects into whatever answers, so `match` still applies with one). */
export function choosesNothing(selection: Selection, scenarios: ReadonlyMap<string, unknown> | undefined, sticky: string | null): boolean {
  return selection.scenario === null && selection.code === null && selection.example === null && !selection.dynamic
    && (sticky === null || !scenarios?.has(sticky));
}
