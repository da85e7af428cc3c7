// Harness plumbing: spawn a server, time its start-up, load it, read its peak memory, kill it,
// and print markdown. Every child is tracked so that no server outlives the run, whatever happens.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

const live = new Set();

/** Kills every server still running, synchronously, so it also works from 'exit' and signal handlers. */
export function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

let cleanupInstalled = false;
/** A bench interrupted with Ctrl-C (or killed by a timeout wrapper) must not leave servers bound to ports. */
export function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      killAll();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** Asks the kernel for a free port, for servers (Prism) that cannot be told to pick one and report it. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** One HTTP request on a fresh connection (no agent), so probes never share sockets with the load. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 2000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Spawns a server and resolves once it has served `probe` with a 2xx. start-up time is measured
 * from just before spawn to that first good answer, polling every `pollMs`: "listening" alone is
 * not enough, a server that still compiles its spec on the first request is not ready.
 * If `port` is null the server must print `listening on http://...` as its first stdout line.
 * stdout is always drained (a full pipe would block a logging server) and its lines are counted.
 */
export async function startServer({ command, args, cwd, env, port = null, probe, pollMs = 5, timeoutMs = 30_000 }) {
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);

  let lines = 0;
  let head = '';
  let stderrTail = '';
  let announced;
  const urlFromStdout = new Promise((resolve) => (announced = resolve));
  child.stdout.on('data', (chunk) => {
    // Count newlines without decoding: this runs in the same process as the load generator.
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (head.length < 4096) {
      head += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(head);
      if (match) announced(match[1].replace(/\/$/, ''));
    }
  });
  child.stderr.on('data', (chunk) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => {
    live.delete(child);
    resolve({ code, signal });
  }));
  const server = {
    child,
    pid: child.pid,
    get logLines() {
      return lines;
    },
    stop: () => stopChild(child, exited),
  };

  try {
    const deadline = startedAt + timeoutMs;
    const died = exited.then(({ code, signal }) => {
      throw new Error(`exited (${signal ?? `code ${code}`}) before serving: ${lastLines(stderrTail || head)}`);
    });
    died.catch(() => {}); // only observed through the races below
    const url = port !== null
      ? `http://127.0.0.1:${port}`
      // Unref'd: a pending timer must not keep the harness alive after the last case.
      : await Promise.race([urlFromStdout, died, sleep(timeoutMs, undefined, { ref: false }).then(() => {
        throw new Error(`no "listening on" line within ${timeoutMs} ms: ${lastLines(stderrTail || head)}`);
      })]);
    let last = 'no attempt';
    for (;;) {
      const attempt = await Promise.race([
        request(url + probe.path, { ...probe, timeoutMs: 1000 }).then((r) => r, (e) => ({ error: e })),
        died,
      ]);
      if (attempt.status >= 200 && attempt.status < 300) break;
      last = attempt.error ? attempt.error.code ?? attempt.error.message : `HTTP ${attempt.status} ${attempt.body.slice(0, 200)}`;
      if (performance.now() > deadline) throw new Error(`not serving ${probe.path} after ${timeoutMs} ms (last: ${last})`);
      await sleep(pollMs);
    }
    server.url = url;
    server.startupMs = performance.now() - startedAt;
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The error line of a crash (a stack trace ends in noise), else the last lines of output. */
function lastLines(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const error = lines.find((l) => /^(\w*Error|Error)\b/.test(l));
  return (error ?? lines.slice(-3).join(' / ')).slice(0, 300) || '(no output)';
}

async function stopChild(child, exited) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const gone = await Promise.race([exited.then(() => true), sleep(3000, undefined, { ref: false }).then(() => false)]);
    if (!gone) child.kill('SIGKILL');
  }
  await exited;
}

/** Peak resident set (VmHWM, kB) of a process plus its descendants, read while they are still alive. */
export function peakRssKb(pid) {
  let total = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (match) total += Number(match[1]);
    } catch {
      // exited meanwhile
    }
  }
  return total || null;
}

/**
 * CPU time (ms, user + system) one process has used so far, from /proc/PID/stat (fields 14 and
 * 15, in clock ticks of 10 ms on Linux). Divided by the requests served in between, it is the
 * server's own cost per request: unlike req/s, it does not depend on how much of the second core
 * the load generator took.
 */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Resident set right now (VmRSS, kB) of one process. */
export function currentRssKb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function descendants(root) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) comes after the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // raced with an exit
    }
  }
  const found = [];
  let frontier = [root];
  while (frontier.length) {
    const next = [];
    for (const [pid, ppid] of parentOf) if (frontier.includes(ppid)) next.push(pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/**
 * A warm-up run (discarded: JIT, connection set-up, lazy compilation) then the measured run.
 * Returns req/s over the measured run, latency percentiles (ms) and error counts, and with the
 * server's `pid` its CPU time per request (µs).
 */
export async function load(options, { seconds, warmupSeconds, connections }, pid = null) {
  const base = { connections, ...options };
  const warm = warmupSeconds > 0 ? await autocannon({ ...base, duration: warmupSeconds }) : null;
  const cpuBefore = pid === null ? null : cpuMs(pid);
  const r = await autocannon({ ...base, duration: seconds });
  const cpuAfter = pid === null ? null : cpuMs(pid);
  return {
    rps: r.requests.total / r.duration,
    cpuUsPerRequest: cpuBefore === null || cpuAfter === null || r.requests.total === 0 ? null : ((cpuAfter - cpuBefore) * 1000) / r.requests.total,
    total: r.requests.total,
    warmupTotal: warm ? warm.requests.total : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    socketErrors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** A GitHub-flavoured markdown table; `align` is a string of l/r per column. */
export function table(header, rows, align) {
  const sep = [...align].map((a) => (a === 'r' ? '---:' : ':---'));
  return [header, sep, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const fmt = {
  int: (n) => (n == null ? '—' : Math.round(n).toLocaleString('en-US')),
  ms: (n) => (n == null ? '—' : n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')),
  us: (n) => (n == null ? '—' : String(Math.round(n))),
  // autocannon's latency histogram has 1 ms resolution: 0 means "under a millisecond".
  latency: (n) => (n == null ? '—' : n < 1 ? '<1' : String(Math.round(n))),
  mb: (kb) => (kb == null ? '—' : (kb / 1024).toFixed(1)),
  ratio: (n, ref) => (n == null || !ref ? '—' : `${(n / ref).toFixed(2)}×`),
};
