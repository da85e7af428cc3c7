// The "scale" section of `npm run bench` (issue 36): what one request of each kind costs as
// stateful mode's store grows, in each mode (one process, --workers 2, --state-store Redis). Each
// size is put in whole with PUT /__admin/state (bench/scale-spec.yaml: integer ids the server
// assigns, `limit`/`offset` pages, items of about 200 bytes), then loaded with a fixed number of
// requests per kind: a read by id, the first and the last page of 20, an update, and creates
// followed by deletes of what they made (in rounds of at most as many items as the store holds,
// so a store of 100 holds 100 to 200 meanwhile). Per kind: the server's CPU per request (every
// thread of its processes, from /proc/PID/task/*/schedstat, in ns) and the median latency (timed
// here, to the microsecond), each also as a ratio to the same mode at 100 items in the same run.
// With Redis, redis-server's own CPU per request too.
//
// Standalone after a build: `node bench/scale.js` (the table on stdout). Shortened by env:
//   BENCH_SCALE_SIZES=100,1000,10000,50000   items in the measured resource
//   BENCH_SCALE_MODES=in-process,workers,redis
//   BENCH_SCALE_REQUESTS=2000                requests per kind and size
//   BENCH_SCALE_WARMUP=1000                  requests per kind first, not counted (the JIT's warm-up)
//   BENCH_SCALE_ROUNDS=3                     every size measured this many times, one round after another; the median is kept
//   BENCH_SCALE_CONNECTIONS=10               requests in flight at once
//   BENCH_SCALE_BESIDE=1                     also 100 items beside the largest size in another resource (0: not)
//   BENCH_SCALE_CLI=dist/cli.js              standalone only: another build to measure (an older commit's, for a before and after)
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, installCleanup, killAll, startServer, table } from './lib.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SPEC = path.join(ROOT, 'bench', 'scale-spec.yaml');
const REDIS_SERVER = '/usr/bin/redis-server';

const listed = (name, fallback) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);
const whole = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`${name} must be a positive whole number, got ${process.env[name]}`);
  return value;
};

export function scaleSettings() {
  const sizes = listed('BENCH_SCALE_SIZES', '100,1000,10000,50000').map(Number);
  if (sizes.some((n) => !(Number.isInteger(n) && n >= 40 && n <= 100_000))) throw new Error('BENCH_SCALE_SIZES must be whole numbers from 40 to 100,000');
  const modes = listed('BENCH_SCALE_MODES', 'in-process,workers,redis');
  const unknown = modes.filter((m) => !MODES[m]);
  if (unknown.length) throw new Error(`BENCH_SCALE_MODES: unknown ${unknown.join(', ')}; known: ${Object.keys(MODES).join(', ')}`);
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    modes,
    requests: whole('BENCH_SCALE_REQUESTS', 2000),
    warmup: whole('BENCH_SCALE_WARMUP', 1000),
    rounds: whole('BENCH_SCALE_ROUNDS', 3),
    connections: whole('BENCH_SCALE_CONNECTIONS', 10),
    beside: (process.env.BENCH_SCALE_BESIDE ?? '1') !== '0',
  };
}

const MODES = {
  'in-process': { label: 'in-process', args: () => [] },
  workers: { label: '--workers 2', args: () => ['--workers', '2'] },
  redis: { label: 'Redis', args: (redis) => ['--state-store', redis.url], redis: true },
};

const KINDS = ['read by id', 'first page of 20', 'last page of 20', 'update', 'create', 'delete'];
const JSON_HEADERS = { 'content-type': 'application/json' };

/** About 200 bytes of JSON, like the issue's items. */
function item(id) {
  return { id, name: `item ${id}`, description: `The ${id}th item of the scale bench, long enough to make its JSON about two hundred bytes.`, tag: `tag-${id % 10}`, price: (id % 100) + 0.99 };
}

/** The section's markdown; `progress` reports each step on stderr. */
export async function runScaleBench({ cli, progress = () => {} }) {
  const settings = scaleSettings();
  if (!existsSync(cli)) return 'skipped: dist/cli.js not built (npm run build)';
  const results = new Map();
  const notes = [];
  const started = performance.now();
  for (const mode of settings.modes) {
    if (MODES[mode].redis && !existsSync(REDIS_SERVER)) {
      notes.push(`${MODES[mode].label}: skipped, no ${REDIS_SERVER} (apt-get install redis-server)`);
      continue;
    }
    try {
      results.set(mode, await measureMode(mode, cli, settings, progress, notes));
    } catch (error) {
      notes.push(`${MODES[mode].label}: failed: ${error.message}`);
      progress(`scale ${mode}: failed: ${error.message}`);
    }
  }
  notes.push(`the whole section took ${Math.round((performance.now() - started) / 1000)} s`);
  return report(settings, results, notes);
}

