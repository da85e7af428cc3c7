// On-CPU profile of one server under the bench's POST /plants load, for work on the hot path.
// `perf record -e cpu-clock` counts only time on a CPU (all threads, kernel included), unlike
// --cpu-prof, whose wall-clock samples pile onto a system call whenever the process is
// descheduled. Prints samples per 1,000 requests (at 1 kHz: ms per 1,000 requests, i.e. µs per
// request) by area and by symbol, so two servers profiled one after the other compare directly.
// Needs `perf` and the right to attach to a process (root, or perf_event_paranoid <= 1).
// Usage: node bench/perf-profile.js [--warm S] [--seconds S] [--top N] SERVER.js [args...]
//   e.g. node bench/perf-profile.js dist/cli.js --port 0 --host 127.0.0.1 --no-watch
//        node bench/perf-profile.js bench/server-reference.js 0
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installCleanup, killAll, load, startServer } from './lib.js';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = argv.splice(at, 2);
  return Number(value);
};
const warm = option('--warm', 8);
const seconds = option('--seconds', 5);
const top = option('--top', 45);
if (argv.length === 0) {
  console.error('usage: node bench/perf-profile.js [--warm S] [--seconds S] [--top N] SERVER.js [args...]');
  process.exit(2);
}
const HEADERS = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
const VALID = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
const target = { method: 'POST', headers: HEADERS, body: VALID };
const HZ = 1000;

installCleanup();
const dir = mkdtempSync(join(tmpdir(), 'perf-profile-'));
const data = join(dir, 'perf.data');
try {
  const server = await startServer({ command: process.execPath, args: ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'v8.log')}`, ...argv], probe: { ...target, path: '/plants' } });
  // Warm until the optimizing compiler is done: on a busy machine its background threads take a
  // large share for the first seconds.
  await load({ ...target, url: server.url + '/plants' }, { seconds: warm, warmupSeconds: 0, connections: 50 });
  const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', String(HZ), '-g', '-o', data, '-p', String(server.pid)], { stdio: ['ignore', 'inherit', 'inherit'] });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const m = await load({ ...target, url: server.url + '/plants' }, { seconds, warmupSeconds: 0, connections: 50 }, server.pid);
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
  await server.stop();
  const report = spawnSync('perf', ['report', '-i', data, '--no-children', '--sort', 'dso,sym', '-F', 'sample,dso,sym', '--stdio', '-g', 'none', '--field-separator', '|'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const rows = [];
  for (const line of report.stdout.split('\n')) {
    const match = /^\s*(\d+)\s*\|([^|]*)\|\[(.)\]\s+(.*)$/.exec(line);
    if (match) rows.push({ samples: Number(match[1]), dso: match[2].trim(), kind: match[3], sym: match[4].trim() });
  }
  rows.sort((a, b) => b.samples - a.samples);
  const perKilo = (samples) => ((samples * 1000) / m.total * (1000 / HZ)).toFixed(1);
  const total = rows.reduce((sum, r) => sum + r.samples, 0);
  const areas = new Map();
  for (const r of rows) {
    const area = r.kind === 'k' ? 'kernel' : r.dso.startsWith('[JIT]') ? 'JIT code (JS)' : r.dso.includes('node') ? 'node binary (V8, runtime)' : r.dso.includes('libc') ? 'libc' : r.dso;
    areas.set(area, (areas.get(area) ?? 0) + r.samples);
  }
  console.log(`${argv.join(' ')}: ${m.total} requests in ${seconds} s (${Math.round(m.rps)} req/s), server CPU ${m.cpuUsPerRequest?.toFixed(1)} µs/req from /proc`);
  console.log(`on-CPU samples: ${total}, i.e. ${perKilo(total)} µs per request`);
  for (const [area, samples] of [...areas].sort((a, b) => b[1] - a[1])) console.log(`  ${perKilo(samples).padStart(7)}  ${area}`);
  console.log(`top symbols (µs per request, self):`);
  for (const r of rows.slice(0, top)) console.log(`  ${perKilo(r.samples).padStart(7)}  ${r.sym.slice(0, 110)}  [${r.dso}]`);
} finally {
  killAll();
  if (process.env.KEEP_PERF_DATA) console.log(`perf data kept in ${data}`);
  else rmSync(dir, { recursive: true, force: true });
}
