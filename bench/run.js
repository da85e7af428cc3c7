// Benchmark harness: `npm run bench` (builds, then runs this file; `node bench/run.js` after a build).
//
// Starts every server itself as a child process on 127.0.0.1, loads it with autocannon
// (50 connections, 1 s warm-up, then BENCH_SECONDS, default 5, per case), and prints markdown
// tables to stdout and bench/last-run.md:
//   - POST /plants on: the bare node:http reference, a minimal Express 5 route, the stub's CLI
//     (default logging), the stub mounted in Express, Prism mock (default logging, -v silent) and
//     Mockoon's CLI (its OpenAPI import, default logging to stdout, no log file);
//     req/s, p50/p99, errors, start-up (spawn -> first 2xx POST), peak RSS, req/s vs the reference;
//   - the reference and the stub CLI side by side (bench/paired.js: pinned to CPUs, warmed), loaded
//     in turn for BENCH_ROUNDS (default 5) rounds saturated and as many at an equal rate: the
//     median ratio of req/s and of the server's CPU time per request (from /proc);
//   - a mixed load (valid, invalid, duplicate-id scenario, unauthorized) on the stub's CLI;
//   - how cost grows with 1, 10, 100 operations (specs generated into .bench-tmp/), and start-up
//     with 1,000;
//   - GitHub's whole document (@octokit/openapi): start-up to the first GET /zen, RSS, and GET /zen
//     under the same load as POST /plants, for the stub and for Prism;
//   - start-up with 1,000, 4,000 and 16,000 operations (is it linear?);
//   - how long requests wait while a 4,000-operation document reloads;
//   - --proxy: the latency the proxy adds to POST /plants over its upstream alone (bench/proxy.js);
//   - the stub inside a web page (bench/in-the-page.js): plant-store-stub/msw's browser bundle,
//     minified and gzipped, and navigation to first answer in chromium, Plant Store and GitHub;
//   - scale (bench/scale.js): stateful requests at 100 to 50,000 stored items, in one process,
//     --workers 2 and Redis, as ratios to 100 items (BENCH_SCALE_* shorten it; see that file).
// A server that cannot start becomes a "skipped" row with the reason; the run carries on.
// Progress goes to stderr so stdout is only the report.
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentRssKb, fmt, freePort, installCleanup, killAll, load, peakRssKb, request, startServer, table } from './lib.js';
import { writeScaledSpec } from './specs.js';
import { EQUAL_SHARE, median, pairedRounds, ratios } from './paired.js';
import { runProxyBench } from './proxy.js';
import { runInThePage } from './in-the-page.js';
import { runScaleBench } from './scale.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BENCH = path.join(ROOT, 'bench');
const TMP = path.join(ROOT, '.bench-tmp');
const SPEC = path.join(ROOT, 'openapi.yaml');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PRISM = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const MOCKOON = path.join(ROOT, 'node_modules', '@mockoon', 'cli', 'bin', 'run.js');
const GITHUB = path.join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const ZEN = { method: 'GET', path: '/zen', headers: {} };

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
if (!(SECONDS > 0)) throw new Error(`BENCH_SECONDS must be a positive number, got ${process.env.BENCH_SECONDS}`);
const LOAD = { seconds: SECONDS, warmupSeconds: 1, connections: 50 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
if (!(Number.isInteger(ROUNDS) && ROUNDS > 0)) throw new Error(`BENCH_ROUNDS must be a positive whole number, got ${process.env.BENCH_ROUNDS}`);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
if (!(WARM_SECONDS >= 0)) throw new Error(`BENCH_WARM_SECONDS must be a number of seconds, got ${process.env.BENCH_WARM_SECONDS}`);

const HEADERS = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const VALID = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const INVALID = JSON.stringify({ id: 'one', name: 'Fern' });
const plantPost = (p = '/plants') => ({ method: 'POST', path: p, headers: HEADERS, body: VALID });

const notes = [];
const note = (text) => notes.push(text);
const progress = (text) => process.stderr.write(`[bench] ${text}\n`);

const node = (...args) => ({ command: process.execPath, args });

installCleanup();
try {
  await main();
} finally {
  killAll();
}

async function main() {
  // Other work on the machine skews every row; the report shows how busy it was when the run began.
  const loadAtStart = loadavg()[0];
  const cliMissing = existsSync(CLI) ? null : 'dist/cli.js not built (npm run build)';
  const prismMissing = existsSync(PRISM) ? null : '@stoplight/prism-cli not installed';
  const mockoonMissing = existsSync(MOCKOON) ? null : '@mockoon/cli not installed';

  // Reference first: every ratio is relative to it.
  const cases = [
    { name: 'node:http reference (bench/)', ...node(path.join(BENCH, 'server-reference.js'), '0'), echo: true },
    { name: 'Express 5 minimal route (bench/)', ...node(path.join(BENCH, 'server-express-minimal.js'), '0'), echo: true },
    { name: 'stub CLI, default logging', ...node(CLI, '--port', '0', '--host', '127.0.0.1'), skip: cliMissing, echo: true, stub: true, logs: true },
    { name: 'stub mounted in Express 5', ...node(path.join(BENCH, 'server-express-mounted.js'), '0', '--spec', SPEC), skip: cliMissing, echo: true, stub: true },
    { name: 'Prism mock, default logging', prism: [], skip: prismMissing },
    { name: 'Prism mock, -v silent', prism: ['-v', 'silent'], skip: prismMissing },
    // Mockoon imports the OpenAPI document and answers from it; it validates no request.
    { name: 'Mockoon CLI, default logging', mockoon: true, skip: mockoonMissing },
  ];
  const rows = [];
  const results = new Map();
  let reference = null;
  let referenceCpu = null;
  for (const c of cases) {
    const port = c.prism || c.mockoon ? await freePort() : null; // Prism and Mockoon cannot report a port they picked
    const spawnSpec = c.prism ? node(PRISM, 'mock', SPEC, '-p', String(port), '-h', '127.0.0.1', ...c.prism)
      : c.mockoon ? node(MOCKOON, 'start', '--data', SPEC, '--port', String(port), '--hostname', '127.0.0.1', '--disable-log-to-file', '--disable-admin-api') : c;
    const result = await runCase(c.name, { ...spawnSpec, port, skip: c.skip, probe: plantPost() }, async (server) => {
      if (c.echo) await checkEcho(c.name, server.url, '/plants');
      else note(`${c.name}: answers its spec example/generated body, not an echo of the request.`);
      if (c.stub) await checkStubErrors(c.name, server.url);
      const before = server.logLines;
      const measured = await load({ url: server.url + '/plants', method: 'POST', headers: HEADERS, body: VALID }, LOAD, server.pid);
      if (c.logs) {
        const served = measured.warmupTotal + measured.total;
        note(`${c.name}: ${fmt.int(server.logLines - before)} stdout lines for ${fmt.int(served)} requests answered during warm-up + load (expected one line per request).`);
      }
      return measured;
    });
    if (c === cases[0] && result.rps) reference = result.rps;
    if (c === cases[0]) referenceCpu = result.cpuUsPerRequest ?? null;
    results.set(c.name, result);
    rows.push(mainRow(c.name, result, reference, referenceCpu));
  }

  const paired = await runPaired(cliMissing, [
    { name: 'node:http reference', spawnSpec: node(path.join(BENCH, 'server-reference.js'), '0'), probe: plantPost() },
    { name: 'stub CLI, default logging', spawnSpec: node(CLI, '--port', '0', '--host', '127.0.0.1'), probe: plantPost() },
    { name: 'stub CLI, --quiet', spawnSpec: node(CLI, '--quiet', '--port', '0', '--host', '127.0.0.1'), probe: plantPost() },
  ]);

  const mixed = await runMixed(cliMissing, reference);
  const scaling = await runScaling(cliMissing, reference);
  const big = await runBigDocument(cliMissing, prismMissing, reference, results.get('stub CLI, default logging')?.rps ?? null);
  const bigPaired = await runPaired(cliMissing ?? (existsSync(GITHUB) ? null : '@octokit/openapi not installed'), [
    { name: 'POST /plants, Plant Store', spawnSpec: node(CLI, '--port', '0', '--host', '127.0.0.1', '--no-watch'), probe: plantPost() },
    { name: "GET /zen, GitHub's document", spawnSpec: node(CLI, '--spec', GITHUB, '--port', '0', '--host', '127.0.0.1', '--no-watch'), probe: ZEN },
  ]);
  const growth = await runStartupGrowth(cliMissing);
  const reload = await runReloadPause(cliMissing);
  const proxied = await runProxyBench({ root: ROOT, bench: BENCH, cli: CLI, spec: SPEC, prism: PRISM }, cliMissing, prismMissing, progress);
  const inThePage = await runInThePage(progress).catch((error) => `## The stub inside a web page\n\nfailed: ${error.message}`);
  const scale = await runScaleBench({ cli: CLI, progress }).catch((error) => `failed: ${error.message}`);

  const report = [
    '# Benchmark: last run',
    '',
    `${new Date().toISOString()}, Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}. ` +
      `autocannon, ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up + ${SECONDS} s measured per case, loopback only. ` +
      `1-min load average at start: ${loadAtStart.toFixed(2)}. ` +
      'Load generator and server share the machine, so the fastest rows may be limited by autocannon itself.',
    '',
    '## POST /plants, valid body',
    '',
    'start-up: spawn to first 2xx POST /plants (polled every 5 ms). peak RSS: VmHWM after the load (process and children). ' +
      'Latency percentiles have 1 ms resolution (autocannon).',
    '',
    table(['server', 'req/s', 'vs reference', 'CPU µs/req', 'CPU vs reference', 'p50 ms', 'p99 ms', 'non-2xx', 'socket errors', 'start-up ms', 'peak RSS MB'], rows, 'lrrrrrrrrrr'),
    '',
    '## The stub against the reference, in alternating rounds',
    '',
    'One case after another (above) lets the machine change between the reference and the stub: on this 2-core machine the ' +
      "reference's req/s has been seen anywhere from 19,000 to 34,000 minutes apart. Here the reference and the stub CLI " +
      `(default logging, and --quiet) run side by side and are loaded in turn, ${ROUNDS} rounds of ${SECONDS} s each, first saturated, ` +
      'then all at the same rate; each round gives a ratio, and the median is the figure to quote. "CPU" is the server\'s own CPU ' +
      'time per request, read from /proc: the ratio of the reference\'s to the stub\'s. Saturated, the faster server also keeps its ' +
      "load generator busier, which makes each of its answers cheaper to deliver (bench/paired.js says how much); at an equal rate " +
      'both answer the same requests in the same time, though autocannon sends each second\'s share in bursts, so the effect shrinks but stays.',
    '',
    paired,
    '',
    '## Mixed load on the stub CLI (default logging)',
    '',
    'Cycles valid (200), invalid body (400), `X-Mock-Scenario: duplicate-id` (400), no bearer (401). "unexpected" counts answers whose status differs from the one expected for that request.',
    '',
    mixed,
    '',
    '## How cost grows with the number of operations (stub CLI, --quiet)',
    '',
    'Copies of POST /plants under /plants0.../plantsN, every 4th templated as /plantsN/{id}; the load posts to the last literal path. ' +
      'The 1,000-operation spec is only started: its peak RSS is after start-up and the sanity requests, without load.',
    '',
    scaling,
    '',
    "## GitHub's whole document (@octokit/openapi, 1,223 operations, 13 MB)",
    '',
    'start-up: spawn to the first 2xx `GET /zen`. RSS: VmRSS right after that answer, and VmHWM after the load. ' +
      '`GET /zen` is loaded like POST /plants above (default logging); "vs POST /plants" divides by the stub CLI row of the first table.',
    '',
    big,
    '',
    `The same two operations side by side, loaded in turn (${ROUNDS} rounds, default logging): does the cost of a request grow with the document?`,
    '',
    bigPaired,
    '',
    '## Start-up as the document grows (stub CLI, --quiet)',
    '',
    'The copies of POST /plants above; spawn to the first 2xx on the last literal path, best of 2.',
    '',
    growth,
    '',
    '## Answers during a reload (4,000 operations)',
    '',
    'While `POST /__admin/reload` re-reads and recompiles the document, a client sends POST /plants0 one request at a time; ' +
      'the slowest of those answers shows how long any request waited (the document is read in a worker thread and compiled ' +
      'in slices of about 5 ms; what remains is mostly the main thread\'s garbage collection of the new version\'s objects).',
    '',
    reload,
    '',
    '## --proxy: the latency it adds (bench/proxy.js)',
    '',
    'POST /plants sent one at a time, in alternating rounds, to the node:http reference directly, through the stub ' +
      'proxying to it (`--proxy`, `--quiet`: both sides checked against the document, the answer relayed, the exchange journaled), ' +
      'and through `prism proxy` to the same reference (Prism validates both sides too; default logging).',
    '',
    proxied,
    '',
    inThePage,
    '',
    '## Scale: what one request costs as the store grows (bench/scale.js)',
    '',
    scale,
    '',
    '## Notes',
    '',
    ...(notes.length ? notes.map((n) => `- ${n}`) : ['- none']),
    '',
  ].join('\n');
  process.stdout.write(report);
  await writeFile(path.join(BENCH, 'last-run.md'), report);
  progress('report written to bench/last-run.md');
}

/** Starts one server, hands it to `measure`, reads its peak RSS, always stops it. Never throws. */
async function runCase(name, { command, args, port, skip, probe, timeoutMs }, measure) {
  if (skip) return { skipped: skip };
  progress(`${name}: starting`);
  let server;
  try {
    server = await startServer({ command, args, cwd: ROOT, port, probe, ...(timeoutMs ? { timeoutMs } : {}) });
    progress(`${name}: up in ${fmt.ms(server.startupMs)} ms`);
    const measured = (await measure(server)) ?? {};
    return { ...measured, startupMs: server.startupMs, rssKb: peakRssKb(server.pid) };
  } catch (error) {
    progress(`${name}: failed: ${error.message}`);
    return { skipped: error.message };
  } finally {
    await server?.stop();
  }
}

/** A failure reason as one table cell: pipes and newlines would break the markdown row. */
function skipped(r) {
  return `skipped: ${r.skipped.replace(/\s+/g, ' ').replaceAll('|', '\\|')}`;
}

function mainRow(name, r, reference, referenceCpu) {
  if (r.skipped) return [name, skipped(r), '', '', '', '', '', '', '', '', ''];
  return [
    name, fmt.int(r.rps), fmt.ratio(r.rps, reference), fmt.us(r.cpuUsPerRequest),
    r.cpuUsPerRequest ? fmt.ratio(referenceCpu, r.cpuUsPerRequest) : '—', fmt.latency(r.p50), fmt.latency(r.p99), fmt.int(r.non2xx),
    fmt.int(r.socketErrors) + (r.timeouts ? ` (${r.timeouts} timeouts)` : ''), fmt.ms(r.startupMs), fmt.mb(r.rssKb),
  ];
}

/**
 * Servers started together and loaded in turn, ROUNDS times; the first is the baseline. Each
 * round's ratio compares runs seconds apart, and the median of the rounds is what the README quotes.
 */
async function runPaired(skip, entries) {
  if (skip) return `skipped: ${skip}`;
  try {
    const result = await pairedRounds(entries.map((e) => ({ ...e, cwd: ROOT })), { rounds: ROUNDS, seconds: SECONDS, warmSeconds: WARM_SECONDS, connections: LOAD.connections, progress });
    const list = (values) => values.map((x) => (Number.isFinite(x) ? x.toFixed(2) : '—')).join(', ');
    const baseline = entries[0].name;
    const baselineCpu = (rounds) => fmt.us(median(rounds.map((r) => r[0].cpuUsPerRequest)));
    const errors = (rounds, i) => rounds.reduce((sum, r) => sum + r[i].non2xx + r[i].socketErrors, 0);
    const saturatedRows = entries.slice(1).map(({ name }, i) => {
      const r = ratios(result.saturated, i + 1);
      return [name, list(r.rps), `**${r.rpsMedian?.toFixed(2) ?? '—'}×**`, list(r.cpu), `**${r.cpuMedian?.toFixed(2) ?? '—'}×**`, fmt.us(r.cpuUs), baselineCpu(result.saturated), fmt.int(errors(result.saturated, i + 1))];
    });
    // The rate a server actually answered, as a share of the rate offered: below 0.97 it did not keep up.
    const held = (i) => Math.min(...result.equal.map((r) => r[i].rps / result.rate));
    const equalRows = entries.slice(1).map(({ name }, i) => {
      const r = ratios(result.equal, i + 1);
      return [name, list(r.cpu), `**${r.cpuMedian?.toFixed(2) ?? '—'}×**`, fmt.us(r.cpuUs), baselineCpu(result.equal), `${held(i + 1).toFixed(2)} / ${held(0).toFixed(2)}`, fmt.int(errors(result.equal, i + 1))];
    });
    return [
      `${result.pinned ? 'Servers on the last CPU, the load generator on the first (taskset).' : 'Not pinned to CPUs (one CPU, or no taskset): rounds vary more.'} ` +
        `Each server warmed for ${WARM_SECONDS} s first.`,
      '',
      '**Saturated** (as many requests as 50 connections get answered):',
      '',
      table(['server', `req/s vs ${baseline}, per round`, 'median', 'CPU vs baseline, per round', 'median', 'CPU µs/req', 'baseline CPU µs/req', 'non-2xx + errors'], saturatedRows, 'lrrrrrrr'),
      '',
      `**Equal rate** (${fmt.int(result.rate)} req/s offered to each, in bursts per second, ${Math.round(100 * EQUAL_SHARE)}% of the slowest one's saturated rate):`,
      '',
      table(['server', 'CPU vs baseline, per round', 'median', 'CPU µs/req', 'baseline CPU µs/req', 'rate held (server / baseline)', 'non-2xx + errors'], equalRows, 'lrrrrrr'),
    ].join('\n');
  } catch (error) {
    progress(`paired: failed: ${error.message}`);
    return `skipped: ${error.message}`;
  }
}

async function runMixed(skip, reference) {
  const kinds = [
    { kind: 'valid', expect: 200, headers: HEADERS, body: VALID },
    { kind: 'invalid body', expect: 400, headers: HEADERS, body: INVALID },
    { kind: 'duplicate-id', expect: 400, headers: { ...HEADERS, 'x-mock-scenario': 'duplicate-id' }, body: VALID },
    { kind: 'unauthorized', expect: 401, headers: { 'content-type': 'application/json' }, body: VALID },
  ];
  const seen = kinds.map(() => new Map());
  const requests = kinds.map((k, i) => ({
    method: 'POST',
    path: '/plants',
    headers: k.headers,
    body: k.body,
    onResponse: (status) => seen[i].set(status, (seen[i].get(status) ?? 0) + 1),
  }));
  const name = 'stub CLI, mixed';
  const r = await runCase(name, { ...node(CLI, '--port', '0', '--host', '127.0.0.1'), port: null, skip, probe: plantPost() }, async (server) => {
    // Warm up separately so the status tallies cover exactly the measured run.
    await load({ url: server.url, requests }, { ...LOAD, seconds: LOAD.warmupSeconds, warmupSeconds: 0 });
    seen.forEach((m) => m.clear());
    return load({ url: server.url, requests }, { ...LOAD, warmupSeconds: 0 });
  });
  const header = ['server', 'req/s', 'vs reference', 'p50 ms', 'p99 ms', 'unexpected', 'socket errors', 'statuses per request kind'];
  if (r.skipped) return table(header, [[name, skipped(r), '', '', '', '', '', '']], 'lrrrrrrl');
  const unexpected = kinds.reduce((sum, k, i) => sum + [...seen[i]].filter(([s]) => s !== k.expect).reduce((a, [, n]) => a + n, 0), 0);
  const breakdown = kinds.map((k, i) => `${k.kind}: ${[...seen[i]].map(([s, n]) => `${s}×${fmt.int(n)}`).join(' ') || 'none'}`).join('; ');
  if (unexpected) note(`mixed load: ${fmt.int(unexpected)} answers with an unexpected status (${breakdown}).`);
  return table(header, [[
    name, fmt.int(r.rps), fmt.ratio(r.rps, reference), fmt.latency(r.p50), fmt.latency(r.p99), fmt.int(unexpected),
    fmt.int(r.socketErrors), breakdown,
  ]], 'lrrrrrrl');
}

async function runScaling(skip, reference) {
  const rows = [];
  for (const count of [1, 10, 100, 1000]) {
    const name = `${count.toLocaleString('en-US')} operation${count === 1 ? '' : 's'}`;
    const loaded = count <= 100; // 1,000 is only timed to start: its load would not tell more than 100.
    let target = '/plants0';
    const r = await (async () => {
      if (skip) return { skipped: skip };
      const spec = await writeScaledSpec(SPEC, count, TMP);
      target = spec.target;
      return runCase(`stub CLI, ${name}`, { ...node(CLI, '--quiet', '--spec', spec.file, '--port', '0', '--host', '127.0.0.1'), port: null, probe: plantPost(target) }, async (server) => {
        await checkEcho(`stub CLI, ${name}`, server.url, target);
        if (count >= 10) await checkEcho(`stub CLI, ${name}, templated path`, server.url, '/plants3/42');
        if (!loaded) return {};
        return load({ url: server.url + target, method: 'POST', headers: HEADERS, body: VALID }, LOAD);
      });
    })();
    if (r.skipped) {
      rows.push([name, skipped(r), '', '', '', '', '', '', '']);
      continue;
    }
    rows.push([
      name, loaded ? target : `${target} (start-up only)`, fmt.int(r.rps), fmt.ratio(r.rps, reference), fmt.latency(r.p50), fmt.latency(r.p99),
      loaded ? fmt.int(r.non2xx + r.socketErrors) : '—', fmt.ms(r.startupMs), fmt.mb(r.rssKb),
    ]);
  }
  return table(['spec', 'path loaded', 'req/s', 'vs reference', 'p50 ms', 'p99 ms', 'errors', 'start-up ms', 'peak RSS MB'], rows, 'llrrrrrrr');
}

async function runBigDocument(cliMissing, prismMissing, reference, plantsRps) {
  const githubMissing = existsSync(GITHUB) ? null : '@octokit/openapi not installed';
  const header = ['server', 'start-up ms', 'RSS after start MB', 'GET /zen req/s', 'vs POST /plants', 'p99 ms', 'errors', 'peak RSS MB'];
  const cases = [
    { name: 'stub CLI, default logging', ...node(CLI, '--spec', GITHUB, '--port', '0', '--host', '127.0.0.1', '--no-watch'), skip: cliMissing ?? githubMissing },
    { name: 'Prism mock, default logging', prism: true, skip: prismMissing ?? githubMissing },
  ];
  const rows = [];
  for (const c of cases) {
    const port = c.prism ? await freePort() : null;
    const spawnSpec = c.prism ? node(PRISM, 'mock', GITHUB, '-p', String(port), '-h', '127.0.0.1') : c;
    let startRssKb = null;
    const r = await runCase(`${c.name}, GitHub`, { ...spawnSpec, port, skip: c.skip, probe: ZEN, timeoutMs: 90_000 }, async (server) => {
      startRssKb = currentRssKb(server.pid);
      return load({ url: server.url + '/zen', method: 'GET' }, LOAD);
    });
    if (r.skipped) {
      rows.push([c.name, skipped(r), '', '', '', '', '', '']);
      continue;
    }
    if (!c.prism && reference) note(`GitHub's GET /zen on the stub CLI: ${fmt.ratio(r.rps, reference)} of the bare node:http reference's POST /plants.`);
    if (!c.prism) {
      // One spawn is at the mercy of the machine's moment: four more, their median and best.
      const times = [];
      for (let i = 0; i < 4; i++) {
        const again = await runCase(`${c.name}, GitHub, start-up ${i + 2}`, { ...spawnSpec, port, probe: ZEN, timeoutMs: 90_000 }, async () => ({}));
        if (!again.skipped) times.push(again.startupMs);
      }
      times.push(r.startupMs);
      times.sort((a, b) => a - b);
      note(`GitHub's document on the stub CLI, spawn to first GET /zen over ${times.length} spawns: median ${fmt.ms(times[Math.floor(times.length / 2)])} ms, best ${fmt.ms(times[0])} ms.`);
    }
    rows.push([
      c.name, fmt.ms(r.startupMs), fmt.mb(startRssKb), fmt.int(r.rps), fmt.ratio(r.rps, plantsRps), fmt.latency(r.p99),
      fmt.int(r.non2xx + r.socketErrors), fmt.mb(r.rssKb),
    ]);
  }
  return table(header, rows, 'lrrrrrrr');
}

async function runStartupGrowth(skip) {
  const rows = [];
  const times = new Map();
  for (const count of [1000, 4000, 16000]) {
    const name = `${count.toLocaleString('en-US')} operations`;
    if (skip) {
      rows.push([name, `skipped: ${skip}`, '', '']);
      continue;
    }
    const spec = await writeScaledSpec(SPEC, count, TMP);
    let best = null;
    let rss = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await runCase(`stub CLI, start-up with ${name}`, { ...node(CLI, '--quiet', '--no-watch', '--spec', spec.file, '--port', '0', '--host', '127.0.0.1'), port: null, probe: plantPost(spec.target), timeoutMs: 120_000 }, async () => ({}));
      if (r.skipped) {
        best = null;
        rows.push([name, skipped(r), '', '']);
        break;
      }
      if (best === null || r.startupMs < best) [best, rss] = [r.startupMs, r.rssKb];
    }
    if (best === null) continue;
    times.set(count, best);
    rows.push([name, fmt.ms(best), times.has(1000) ? `${(best / times.get(1000)).toFixed(1)}×` : '—', fmt.mb(rss)]);
  }
  return table(['spec', 'start-up ms', 'vs 1,000 operations', 'peak RSS MB'], rows, 'lrrr');
}

