// --workers N: one port served by N processes through node:cluster, for machines with more cores.
// Each worker has its own journal and coverage (they are per process, as the README says).
import cluster from 'node:cluster';
import type { StubOptions } from '../config/options.js';
import { startStub } from './server.js';

export async function runWorkers(count: number, options: StubOptions, exitWithError: (message: string) => never): Promise<void> {
  if (cluster.isPrimary) {
    if (options.port === 0) exitWithError('--workers needs a fixed --port (each worker would pick its own with 0)');
    let listening = 0;
    for (let i = 0; i < count; i++) cluster.fork();
    cluster.on('message', (_worker, message: { listening?: string }) => {
      if (message.listening && ++listening === count) process.stdout.write(`stub listening on ${message.listening} with ${count} workers\n`);
    });
    cluster.on('exit', (_worker, code) => {
      if (code !== 0 && listening < count) exitWithError('a worker failed to start (see its message above)');
    });
    const stop = () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }
  const running = await startStub(options);
  process.send?.({ listening: running.url });
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
