// Stage 5, ask the state (stateful mode): the stored resources answer a request that asked for
// nothing else. The store is asked only now, for what this request needs (state-question.ts), so
// a refused request costs it nothing; the pipeline pauses at the question (state-asked.ts) and
// goes on from the store's facts (answer-from-state.ts), asking again where a drawn id has yet to
// be checked.
import type { StateFacts, StateQuestion } from '../engine-types.js';
import { answerFromState } from '../answer-from-state.js';
import { isRefusal } from '../refusal.js';
import type { Asked } from '../state-asked.js';
import { stateQuestion } from '../state-question.js';
import type { RequestContext } from './request-context.js';
import { choosesNothing } from './select.js';

/** What the request asks the store; null when the store has no part in its answer. */
export function askStateStage(context: RequestContext): StateQuestion | null {
  const { state, operation, selection, scenarios, sticky } = context;
  const action = state.resources?.actions.get(operation.key);
  if (!action) return null;
  context.action = action;
  // Scenarios, Prefer and faults win when asked for (and change no state), as does a sticky scenario of this operation.
  const asksNothing = selection.fault === null && choosesNothing(selection, scenarios, sticky) && !context.scripted?.scenario;
  return asksNothing ? stateQuestion(operation, action, context.pathParams, context.query, context.body) : null;
}

/**
 * The pause at `question`: the store's facts make the state's answer (`fromState`) or its refusal,
 * and the rest of the pipeline (`answer`) runs from there. Each resume goes on from a copy of the
 * context as it was at the pause: a request whose change a store shared with other processes
 * refused (another changed the item first) is resumed again, and answered anew, from the facts as
 * they are then.
 */
export function fromTheStore<R>(context: RequestContext, question: StateQuestion, answer: (resumed: RequestContext) => R): Asked<R> {
  const { operation, action, pathParams, query, body } = context;
  const resume = (asked: StateQuestion) => (facts: StateFacts): R | Asked<R> => {
    const got = answerFromState(operation, action!, asked, facts, pathParams, query, body);
    if (got !== null && 'ask' in got) return { question: got.ask, resume: resume(got.ask) };
    const resumed = { ...context };
    if (isRefusal(got)) resumed.refusal = got;
    else resumed.fromState = got;
    return answer(resumed);
  };
  return { question, resume: resume(question) };
}