/** One mode: a server (and redis-server), every size in turn, then the 100-beside case. */
async function measureMode(mode, cli, settings, progress, notes) {
  const redis = MODES[mode].redis ? await startRedis() : null;
  let server;
  try {
    server = await startServer({
      command: process.execPath,
      args: [cli, '--spec', SPEC, '--port', '0', '--host', '127.0.0.1', '--quiet', '--no-watch', '--stateful', ...MODES[mode].args(redis)],
      cwd: ROOT,
      probe: { method: 'GET', path: '/items?limit=1', headers: {} },
    });
    // The first size must not pay for the JIT: every kind is run first, and not counted.
    await measureSize(server, redis, { items: settings.sizes[0], others: 0 }, { ...settings, requests: settings.warmup });
    // Each size is measured in every round, the rounds one after another: a figure is the median of
    // its rounds, so a moment when the shared machine was busy moves no figure on its own.
    const cases = settings.sizes.map((size) => ({ label: size.toLocaleString('en-US'), size, items: size, others: 0 }));
    const largest = settings.sizes.at(-1);
    if (settings.beside && largest > 100) cases.push({ label: `100 beside ${largest.toLocaleString('en-US')}`, size: 100, beside: true, items: 100, others: largest });
    const runs = cases.map((c) => ({ ...c, rounds: [], failures: [] }));
    for (let round = 1; round <= settings.rounds; round++) {
      for (const run of runs) {
        progress(`scale ${mode}: ${run.label} items, round ${round} of ${settings.rounds}`);
        const measured = await measureSize(server, redis, run, settings);
        run.rounds.push(measured.kinds);
        run.failures.push(...measured.failures);
      }
    }
    for (const run of runs) if (run.failures.length) notes.push(`${MODES[mode].label}, ${run.label}: ${run.failures.length} requests failed, e.g. ${run.failures[0]}`);
    const twoInstances = redis ? await twoOnOneRedis(cli, redis, server, largest, settings) : null;
    return { runs, twoInstances };
  } finally {
    await server?.stop();
    await redis?.stop();
  }
}

/** Fills the store, then measures each kind of request. */
async function measureSize(server, redis, { items, others }, settings) {
  const state = { '/items': Array.from({ length: items }, (_, i) => item(i + 1)) };
  if (others > 0) state['/others'] = Array.from({ length: others }, (_, i) => item(i + 1));
  const put = await send(server.url, { method: 'PUT', path: '/__admin/state', headers: JSON_HEADERS, body: JSON.stringify(state) }, 60_000);
  if (put.status !== 200) throw new Error(`PUT /__admin/state of ${items + others} items answered ${put.status}: ${put.body.slice(0, 200)}`);
  // The garbage of the whole state sent and answered is collected before anything is measured.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pids = [server.pid, ...descendants(server.pid)];
  const failures = [];
  const measured = {};
  const spread = (i) => 1 + ((i * 7919) % items);
  const plans = {
    'read by id': (i) => ({ method: 'GET', path: `/items/${spread(i)}`, expect: 200 }),
    'first page of 20': () => ({ method: 'GET', path: '/items?limit=20', expect: 200 }),
    'last page of 20': () => ({ method: 'GET', path: `/items?limit=20&offset=${items - 20}`, expect: 200 }),
    update: (i) => ({ method: 'PUT', path: `/items/${spread(i)}`, headers: JSON_HEADERS, body: JSON.stringify(item(spread(i))), expect: 200 }),
  };
  for (const [kind, plan] of Object.entries(plans)) {
    await drive(server.url, Math.min(300, settings.requests), settings.connections, plan, []); // warm-up, not counted
    measured[kind] = await measured_(pids, redis, () => drive(server.url, settings.requests, settings.connections, plan, failures));
  }
  // Creates, then deletes of what they made, in rounds that never more than double the store.
  const round = Math.min(items, settings.requests);
  const create = () => ({ method: 'POST', path: '/items', headers: JSON_HEADERS, body: JSON.stringify({ name: 'made here', description: 'a created item of the scale bench', tag: 'new', price: 1.5 }), expect: 201 });
  const totals = { create: empty(), delete: empty() };
  for (let done = 0; done < settings.requests; done += round) {
    const count = Math.min(round, settings.requests - done);
    const made = [];
    const created = await measured_(pids, redis, () => drive(server.url, count, settings.connections, create, failures, (body) => made.push(JSON.parse(body).id)));
    add(totals.create, created);
    const deleted = await measured_(pids, redis, () => drive(server.url, made.length, settings.connections, (i) => ({ method: 'DELETE', path: `/items/${made[i]}`, expect: 204 }), failures));
    add(totals.delete, deleted);
  }
  measured.create = totals.create;
  measured.delete = totals.delete;
  return { kinds: measured, failures };
}

