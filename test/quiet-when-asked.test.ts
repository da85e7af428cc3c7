// Silence when asked: a stub started with `log: false` prints nothing at all (its warnings stay
// at GET /__admin/warnings), and a project without a ./fixtures folder is not warned about one it
// never named. Each case runs in a process of its own, so that all it writes is seen.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub } from '../src/index.js';

const ROOT = join(import.meta.dirname, '..');
const INDEX = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
const CLI = join(ROOT, 'dist', 'cli.js');
let dir: string;
let empty: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-quiet-'));
  empty = join(dir, 'empty');
  await mkdir(empty);
  await writeFile(join(dir, 'no-paths.yaml'), 'openapi: 3.0.3\ninfo: {title: Nothing, version: "1"}\npaths: {}\n');
  await mkdir(join(dir, 'fixtures'));
  await writeFile(join(dir, 'fixtures', 'elsewhere.yaml'), 'operation: GET /trees\nscenarios:\n  oak:\n    status: 200\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Everything a process wrote, once it has exited. */
interface Written {
  stdout: string;
  stderr: string;
}

/**
 * Runs startStub(options) from the built package in a process of its own (in `cwd`), hands the
 * stub's URL to `visit` over IPC, then closes it and resolves with all the process wrote.
 */
async function inOwnProcess(cwd: string, options: Record<string, unknown>, visit: (url: string) => Promise<void>): Promise<Written> {
  const script = `import { startStub } from ${JSON.stringify(INDEX)};
const stub = await startStub(${JSON.stringify({ port: 0, watch: false, ...options })});
process.send(stub.url);
process.once('message', async () => { await stub.close(); process.disconnect(); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const written: Written = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (written.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (written.stderr += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${written.stderr}`)), 20_000);
      child.once('message', (message) => {
        clearTimeout(timer);
        resolve(String(message));
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}) before serving: ${written.stderr}`)));
    });
    await visit(url);
    child.send('close');
    await closed;
  } finally {
    child.kill('SIGKILL');
  }
  return written;
}

describe('startStub({ log: false }) prints nothing at all', () => {
  it('a document with a warning and a fixture for an operation it lacks: silent, both warnings listed at GET /__admin/warnings', async () => {
    const spec = join(dir, 'no-paths.yaml');
    const written = await inOwnProcess(dir, { spec, fixtures: join(dir, 'fixtures'), log: false }, async (url) => {
      const listed = await fetch(`${url}/__admin/warnings`);
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual({ warnings: [
        { file: spec, pointer: '/paths', kind: 'document without paths', reason: 'the document has no paths, so nothing is served (every request but /__admin/ is answered 404)' },
        { file: join(dir, 'fixtures', 'elsewhere.yaml'), pointer: '/operation', kind: 'fixture for an operation the document lacks', reason: 'the spec has no operation "GET /trees"; its scenarios are not served' },
      ] });
      const answer = await fetch(`${url}/trees`);
      expect(answer.status).toBe(404);
    });
    expect(written).toEqual({ stdout: '', stderr: '' });
  }, 30_000);

  it('stub.warnings() hands out what GET /__admin/warnings lists', async () => {
    const stub = await startStub({ spec: join(dir, 'no-paths.yaml'), fixtures: join(dir, 'fixtures'), port: 0, watch: false, log: false });
    try {
      const listed = await fetch(`${stub.url}/__admin/warnings`);
      expect(stub.warnings()).toEqual(((await listed.json()) as { warnings: unknown[] }).warnings);
      expect(stub.warnings().map((warning) => warning.kind)).toEqual(['document without paths', 'fixture for an operation the document lacks']);
    } finally {
      await stub.close();
    }
  });

  it('in a folder without a document, serving the bundled Plant Store: silent about it', async () => {
    const written = await inOwnProcess(empty, { log: false }, async (url) => {
      const answer = await fetch(`${url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"Fern"}' });
      expect([answer.status, await answer.json()]).toEqual([200, { name: 'Fern' }]);
    });
    expect(written).toEqual({ stdout: '', stderr: '' });
  }, 30_000);

  it('with log: true the same stub says what it serves and what is wrong', async () => {
    const spec = join(dir, 'no-paths.yaml');
    const written = await inOwnProcess(dir, { spec, fixtures: join(dir, 'fixtures'), log: true }, async () => {});
    expect(written.stdout.split('\n').filter((line) => line.startsWith('warning: '))).toEqual([
      `warning: ${spec}: the document has no paths, so nothing is served (every request but /__admin/ is answered 404) (--strict refuses it)`,
      `warning: ${join(dir, 'fixtures', 'elsewhere.yaml')}: the spec has no operation "GET /trees"; its scenarios are not served`,
    ]);
  }, 30_000);
});

describe('the fixtures folder', () => {
  /** The CLI's lines up to its listening line, started in `cwd` with `args`, then stopped. */
  async function startupLines(cwd: string, args: string[]): Promise<string[]> {
    const child = spawn(process.execPath, [CLI, '--port', '0', '--no-watch', '--spec', join(ROOT, 'openapi.yaml'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line within 20 s: ${output}`)), 20_000);
        child.stdout.on('data', () => {
          if (/ listening on \S+\n/.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    return output.slice(0, output.indexOf(' listening on ')).split('\n');
  }

  it('missing by default (no --fixtures) is not worth a warning', async () => {
    const lines = await startupLines(empty, []);
    expect(lines.filter((line) => line.startsWith('warning: '))).toEqual([]);
  }, 30_000);

  it('missing when named with --fixtures is a warning naming it', async () => {
    const lines = await startupLines(empty, ['--fixtures', 'fixtrues']);
    expect(lines.filter((line) => line.startsWith('warning: '))).toEqual(['warning: fixtrues: no such folder; no scenarios are served']);
  }, 30_000);
});
