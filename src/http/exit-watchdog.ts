// The last word on shutdown: once a signal has asked the process to stop, it ends within the
// grace period whatever the main thread is doing. A timer on the main thread cannot promise that:
// a request stuck in synchronous work (a hostile schema, a huge body) starves the event loop, and
// the timer never fires. So the deadline is kept by a worker thread, which sleeps on its own and
// then ends the whole process (SIGKILL: the one way out that needs nothing from the main thread).
import { Worker } from 'node:worker_threads';

// Plain CommonJS run in the worker: wait, say why, end the process.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
try { writeSync(2, workerData.message); } catch {}
process.kill(process.pid, 'SIGKILL');
`;

/**
 * Ends the process `ms` from now unless it has exited by then. The watchdog never keeps the
 * process alive: a clean exit before the deadline simply ends it with everything else.
 */
export function armExitWatchdog(ms: number, signal: string): void {
  const message = `${signal}: still busy ${ms} ms later; stopped without finishing (coverage not written)\n`;
  const worker = new Worker(WATCHDOG, { eval: true, workerData: { ms, message } });
  worker.unref();
}
