// Waiting for something that happens eventually (a reload, a log line) without asserting how soon.

/**
 * Calls `probe` every `everyMs` until `done` accepts its value or `timeoutMs` has passed, and
 * returns the last value: the test then asserts on it, so a timeout fails with what was seen.
 */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await probe();
  }
  return value;
}
