// --workers N: one port served by N processes (node:cluster) that act as one server: one state,
// journal, coverage and sticky scenario whichever worker a request reaches; dead workers are
// replaced, and a stub whose workers keep dying exits non-zero; one signal stops them all.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { AUTH_HEADERS, createPlant, JSON_HEADERS } from './helpers/plant.js';

const FULL_SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');

/** The worker processes of a CLI started with --workers (the primary's children). */
function workerPids(cli: StartedCli): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(cli.child.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
}

/** Waits (bounded) until `check` holds; the last value is returned for the test to assert on. */
async function eventually<T>(probe: () => T | Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await probe();
  }
  return value;
}

/** Many requests on fresh connections, so both workers take some. */
function many<T>(count: number, send: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(i)));
}

const fresh = { connection: 'close' };

describe('the CLI with --workers 2 --port 0', () => {
  let cli: StartedCli;

  beforeAll(async () => {
    cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch'], { timeoutMs: 20_000 });
  }, 25_000);

  afterAll(async () => {
    await cli?.stop('SIGKILL');
  });

  it('announces one URL once every worker listens, on a port the system picked, with the whole banner once', () => {
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.port).toBeGreaterThan(0);
    const lines = cli.stdout().split('\n');
    expect(lines.filter((line) => line.includes(' listening on '))).toEqual([`OpenAPI Plant Store stub listening on ${cli.url} with 2 workers`]);
    expect(lines.filter((line) => line.startsWith('  POST    '))).toEqual([`  POST    ${cli.url}/plants`]);
    expect(lines.filter((line) => line.startsWith('  health: '))).toEqual([`  health: ${cli.url}/__admin/health   journal: ${cli.url}/__admin/requests`]);
    expect(workerPids(cli)).toHaveLength(2);
  });

  it('streams every worker\'s requests to an admin page open on any one, each naming its worker', async () => {
    const stream = await fetch(`${cli.url}/__admin/events`, { signal: AbortSignal.timeout(15_000) });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': journal stream')) text += decoder.decode((await reader.read()).value, { stream: true });
    // The primary hears that a page follows, and tells every worker to share: wait until a request
    // answered by the other worker arrives too.
    const ids = new Set<number>();
    const instances = new Set<string>();
    for (let round = 0; round < 40 && instances.size < 2; round++) {
      await createPlant(cli.url, { id: 500 + round, name: 'Fern' }, fresh);
      while (![...text.matchAll(/event: request\ndata: (.*)\n\n/g)].some(([, data]) => JSON.parse(data).body?.id === 500 + round)) {
        const { value, done } = await Promise.race([reader.read(), new Promise<{ value: undefined; done: true }>((resolve) => setTimeout(() => resolve({ value: undefined, done: true }), 300))]);
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      for (const [, data] of text.matchAll(/event: request\ndata: (.*)\n\n/g)) {
        const entry = JSON.parse(data);
        ids.add(entry.body?.id);
        instances.add(entry.instance);
      }
    }
    await reader.cancel();
    expect([...instances].map((instance) => /^.+:(\d+)$/.exec(instance)?.[1]).map(Number).sort()).toEqual(workerPids(cli).sort());
  });

  it('answers every request on the shared port with the same contract', async () => {
    const answers = await many(20, (i) => createPlant(cli.url, { id: i, name: `plant ${i}` }, fresh));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => a.json)).toEqual(Array.from({ length: 20 }, (_, i) => ({ name: `plant ${i}` })));
  });

  it('journal and coverage read through any worker are the whole server’s; a reset reaches every worker', async () => {
    expect((await request(`${cli.url}/__admin/requests`, { method: 'DELETE', headers: fresh })).status).toBe(204);
    await many(10, (i) => createPlant(cli.url, { id: i, name: 'Fern' }, fresh));
    for (let read = 0; read < 6; read++) {
      const journal = await request(`${cli.url}/__admin/requests`, { headers: fresh });
      expect(journal.status).toBe(200);
      expect(journal.json.requests).toHaveLength(10);
      const coverage = await request(`${cli.url}/__admin/coverage`, { headers: fresh });
      expect(coverage.json.operations[0].responses[0]).toEqual({ status: '200', exercised: true, hits: 10 });
    }
    expect((await request(`${cli.url}/__admin/requests`, { method: 'DELETE', headers: fresh })).status).toBe(204);
    for (let read = 0; read < 4; read++) expect((await request(`${cli.url}/__admin/requests`, { headers: fresh })).json.requests).toEqual([]);
  });

  it('a sticky scenario set through one worker answers on every worker, and clearing it clears it everywhere', async () => {
    const set = await request(`${cli.url}/__admin/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json', ...fresh }, body: '{"name":"unknown-tag"}' });
    expect([set.status, set.json]).toEqual([200, { sticky: 'unknown-tag' }]);
    const sticky = await many(40, () => createPlant(cli.url, { id: 1, name: 'Fern' }, fresh));
    expect(sticky.map((a) => [a.status, a.headers.get('x-mock-scenario')])).toEqual(Array(40).fill([400, 'unknown-tag']));
    expect((await request(`${cli.url}/__admin/scenario`, { method: 'DELETE', headers: fresh })).status).toBe(204);
    const cleared = await many(40, () => createPlant(cli.url, { id: 1, name: 'Fern' }, fresh));
    expect(cleared.map((a) => [a.status, a.headers.get('x-mock-scenario')])).toEqual(Array(40).fill([200, 'echo']));
  });

  it('replaces a killed worker, says so, and keeps answering every request', async () => {
    const [victim] = workerPids(cli);
    process.kill(victim, 'SIGKILL');
    const logged = await eventually(() => cli.stderr(), (text) => text.includes(`worker ${victim} was killed by SIGKILL; starting another in its place`));
    expect(logged).toContain(`worker ${victim} was killed by SIGKILL; starting another in its place`);
    const pids = await eventually(() => workerPids(cli), (now) => now.length === 2 && !now.includes(victim));
    expect(pids).toHaveLength(2);
    const answers = await many(20, (i) => createPlant(cli.url, { id: i, name: 'Fern' }, { ...fresh }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  }, 20_000);

  it('stops every worker and exits 0 on SIGTERM', async () => {
    const { code } = await cli.stop('SIGTERM');
    expect(code).toBe(0);
    await expect(request(`${cli.url}/__admin/health`)).rejects.toThrow();
  });
});

describe('reloads with --workers 2 after the worker that speaks for all has died', () => {
  it('are still said, once: the replacement of the dead speaker takes over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stub-workers-speaker-'));
    const spec = join(dir, 'openapi.yaml');
    await writeFile(spec, await readFile(FULL_SPEC, 'utf8'));
    const cli = await startCli(['--workers', '2', '--port', '0', '--spec', spec, '--fixtures', NO_FIXTURES], { timeoutMs: 20_000 });
    try {
      // The primary tells each worker in its environment whether it speaks for all.
      const speaker = workerPids(cli).find((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('PLANT_STORE_STUB_LOADING_SPEAKER=start and reloads'));
      expect(speaker).toBeTypeOf('number');
      process.kill(speaker!, 'SIGKILL');
      const replaced = await eventually(() => cli.stderr(), (text) => / serves in its place\n/.test(text));
      expect(replaced).toContain(`worker ${speaker} was killed by SIGKILL; starting another in its place`);
      await writeFile(spec, (await readFile(spec, 'utf8')).replace('title: Plant Store (full)', 'title: Edited'));
      // Every worker serves the edited document (each reloaded), then the lines are counted.
      const title = () => request(`${cli.url}/__admin/health`, { headers: fresh }).then((answer) => (answer.json as { spec: string }).spec);
      const titles = await eventually(() => Promise.all(Array.from({ length: 20 }, title)), (seen) => seen.every((seen1) => seen1 === 'Edited'), 15_000);
      expect(new Set(titles)).toEqual(new Set(['Edited']));
      const reloaded = await eventually(() => cli.stdout().split('\n').filter((line) => line.startsWith('reloaded ')), (lines) => lines.length > 0);
      expect(reloaded).toHaveLength(1);
    } finally {
      await cli.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('--coverage-out with --workers 2', () => {
  it('the primary writes the whole server’s coverage once, and prints its table once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stub-workers-coverage-'));
    const file = join(dir, 'coverage.json');
    const cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', '--coverage-out', file], { timeoutMs: 20_000 });
    try {
      const answers = await many(12, (i) => createPlant(cli.url, { id: i, name: 'Fern' }, fresh));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      const refused = await many(3, () => createPlant(cli.url, { id: 1 }, fresh));
      expect(refused.map((a) => a.status)).toEqual([400, 400, 400]);
      const { code, stdout } = await cli.stop('SIGTERM');
      expect(code).toBe(0);
      const report = JSON.parse(await readFile(file, 'utf8'));
      expect(report.operations[0].operation).toBe('POST /plants');
      expect(report.operations[0].responses).toEqual([
        { status: '200', exercised: true, hits: 12 },
        { status: '400', exercised: true, hits: 3 },
      ]);
      expect(stdout.split('\n').filter((line) => line.startsWith('coverage: '))).toHaveLength(1);
      expect(stdout.split('\n').filter((line) => line === `coverage written to ${file}`)).toHaveLength(1);
    } finally {
      console.log('DEBUG', cli.stdout(), cli.stderr());
      await cli.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('workers that keep dying', () => {
  it('end the stub with exit code 1 and a line saying why, so a supervisor restarts it', async () => {
    const cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch'], { timeoutMs: 20_000 });
    // Kill whatever workers there are, a bounded number of times, until the primary gives up.
    for (let round = 0; round < 100 && cli.child.exitCode === null; round++) {
      for (const pid of workerPids(cli)) process.kill(pid, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { code, stderr } = await cli.stop('SIGKILL', 15_000); // SIGKILL only if it has not exited by itself
    expect(code).toBe(1);
    expect(stderr).toMatch(/workers died within 60 s, so the stub stops \(exit code 1\) for a supervisor to restart it\n$/);
  }, 60_000);
});

describe('stateful mode across --workers 2', () => {
  let cli: StartedCli;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stub-workers-'));
    cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch', '--spec', FULL_SPEC, '--fixtures', NO_FIXTURES, '--state-file', join(dir, 'state.json')], { timeoutMs: 20_000 });
  }, 25_000);

  afterAll(async () => {
    await cli?.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('every worker sees what another created', async () => {
    const created = await many(6, (i) => request(`${cli.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, ...fresh }, body: JSON.stringify({ id: i + 1, name: `P${i + 1}` }) }));
    expect(created.map((a) => a.status)).toEqual(Array(6).fill(200));
    const lists = await many(10, () => request(`${cli.url}/plants`, { headers: { ...AUTH_HEADERS, ...fresh } }));
    for (const list of lists) expect(list.json.map((plant: { id: number }) => plant.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('one id created at once through both workers is stored once: one 200, the rest the API’s 400', async () => {
    const answers = await many(8, () => request(`${cli.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, ...fresh }, body: '{"id":99,"name":"Twin"}' }));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(answers.filter((a) => a.status === 400).map((a) => a.json)).toEqual(Array(7).fill({ error: 400, message: '/plants: an item with id 99 already exists' }));
  });

  it('the primary writes the state file, whole, at shutdown', async () => {
    expect((await cli.stop('SIGTERM')).code).toBe(0);
    const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(saved['/plants'].map((plant: { id: number }) => plant.id).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 99]);
  });
});
