// The CLI as tests run it: `node dist/cli.js` (built by `npm test`'s pretest), either to its exit
// (runCli) or as a server that has printed its URL (startCli).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

/** How a CLI process ended, with everything it wrote. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartedCli {
  child: ChildProcess;
  /** The URL of the "… listening on http://…" line. */
  url: string;
  port: number;
  /** What the CLI has written so far. */
  stdout(): string;
  stderr(): string;
  /** Settles once the process has exited and its output is read to the end. */
  exited: Promise<CliRun>;
  /**
   * Sends `signal` unless the process has already exited, and resolves with how it ended. After
   * `timeoutMs` it is killed and the promise rejects: a CLI that ignores a signal is a failure.
   */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<CliRun>;
}

export interface CliOptions {
  /** How long to wait: for the exit (runCli) or for the listening line (startCli). */
  timeoutMs?: number;
  /** Environment variables for the CLI; PORT, HOST, STUB_TOKENS and STUB_ADMIN_TOKEN are unset unless given here. */
  env?: Record<string, string>;
}

/** Children still running, killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<CliRun>;
}

function spawnCli(args: string[], extraEnv: Record<string, string> = {}): Spawned {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`);
  // The variables the CLI reads are removed, so a developer's shell cannot change what a test sees.
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  for (const name of ['PORT', 'HOST', 'STUB_TOKENS', 'STUB_ADMIN_TOKEN']) if (!(name in extraEnv)) delete env[name];
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'close', not 'exit': only then is all of the output read.
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function commandLine(args: string[]): string {
  return ['node dist/cli.js', ...args].join(' ');
}

/**
 * Runs the CLI to its exit and resolves with its exit code and output; rejects (after killing it)
 * when it is still running after `timeoutMs`.
 *
 * @example const { code, stderr } = await runCli(['--port', 'eighty']);
 */
export async function runCli(args: string[], { timeoutMs = 20_000, env }: CliOptions = {}): Promise<CliRun> {
  const { child, stdout, stderr, exited } = spawnCli(args, env);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${commandLine(args)} did not exit within ${timeoutMs} ms; stdout: ${stdout()} stderr: ${stderr()}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([exited, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

const LISTENING = / listening on (http:\/\/\S+)/;

/**
 * Starts the CLI and resolves once it has printed a whole "… listening on http://…" line. Rejects,
 * with its output, if it exits first or has not listened within `timeoutMs` (it is then killed).
 * Stop it with `stop()` when done.
 *
 * @example const cli = await startCli(['--port', '0', '--no-watch', '--quiet']);
 */
export async function startCli(args: string[], { timeoutMs = 20_000, env }: CliOptions = {}): Promise<StartedCli> {
  const { child, stdout, stderr, exited } = spawnCli(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${commandLine(args)} did not listen within ${timeoutMs} ms; stdout: ${stdout()} stderr: ${stderr()}`));
    }, timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.stdout!.off('data', look);
      outcome();
    };
    // Only whole lines count, so a URL split across two chunks is never read half-way.
    const look = () => {
      const text = stdout();
      const match = LISTENING.exec(text.slice(0, text.lastIndexOf('\n') + 1));
      if (match) settle(() => resolve(match[1]));
    };
    child.stdout!.on('data', look);
    exited.then(
      (run) => settle(() => reject(new Error(`${commandLine(args)} exited (code ${run.code}, signal ${run.signal}) before listening; stdout: ${run.stdout} stderr: ${run.stderr}`))),
      (error: Error) => settle(() => reject(error)),
    );
  });

  async function stop(signal: NodeJS.Signals = 'SIGTERM', stopTimeoutMs = 10_000): Promise<CliRun> {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${commandLine(args)} did not exit within ${stopTimeoutMs} ms of ${signal}; stdout: ${stdout()} stderr: ${stderr()}`));
      }, stopTimeoutMs);
    });
    try {
      return await Promise.race([exited, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  return { child, url, port: Number(new URL(url).port), stdout, stderr, exited, stop };
}
