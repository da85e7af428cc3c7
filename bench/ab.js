// A/B of stub builds against the node:http reference, for work on the hot path: the bench's
// paired rounds (bench/paired.js) with any number of builds: every server started once and warmed,
// then loaded in turn with POST /plants for ROUNDS rounds saturated and ROUNDS rounds at an equal
// rate; server CPU per request from /proc, each build's ratio to the reference of the same round,
// medians of rounds. Single rounds swing on a shared machine; the same-round ratio and the median
// are what hold. BENCH_WARM_SECONDS (default 5) sets the warm-up, BENCH_PIN=0 turns CPU pinning off.
// Usage: node bench/ab.js ROUNDS SECONDS name=DIR[,extra-arg...] [name=DIR ...]
//   DIR holds a built stub (DIR/dist/cli.js, with openapi.yaml beside it), e.g. a worktree.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { installCleanup, killAll } from './lib.js';
import { pairedRounds, ratios } from './paired.js';

const [rounds, seconds, ...variants] = process.argv.slice(2);
if (!rounds || !seconds || variants.length === 0) {
  console.error('usage: node bench/ab.js ROUNDS SECONDS name=DIR[,extra-arg...] [name=DIR ...]');
  process.exit(2);
}
const HEADERS = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const VALID = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const probe = { method: 'POST', path: '/plants', headers: HEADERS, body: VALID };
const reference = fileURLToPath(new URL('./server-reference.js', import.meta.url));
const entries = [
  { name: 'reference', spawnSpec: { command: process.execPath, args: [reference, '0'] }, probe, cwd: process.cwd() },
  ...variants.map((v) => {
    const [name, rest] = v.split('=');
    const [dir, ...extra] = rest.split(',');
    return { name, spawnSpec: { command: process.execPath, args: [`${dir}/dist/cli.js`, '--port', '0', '--host', '127.0.0.1', '--no-watch', ...extra] }, probe, cwd: dir };
  }),
];

installCleanup();
const loadAtStart = loadavg()[0];
let result;
try {
  result = await pairedRounds(entries, { rounds: Number(rounds), seconds: Number(seconds), warmSeconds: Number(process.env.BENCH_WARM_SECONDS ?? 5), progress: (t) => console.error(t) });
} finally {
  killAll();
}

console.log(`load average (1 min) at start ${loadAtStart.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}; ${result.pinned ? 'servers and load generator pinned to separate CPUs' : 'not pinned'}`);
const show = (label, table) => {
  console.log(label);
  entries.forEach(({ name }, i) => {
    const r = ratios(table, i);
    const cpu = table.map((round) => round[i].cpuUsPerRequest?.toFixed(1) ?? '—').join(' ');
    const rps = table.map((round) => Math.round(round[i].rps)).join(' ');
    const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
    console.log(`  ${name.padEnd(12)} CPU µs/req ${cpu}  | eff by CPU median ${fixed(r.cpuMedian, 3)} (rounds ${r.cpu.map((x) => fixed(x, 2)).join(' ')})  | req/s ${rps}, ratio median ${fixed(r.rpsMedian, 3)}`);
  });
};
show('saturated:', result.saturated);
show(`equal load, ${result.rate} req/s offered to each:`, result.equal);