async function runReloadPause(skip) {
  const header = ['spec', 'reload ms', 'requests during it', 'slowest answer ms', 'p99 answer ms', 'median answer ms', 'non-2xx'];
  if (skip) return table(header, [['4,000 operations', `skipped: ${skip}`, '', '', '', '', '']], 'lrrrrrr');
  const spec = await writeScaledSpec(SPEC, 4000, TMP);
  const r = await runCase('stub CLI, reload of 4,000 operations', { ...node(CLI, '--quiet', '--no-watch', '--spec', spec.file, '--port', '0', '--host', '127.0.0.1'), port: null, probe: plantPost('/plants0'), timeoutMs: 120_000 }, async (server) => {
    // The first admin request loads Express (src/http/server.ts), a pause of its own that every
    // admin request after it is spared: made here first, so the rows measure the reload.
    await request(server.url + '/__admin/warnings', { timeoutMs: 60_000 });
    const durations = [];
    let non2xx = 0;
    let reloading = true;
    const started = performance.now();
    const reload = request(server.url + '/__admin/reload', { method: 'POST', timeoutMs: 60_000 }).finally(() => (reloading = false));
    // Bounded: at most 60 s or 20,000 requests, one at a time.
    while (reloading && durations.length < 20_000 && performance.now() - started < 60_000) {
      const t0 = performance.now();
      const res = await request(server.url + '/plants0', { ...plantPost('/plants0'), timeoutMs: 60_000 });
      durations.push(performance.now() - t0);
      if (res.status < 200 || res.status >= 300) non2xx++;
    }
    await reload;
    return { reloadMs: performance.now() - started, durations, non2xx };
  });
  if (r.skipped) return table(header, [['4,000 operations', skipped(r), '', '', '', '', '']], 'lrrrrrr');
  const sorted = [...r.durations].sort((a, b) => a - b);
  const at = (fraction) => fmt.ms(sorted[Math.floor(sorted.length * fraction)] ?? null);
  return table(header, [[
    '4,000 operations', fmt.ms(r.reloadMs), fmt.int(sorted.length), fmt.ms(sorted.at(-1) ?? null), at(0.99), at(0.5), fmt.int(r.non2xx),
  ]], 'lrrrrrr');
}

