// Graceful shutdown of the CLI: on SIGTERM or SIGINT a request already in flight still gets its
// answer, new connections are refused, the process exits 0 and the coverage report is written.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await readFile('dist/cli.js'); // run `npm run build` first (npm test does)
  dir = await mkdtemp(join(tmpdir(), 'stub-shutdown-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  port: number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Spawns the CLI on a free port and resolves once it prints its URL. */
function startCli(args: string[]): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--no-watch', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) => {
      child.on('exit', (code, signal) => done({ code, signal, stdout, stderr }));
    });
    const timer = setTimeout(() => reject(new Error(`the CLI did not start within 10 s: ${stdout} ${stderr}`)), 10_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), exit });
      }
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    void exit.then(() => reject(new Error(`the CLI exited before listening: ${stderr}`)));
  });
}

/** One POST on its own connection (no agent): the answer or the socket error. */
function postPlant(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = '{"id":1,"name":"Late fern"}';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/plants', method: 'POST', agent: false,
      headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves with the connection error code, or 'connected' if the port still accepts. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('graceful shutdown', () => {
  it.concurrent.each(['SIGTERM', 'SIGINT'] as const)('on %s the in-flight delayed request completes, new connections are refused, the process exits 0 and coverage is written', async (signal) => {
    const coverageFile = join(dir, `coverage-${signal}.json`);
    const { child, port, exit } = await startCli(['--coverage-out', coverageFile]);
    const sentAt = performance.now();
    const delayed = postPlant(port, { 'x-mock-delay': '1500' });
    await new Promise((r) => setTimeout(r, 300));
    child.kill(signal);
    await new Promise((r) => setTimeout(r, 200));
    expect(await tryConnect(port)).toBe('ECONNREFUSED');

    const answer = await delayed;
    expect(answer).toEqual({ status: 200, body: '{"name":"Late fern"}' });
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(1_400);

    const exited = await exit;
    expect(exited.code).toBe(0);
    expect(exited.signal).toBeNull();
    expect(exited.stderr).toBe('');
    expect(exited.stdout).toContain(`${signal}: finishing in-flight requests`);

    const report = JSON.parse(await readFile(coverageFile, 'utf8')) as { operations: Array<{ operation: string; responses: Array<{ status: string; exercised: unknown }> }> };
    // The request answered during shutdown is counted; nothing else was exercised.
    expect(report.operations.map((op) => op.operation)).toEqual(['POST /plants']);
    const exercised = Object.fromEntries(report.operations[0].responses.map((r) => [r.status, Boolean(r.exercised)]));
    expect(exercised).toEqual({ 200: true, 400: false });
  }, 15_000);

  it('a server with nothing in flight stops at once on SIGTERM and still writes coverage', async () => {
    const coverageFile = join(dir, 'coverage-idle.json');
    const { child, exit } = await startCli(['--coverage-out', coverageFile]);
    const signalledAt = performance.now();
    child.kill('SIGTERM');
    const exited = await exit;
    expect(exited.code).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(2_000);
    const report = JSON.parse(await readFile(coverageFile, 'utf8')) as { summary: { exercised: number } };
    expect(report.summary.exercised).toBe(0);
  }, 15_000);
});
