// Graceful shutdown of the CLI: on SIGTERM or SIGINT a request already in flight still gets its
// answer, new connections are refused, the process exits 0 and the coverage report is written.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { JSON_HEADERS } from './helpers/plant.js';

let dir: string;
const started: StartedCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-shutdown-'));
});
afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop('SIGKILL')));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts the CLI on port 0, without watching or logging, and checks it listens on 127.0.0.1. */
async function startQuietCli(args: string[]): Promise<StartedCli> {
  const cli = await startCli(['--port', '0', '--no-watch', '--quiet', ...args]);
  started.push(cli);
  expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  return cli;
}

/** One POST on its own connection (no agent): the answer or the socket error. */
function postPlant(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = '{"id":1,"name":"Late fern"}';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/plants', method: 'POST', agent: false,
      headers: { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
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

/** Connects every 25 ms until the port refuses or `ms` have passed; returns the last outcome. */
async function refusedWithin(port: number, ms: number): Promise<string> {
  const deadline = performance.now() + ms;
  let outcome = await tryConnect(port);
  while (outcome !== 'ECONNREFUSED' && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    outcome = await tryConnect(port);
  }
  return outcome;
}

describe('graceful shutdown', () => {
  it.concurrent.each(['SIGTERM', 'SIGINT'] as const)('on %s the in-flight delayed request completes, new connections are refused, the process exits 0 and coverage is written', async (signal) => {
    const coverageFile = join(dir, `coverage-${signal}.json`);
    const cli = await startQuietCli(['--coverage-out', coverageFile]);
    const sentAt = performance.now();
    const delayed = postPlant(cli.port, { 'x-mock-delay': '1500' });
    await new Promise((r) => setTimeout(r, 300));
    cli.child.kill(signal);
    // The port closes as soon as the signal is handled; poll (bounded) rather than guess how long
    // a loaded machine takes to deliver it. The delayed answer is still in flight meanwhile.
    expect(await refusedWithin(cli.port, 1_000)).toBe('ECONNREFUSED');

    const answer = await delayed;
    expect(answer).toEqual({ status: 200, body: '{"name":"Late fern"}' });
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(1_400);

    const exited = await cli.exited;
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
    const cli = await startQuietCli(['--coverage-out', coverageFile]);
    const signalledAt = performance.now();
    const exited = await cli.stop('SIGTERM');
    expect(exited.code).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(2_000);
    const report = JSON.parse(await readFile(coverageFile, 'utf8')) as { summary: { exercised: number } };
    expect(report.summary.exercised).toBe(0);
  }, 15_000);
});

describe('npm start', () => {
  it('hands a SIGTERM sent to npm on to the stub: it shuts down gracefully and nothing is left listening', async () => {
    const root = join(import.meta.dirname, '..');
    // --ignore-scripts: no prestart build (dist/ is built by pretest; rebuilding would race the CLI tests).
    const npm = spawn('npm', ['start', '--silent', '--ignore-scripts', '--', '--port', '0', '--no-watch', '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line within 20 s: ${stdout}`)), 20_000);
        npm.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect((await request(`${url}/__admin/health`)).status).toBe(200);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toContain('SIGTERM: finishing in-flight requests');
      expect(await refusedWithin(Number(new URL(url).port), 2_000)).toBe('ECONNREFUSED');
    } finally {
      npm.kill('SIGKILL');
    }
  }, 30_000);
});
