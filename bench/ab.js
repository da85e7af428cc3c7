// A/B of stub builds against the node:http reference, for work on the hot path: the bench's
// paired table (bench/run.js) with any number of builds: every server started once and warmed
// for 1 s, then loaded in turn with POST /plants for ROUNDS rounds; server CPU per request from
// /proc, each build's ratio to the reference of the same round, medians of rounds. On a shared
// machine single rounds swing by ±30%; the same-round ratio and the median are what hold.
// Usage: node bench/ab.js ROUNDS SECONDS name=DIR[,extra-arg...] [name=DIR ...]
//   DIR holds a built stub (DIR/dist/cli.js, with openapi.yaml beside it), e.g. a worktree.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { installCleanup, killAll, load, startServer } from './lib.js';

const [rounds, seconds, ...variants] = process.argv.slice(2);
if (!rounds || !seconds || variants.length === 0) {
  console.error('usage: node bench/ab.js ROUNDS SECONDS name=DIR[,extra-arg...] [name=DIR ...]');
  process.exit(2);
}
const HEADERS = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const VALID = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const probe = { method: 'POST', path: '/plants', headers: HEADERS, body: VALID };
const reference = fileURLToPath(new URL('./server-reference.js', import.meta.url));
const servers = [
  ['reference', [reference, '0'], process.cwd()],
  ...variants.map((v) => {
    const [name, rest] = v.split('=');
    const [dir, ...extra] = rest.split(',');
    return [name, [`${dir}/dist/cli.js`, '--port', '0', '--host', '127.0.0.1', '--no-watch', ...extra], dir];
  }),
];

installCleanup();
const results = new Map(servers.map(([name]) => [name, []]));
const loads = [loadavg()[0]];
try {
  // As the bench's paired table does: every server started once and warmed, then loaded in turn,
  // so each round's ratio compares runs seconds apart, and later rounds are steady state.
  const running = [];
  for (const [name, args, cwd] of servers) running.push({ name, server: await startServer({ command: process.execPath, args, cwd, probe }) });
  const target = (server) => ({ url: server.url + '/plants', method: 'POST', headers: HEADERS, body: VALID });
  for (const { server } of running) await load(target(server), { seconds: 1, warmupSeconds: 0, connections: 50 });
  for (let r = 0; r < Number(rounds); r++) {
    for (const { name, server } of running) {
      const m = await load(target(server), { seconds: Number(seconds), warmupSeconds: 0, connections: 50 }, server.pid);
      results.get(name).push({ rps: m.rps, cpu: m.cpuUsPerRequest });
    }
    loads.push(loadavg()[0]);
  }
  for (const { server } of running) await server.stop();
} finally {
  killAll();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ref = results.get('reference');
console.log(`load average (1 min) at start and after each round: ${loads.map((l) => l.toFixed(2)).join(' ')}`);
for (const [name, rs] of results) {
  const cpuRatios = rs.map((x, i) => ref[i].cpu / x.cpu);
  const rpsRatios = rs.map((x, i) => x.rps / ref[i].rps);
  console.log(`${name.padEnd(12)} CPU µs/req ${rs.map((x) => x.cpu?.toFixed(1)).join(' ')}` +
    `  | eff by CPU median ${median(cpuRatios).toFixed(3)} (rounds ${cpuRatios.map((x) => x.toFixed(2)).join(' ')})` +
    `  | req/s ratio median ${median(rpsRatios).toFixed(3)}`);
}