function empty() {
  return { cpuNs: 0, redisNs: 0, requests: 0, latencies: [] };
}

function add(total, part) {
  total.cpuNs += part.cpuNs;
  total.redisNs += part.redisNs;
  total.requests += part.requests;
  total.latencies.push(...part.latencies);
}

/** The CPU the server's processes (and redis-server) spent while `run` loaded them. */
async function measured_(pids, redis, run) {
  const before = cpuNs(pids);
  const redisBefore = redis ? cpuNs([redis.pid]) : 0;
  const latencies = await run();
  return { cpuNs: cpuNs(pids) - before, redisNs: redis ? cpuNs([redis.pid]) - redisBefore : 0, requests: latencies.length, latencies };
}

/**
 * Reads by id through one instance, then through two on the same Redis at once (each with half
 * the connections): on two cores the instances, redis-server and this load share the CPUs, so this
 * shows only that a second instance costs the first nothing it did not already pay.
 */
async function twoOnOneRedis(cli, redis, first, size, settings) {
  const second = await startServer({
    command: process.execPath,
    args: [cli, '--spec', SPEC, '--port', '0', '--host', '127.0.0.1', '--quiet', '--no-watch', '--stateful', '--state-store', redis.url],
    cwd: ROOT,
    probe: { method: 'GET', path: '/items?limit=1', headers: {} },
  });
  try {
    const state = { '/items': Array.from({ length: size }, (_, i) => item(i + 1)) };
    await send(first.url, { method: 'PUT', path: '/__admin/state', headers: JSON_HEADERS, body: JSON.stringify(state) }, 60_000);
    const read = (i) => ({ method: 'GET', path: `/items/${1 + ((i * 7919) % size)}`, expect: 200 });
    const rate = async (urls) => {
      const begun = performance.now();
      await Promise.all(urls.map((url) => drive(url, settings.requests, Math.max(1, Math.round(settings.connections / urls.length)), read, [])));
      return (settings.requests * urls.length) / ((performance.now() - begun) / 1000);
    };
    await rate([first.url, second.url]); // warm-up
    return { size, one: await rate([first.url]), two: await rate([first.url, second.url]) };
  } finally {
    await second.stop();
  }
}

/**
 * `total` requests made by `plan(i)`, `connections` at a time on keep-alive sockets; the latency
 * of each (ms). A status other than the plan's `expect` is a failure, described in `failures`.
 */
