// A real redis-server (Debian's package) for one test file, on a free loopback port, without
// persistence. CI installs it (.ci/run); elsewhere a missing binary skips the Redis tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './ports.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const haveRedis = existsSync(REDIS_SERVER);
if (!haveRedis && process.env.CI) throw new Error(`${REDIS_SERVER} is missing: .ci/run installs it with apt-get install redis-server`);
if (!haveRedis) console.log(`Redis tests skipped: no ${REDIS_SERVER} (install it with: apt-get install redis-server)`);

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops it (SIGKILL: nothing to keep) and resolves once it is gone. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered, as with a stalled host. */
  pause(): void;
  /** Lets a frozen server go on (SIGCONT). */
  resume(): void;
}

/** Starts redis-server on `port` (a free one by default) and resolves once it accepts connections. */
export async function startRedis(port?: number): Promise<RunningRedis> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server on ${chosen} did not start within 10 s`)), 10_000);
    // With --loglevel warning it prints nothing when ready; wait until the port accepts.
    const poll = async () => {
      const { connect } = await import('node:net');
      const socket = connect(chosen, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', () => setTimeout(poll, 50));
    };
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code}`));
    });
    void poll();
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}/0`,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}
