// Long work on the main thread cut into slices, so that requests are answered between them. The
// work is written once, as a generator that yields between its steps; it is run either at once
// (start-up: nobody waits for an answer yet) or in slices of a few milliseconds, each followed by
// a turn of the event loop (a reload: the version being replaced keeps answering meanwhile).

/** Work cut into steps: each `yield` is a point where it may pause; the return value is the result. */
export type Steps<T> = Generator<void, T, void>;

/**
 * How long one slice may hold the event loop. A request that arrives during a slice waits at most
 * this long (plus the step under way); shorter slices only add turns of the event loop.
 */
export const SLICE_MS = 5;

/** Runs every step now, in one go. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs the steps in slices of about `SLICE_MS`, giving the event loop a turn between slices.
 * An abort (checked between slices) abandons the work: the promise rejects with the signal's reason.
 */
export async function runInSlices<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    await nextTurn();
    signal?.throwIfAborted();
    const until = performance.now() + SLICE_MS;
    do {
      const step = steps.next();
      if (step.done) return step.value;
    } while (performance.now() < until);
  }
}

/** Resolves after the event loop has had a turn: pending I/O (requests) is handled first. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