async function drive(url, total, connections, plan, failures, onBody) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let next = 0;
  const loop = async () => {
    while (next < total) {
      const planned = plan(next++);
      const begun = performance.now();
      const answer = await send(url, planned, 10_000, agent).catch((error) => ({ status: 0, body: error.message }));
      latencies.push(performance.now() - begun);
      if (answer.status !== planned.expect) failures.push(`${planned.method} ${planned.path}: ${answer.status} ${answer.body.slice(0, 120)}`);
      else onBody?.(answer.body);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return latencies;
}

function send(url, { method, path: target, headers = {}, body }, timeoutMs, agent = false) {
  return new Promise((resolve, reject) => {
    const req = http.request(url + target, { method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU time (ns) every thread of these processes has used, from /proc/PID/task/TID/schedstat. */
function cpuNs(pids) {
  let total = 0;
  for (const pid of pids) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited
    }
    for (const task of tasks) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return total;
}

function descendants(root) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === root) children.push(Number(entry));
    } catch {
      // raced with an exit
    }
  }
  return children;
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  process.once('exit', () => child.kill('SIGKILL'));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let tries = 0; !(await accepts(port)); tries++) {
    if (tries > 100) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid: child.pid, url: `redis://127.0.0.1:${port}/0`, stop: () => (child.kill('SIGKILL'), exited) };
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Per kind and run, the medians of its rounds: CPU µs per request, p50 µs, redis-server µs per request. */
function figures(run, kind) {
  const rounds = run.rounds.map((kinds) => kinds[kind]).filter((k) => k.requests > 0);
  if (rounds.length === 0) return { cpu: null, p50: null, redis: null };
  return {
    cpu: median(rounds.map((k) => k.cpuNs / 1000 / k.requests)),
    p50: median(rounds.map((k) => median(k.latencies) * 1000)),
    redis: median(rounds.map((k) => k.redisNs / 1000 / k.requests)),
  };
}

const ratio = (value, base) => (value != null && base ? `${(value / base).toFixed(2)}×` : '—');
const micro = (value) => (value == null ? '—' : String(Math.round(value)));

function report(settings, results, notes) {
  const out = [
    `${settings.requests.toLocaleString('en-US')} requests per kind and size in each of ${settings.rounds} rounds (the median round kept), ${settings.connections} in flight; sizes ${settings.sizes.map((n) => n.toLocaleString('en-US')).join(' / ')}` +
      `${settings.beside ? ', and 100 items beside the largest size in another resource' : ''}. ` +
      'Each cell: the server\'s CPU µs per request / p50 latency µs, then both as ratios to the same mode at 100 items (the first size) in this run.',
    '',
  ];
  const worst = [];
  for (const [mode, { runs, twoInstances }] of results) {
    const base = runs[0];
    const header = ['kind', ...runs.map((run) => run.label)];
    const rows = KINDS.map((kind) => [kind, ...runs.map((run) => {
      const f = figures(run, kind);
      const b = figures(base, kind);
      if (run !== base && f.cpu != null && b.cpu) worst.push({ mode, kind, label: run.label, cpu: f.cpu / b.cpu, p50: f.p50 / b.p50 });
      return `${micro(f.cpu)} / ${micro(f.p50)}${run === base ? '' : ` (${ratio(f.cpu, b.cpu)} / ${ratio(f.p50, b.p50)})`}`;
    })]);
    out.push(`**${MODES[mode].label}**`, '', table(header, rows, 'l' + 'r'.repeat(runs.length)), '');
    if (MODES[mode].redis) {
      const redisRows = KINDS.map((kind) => [kind, ...runs.map((run) => micro(figures(run, kind).redis))]);
      out.push('redis-server\'s own CPU µs per request:', '', table(header, redisRows, 'l' + 'r'.repeat(runs.length)), '');
      const largest = runs.filter((run) => !run.beside).at(-1);
      const read = figures(largest, 'read by id');
      out.push(`At ${largest.label} items a read by id costs the instance ${Math.round(read.cpu)} µs of CPU and redis-server ${Math.round(read.redis)} µs: one redis-server could serve about ${(read.cpu / read.redis).toFixed(1)} instances each reading by id as fast as one instance can.`);
      if (twoInstances) out.push(`Reads by id at ${twoInstances.size.toLocaleString('en-US')} items through one instance: ${Math.round(twoInstances.one).toLocaleString('en-US')} req/s; through two instances on the same Redis at once: ${Math.round(twoInstances.two).toLocaleString('en-US')} req/s in all (${ratio(twoInstances.two, twoInstances.one)}).`);
      out.push('');
    }
  }
  const inProcess = results.get('in-process');
  const redis = results.get('redis');
  if (inProcess && redis) {
    const at = (runs) => runs.filter((run) => !run.beside).at(-1);
    const a = figures(at(inProcess.runs), 'read by id');
    const b = figures(at(redis.runs), 'read by id');
    out.push(`A read by id at ${at(redis.runs).label} items, Redis against in-process: ${ratio(b.p50, a.p50)} the p50, ${ratio(b.cpu, a.cpu)} the instance's CPU.`, '');
  }
  if (worst.length) {
    const cpu = worst.reduce((w, r) => (r.cpu > w.cpu ? r : w));
    const p50 = worst.reduce((w, r) => (r.p50 > w.p50 ? r : w));
    out.push(`Largest ratio to 100 items: CPU ${cpu.cpu.toFixed(2)}× (${MODES[cpu.mode].label}, ${cpu.kind}, ${cpu.label}); p50 ${p50.p50.toFixed(2)}× (${MODES[p50.mode].label}, ${p50.kind}, ${p50.label}).`, '');
  }
  out.push('Read by id, CPU µs per request:', '', '```', ...chart(results), '```', '');
  out.push(...notes.map((n) => `- ${n}`));
  return out.join('\n');
}

/** A small text chart: one bar per mode and size. */
function chart(results) {
  const bars = [];
  for (const [mode, { runs }] of results) for (const run of runs) bars.push({ name: `${MODES[mode].label}, ${run.label}`, value: figures(run, 'read by id').cpu });
  const most = Math.max(...bars.map((b) => b.value), 1);
  const width = Math.max(...bars.map((b) => b.name.length));
  return bars.map((b) => `${b.name.padEnd(width)} ${'█'.repeat(Math.max(1, Math.round((b.value / most) * 40)))} ${Math.round(b.value)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  installCleanup();
  try {
    const cli = path.resolve(process.env.BENCH_SCALE_CLI ?? path.join(ROOT, 'dist', 'cli.js'));
    process.stdout.write(`${await runScaleBench({ cli, progress: (text) => process.stderr.write(`[bench] ${text}\n`) })}\n`);
  } finally {
    killAll();
  }
}
