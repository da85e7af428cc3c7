// Paired rounds, for bench/run.js and bench/ab.js: servers started once, warmed, then loaded in
// turn round after round, so each round compares runs seconds apart and the median of the
// per-round ratios is what holds on a shared machine.
//
// Each server is loaded two ways, and both are reported:
//   - saturated: as many requests as 50 connections get answered. Servers then run at different
//     rates, and a slower server's load generator sits idle waiting more often, so the kernel's
//     work of waking it on each answer (charged to the server, inside the answer's writev) grows:
//     perf's on-CPU samples under sock_def_readable were 2.0 µs per POST /plants for the node:http
//     reference at 32k req/s and 5.2 µs for the stub at 24k, for the same one writev per answer.
//   - at an equal rate: every server gets the same requests per second (EQUAL_SHARE of the slowest
//     one's saturated rate). autocannon spends each second's share per connection as fast as the
//     answers come, then waits for the next second, so this is bursts at saturation with pauses
//     between them, not a steady rate: it compares servers doing the same number of requests in
//     the same time, and still favours the faster one, less than the saturated rounds do.
// With two or more CPUs and `taskset` (util-linux), the servers run on the last CPU and the load
// generator (this process) on the first: otherwise the scheduler moves them onto each other's
// core, and single rounds of the same server differed by up to 60%.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { load, startServer } from './lib.js';

/** The fraction of the slowest server's saturated req/s offered to every server in the equal-load rounds. */
export const EQUAL_SHARE = 0.6;

/**
 * Where the servers and the load generator run: the last and the first of the CPUs this process
 * may use (a container may allow a few of many), and that list to go back to. Null when they
 * cannot be kept apart: one CPU, no taskset, not Linux, or BENCH_PIN=0.
 */
export function pinning() {
  if (process.env.BENCH_PIN === '0') return null;
  let allowed;
  try {
    allowed = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  } catch {
    return null;
  }
  const ids = (allowed ?? '').split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Number.isInteger(from) && Number.isInteger(to) ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [];
  });
  if (ids.length < 2 || !pinProcess(allowed)) return null;
  return { server: String(ids.at(-1)), driver: String(ids[0]), all: allowed };
}

/** Sets this process's CPUs (every thread); false when taskset could not. */
function pinProcess(cpuList) {
  const run = spawnSync('taskset', ['-a', '-p', '-c', cpuList, String(process.pid)], { stdio: 'ignore' });
  return !run.error && run.status === 0;
}

/**
 * Runs the rounds. `entries`: [{ name, spawnSpec: { command, args }, probe, cwd }], the first the
 * baseline. Returns { pinned, rate, saturated, equal }, where saturated[round][server] and
 * equal[round][server] are lib.load's results.
 */
export async function pairedRounds(entries, { rounds, seconds, warmSeconds, connections = 50, progress = () => {} }) {
  let pin = pinning();
  if (pin && !pinProcess(pin.driver)) pin = null;
  const servers = [];
  try {
    for (const { name, spawnSpec, probe, cwd } of entries) {
      const spec = pin ? { command: 'taskset', args: ['-c', pin.server, spawnSpec.command, ...spawnSpec.args] } : spawnSpec;
      servers.push({ name, probe, server: await startServer({ ...spec, cwd, probe, timeoutMs: 90_000 }) });
    }
    const target = ({ server, probe }, extra = {}) => ({ url: server.url + probe.path, method: probe.method, headers: probe.headers, body: probe.body, ...extra });
    const once = (entry, extra, withCpu) => load(target(entry, extra), { seconds, warmupSeconds: 0, connections }, withCpu ? entry.server.pid : null);
    // Until V8's optimizing compiler is done: the stub has far more code to compile than the
    // reference, and its background threads' work counts as the server's CPU.
    for (const entry of servers) await load(target(entry), { seconds: warmSeconds, warmupSeconds: 0, connections });
    progress(`paired: ${rounds} rounds of ${servers.length} × ${seconds} s saturated${pin ? `, servers on CPU ${pin.server}, load on CPU ${pin.driver}` : ''}`);
    const saturated = [];
    for (let round = 0; round < rounds; round++) {
      const results = [];
      for (const entry of servers) results.push(await once(entry, {}, true));
      saturated.push(results);
    }
    const slowest = Math.min(...servers.map((_, i) => median(saturated.map((r) => r[i].rps))));
    const rate = Math.max(500, Math.floor((slowest * EQUAL_SHARE) / 500) * 500);
    progress(`paired: ${rounds} rounds of ${servers.length} × ${seconds} s at ${rate} req/s each`);
    const equal = [];
    for (let round = 0; round < rounds; round++) {
      const results = [];
      for (const entry of servers) results.push(await once(entry, { overallRate: rate }, true));
      equal.push(results);
    }
    return { pinned: pin !== null, rate, saturated, equal };
  } finally {
    for (const { server } of servers) await server.stop();
    if (pin) pinProcess(pin.all);
  }
}

/** The middle value (the upper one of an even count), ignoring what is not a finite number; null for none. */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null;
}

/**
 * Per server after the baseline: each round's ratio of the baseline's CPU per request to the
 * server's (1 = as cheap as the baseline), req/s ratios, and the medians.
 */
export function ratios(rounds, index) {
  const cpu = rounds.map((r) => r[0].cpuUsPerRequest / r[index].cpuUsPerRequest);
  const rps = rounds.map((r) => r[index].rps / r[0].rps);
  return { cpu, rps, cpuMedian: median(cpu), rpsMedian: median(rps), cpuUs: median(rounds.map((r) => r[index].cpuUsPerRequest)) };
}
