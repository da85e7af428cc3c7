// Stateful mode's pause at stage 5 (ask the state): a request of a resource's operation stops at the question it
// asks the store (state-question.ts) and goes on from the store's facts. A store in this process
// answers at once (the pipeline never waits); one in another process (the cluster primary, Redis)
// answers later, and the layer above resumes the pipeline then.
import type { StateFacts, StateQuestion } from './engine-types.js';

/** A request waiting for the store: its question, and the rest of the pipeline from the store's facts. */
export interface Asked<R> {
  question: StateQuestion;
  /** The answer from the facts; another question when the store must be asked again (a drawn id to check). */
  resume(facts: StateFacts): R | Asked<R>;
}

/** A store that answers the engine's questions at once. */
export interface StateReader {
  answer(question: StateQuestion): StateFacts;
}

export function isAsked<R extends object>(step: R | Asked<R>): step is Asked<R> {
  return 'resume' in step && 'question' in step;
}

/** Each question answered by a store in this process, until the answer is made. */
export function answerAtOnce<R extends object>(asked: Asked<R>, store: StateReader): R {
  let step: R | Asked<R> = asked;
  while (isAsked(step)) step = step.resume(store.answer(step.question));
  return step;
}

/** The same pause, its answer passed through `then` once made (the pipeline's last stage). */
export function thenAnswer<R extends object, S extends object>(asked: Asked<R>, then: (answer: R) => S): Asked<S> {
  return { question: asked.question, resume: (facts) => {
    const next = asked.resume(facts);
    return isAsked(next) ? thenAnswer(next, then) : then(next);
  } };
}