/** The valid request must come back 200 with {name, tag} echoed; anything else goes into the notes. */
async function checkEcho(name, url, p) {
  const res = await request(url + p, plantPost(p));
  let body;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = res.body;
  }
  if (res.status !== 200 || body?.name !== 'Fern' || body?.tag !== 'indoor') {
    note(`${name}: POST ${p} (valid) answered ${res.status} ${res.body.slice(0, 200)}, expected 200 {"name":"Fern","tag":"indoor"}.`);
  }
}

/** The stub's documented error answers, checked once before its load. */
async function checkStubErrors(name, url) {
  const isError = (b, code) => (code === undefined ? Number.isInteger(b?.error) : b?.error === code) && typeof b?.message === 'string';
  const cases = [
    // [label, status, body check, what the body should be, request]
    ['invalid body', 400, (b) => isError(b, 400), '{"error":400,"message":...}', { headers: HEADERS, body: INVALID }],
    // The scenario's body is scripted (its own error code), so only the Error shape is checked.
    ['duplicate-id scenario', 400, (b) => isError(b), '{"error":<int>,"message":...}', { headers: { ...HEADERS, 'x-mock-scenario': 'duplicate-id' }, body: VALID }],
    ['no bearer', 401, () => true, '', { headers: { 'content-type': 'application/json' }, body: VALID }],
  ];
  for (const [label, status, bodyOk, shape, init] of cases) {
    const res = await request(url + '/plants', { method: 'POST', ...init });
    let body;
    try {
      body = JSON.parse(res.body);
    } catch {
      body = undefined;
    }
    if (res.status !== status || !bodyOk(body)) {
      note(`${name}: ${label} answered ${res.status} ${res.body.slice(0, 200)}, expected ${status} ${shape}.`);
    }
  }
}
