// --log-format json over a whole run: with --workers 2, a warning at start, requests, a reload
// and a shutdown, every line the process writes on stdout and on stderr is one JSON object.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

const ROOT = join(import.meta.dirname, '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-json-lines-'));
  await copyFile(join(ROOT, 'openapi.yaml'), join(dir, 'openapi.yaml'));
  await mkdir(join(dir, 'fixtures'));
  await writeFile(join(dir, 'fixtures', 'trees.yaml'), 'operation: GET /trees\nscenarios:\n  oak:\n    status: 200\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Line {
  level?: string;
  message?: string;
  method?: string;
  status?: number;
}

/** Each line of `text` parsed; a line that is not a JSON object fails the test, named. */
function parsed(text: string, stream: string): Line[] {
  return text.split('\n').slice(0, -1).map((line) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${stream}: not a JSON line: ${line}`);
    }
    expect(value, `${stream}: ${line}`).toBeTypeOf('object');
    return value as Line;
  });
}

describe('--log-format json', () => {
  it('with --workers 2, a warning, requests, a reload and a shutdown: every line on stdout and stderr is one JSON object', async () => {
    const spec = join(dir, 'openapi.yaml');
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), '--log-format', 'json', '--workers', '2', '--port', '0', '--spec', spec, '--fixtures', join(dir, 'fixtures')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    /** Waits (up to 20 s) for a whole stdout line matching `pattern`; resolves with its match. */
    const lineMatching = async (pattern: RegExp): Promise<RegExpExecArray> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const match = pattern.exec(stdout.slice(0, stdout.lastIndexOf('\n') + 1));
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no line matching ${pattern} within 20 s; stdout: ${stdout} stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      const url = (await lineMatching(/listening on (http:\/\/[\d.:]+) with 2 workers/))[1];
      const refused = await fetch(`${url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      const missing = await fetch(`${url}/trees`);
      expect(missing.status).toBe(404);
      await writeFile(spec, (await readFile(spec, 'utf8')).replace('title: OpenAPI Plant Store', 'title: Plant Store, edited'));
      await lineMatching(/"message":"reloaded /);
      await lineMatching(/"status":404/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await closed).toBe(0);
    const lines = [...parsed(stdout, 'stdout'), ...parsed(stderr, 'stderr')];
    // Said once for the whole server at start and once by the reload, not once per worker each time.
    const warning = `${join(dir, 'fixtures', 'trees.yaml')}: the spec has no operation "GET /trees"; its scenarios are not served`;
    const reloaded = lines.filter((line) => line.message?.startsWith('reloaded '));
    expect(reloaded).toHaveLength(1);
    expect(lines.filter((line) => line.level === 'warning').map((line) => line.message)).toEqual([warning, warning]);
    expect(lines.filter((line) => line.method !== undefined).map((line) => `${line.method} ${line.status}`).sort()).toEqual(['GET 404', 'POST 401']);
    expect(lines.some((line) => line.level === 'info' && /^coverage: /.test(line.message ?? ''))).toBe(true);
  }, 60_000);

  it('a refused flag is a JSON line too, on stderr', async () => {
    const run = await runCli(['--log-format', 'json', '--sepc', 'openapi.yaml']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [line, ...more] = parsed(run.stderr, 'stderr');
    expect(more).toEqual([]);
    expect([line.level, line.message]).toEqual(['error', "plant-store-stub: Unknown option '--sepc'; did you mean --spec?"]);
  });
});
