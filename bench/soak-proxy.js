// Soak, second part: --proxy with --record under the traffic issue 30 found breaking it. Clients
// start proxied downloads of a large answer and leave after a moment (each must cancel its request
// to the upstream: the upstream's open connections come back down), while others send distinct
// requests whose 50 KB answers are recorded (each file must stay within --record's bounds). The
// stub must answer without a 5xx and its memory must stay bounded. Run by bench/soak.js after the
// first part; prints a markdown table and returns whether every check passed.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The most a recorded file may take (src/proxy/record-fixtures.ts's MAX_FILE_BYTES), with room for YAML's own lines. */
const RECORD_FILE_LIMIT = 8 * 1024 * 1024 * 1.05;
/** RSS may grow this much over the run's first sample: the recorder's files are capped, nothing else is kept. */
const RSS_GROWTH_LIMIT_KB = 200 * 1024;

/** An upstream with a slow 64 MB download (/plants/1/photo) and 50 KB JSON answers (/plants/N). */
async function startUpstream() {
  const open = new Set();
  const chunk = Buffer.alloc(256 * 1024, 7);
  const server = createServer((req, res) => {
    if (req.url.endsWith('/photo')) {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(256 * chunk.length) });
      let sent = 0;
      const pump = () => {
        if (res.destroyed || sent >= 256) return res.end();
        sent++;
        res.write(chunk);
        setTimeout(pump, 20);
      };
      return pump();
    }
    const id = Number(req.url.split('/').pop()) || 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, name: `plant ${id}`, tag: 'x'.repeat(50 * 1024) }));
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, open, close: () => (server.closeAllConnections(), server.close()) };
}

function startProxyStub(upstreamUrl, recordDir) {
  return new Promise((resolve, reject) => {
    const args = ['dist/cli.js', '--spec', 'test/specs/plant-catalog.yaml', '--fixtures', 'none', '--port', '0', '--quiet', '--no-watch', '--proxy', upstreamUrl, '--record', recordDir];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr.resume();
    child.on('exit', (code) => reject(new Error(`the proxy stub exited (${code}) before listening`)));
    setTimeout(() => reject(new Error('the proxy stub did not start within 15 s')), 15_000).unref();
  });
}

function rssKb(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) || null;
  } catch {
    return null;
  }
}


/** Runs for `seconds`; returns { lines, ok }. */
export async function soakProxy(seconds) {
  const upstream = await startUpstream();
  const recordDir = mkdtempSync(path.join(tmpdir(), 'soak-record-'));
  const { child, url } = await startProxyStub(upstream.url, recordDir);
  const until = performance.now() + seconds * 1000;
  const startKb = rssKb(child.pid);
  let maxKb = startKb ?? 0;
  const sampler = setInterval(() => (maxKb = Math.max(maxKb, rssKb(child.pid) ?? 0)), 500);
  const counts = { abandoned: 0, recorded: 0, fiveXx: 0, wrong: 0 };
  const abandoner = async () => {
    while (performance.now() < until) {
      await fetch(`${url}/plants/1/photo`, { headers: { authorization: 'Bearer t' }, signal: AbortSignal.timeout(150) })
        .then(async (r) => (r.status >= 500 && counts.fiveXx++, await r.arrayBuffer()))
        .catch(() => undefined);
      counts.abandoned++;
    }
  };
  const recorder = async (offset) => {
    for (let id = offset; performance.now() < until; id += 4) {
      const status = await fetch(`${url}/plants/${id}`, { headers: { authorization: 'Bearer t' }, signal: AbortSignal.timeout(10_000) })
        .then(async (r) => (await r.arrayBuffer(), r.status))
        .catch(() => 'dropped');
      counts.recorded++;
      if (typeof status === 'number' && status >= 500) counts.fiveXx++;
      else if (status !== 200) counts.wrong++;
    }
  };
  await Promise.all([...Array.from({ length: 8 }, abandoner), ...[1, 2, 3, 4].map(recorder)]);
  clearInterval(sampler);
  // Every cancelled download's upstream connection is closed soon after its client left.
  for (let i = 0; i < 30 && upstream.open.size > 4; i++) await sleep(100);
  const openAfter = upstream.open.size;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const largestFile = Math.max(0, ...readdirSync(recordDir).map((name) => statSync(path.join(recordDir, name)).size));
  rmSync(recordDir, { recursive: true, force: true });
  upstream.close();
  const grew = startKb === null ? null : maxKb - startKb;
  const checks = [
    ['proxied downloads abandoned after 150 ms', String(counts.abandoned), ''],
    ['distinct 50 KB answers recorded', String(counts.recorded), counts.wrong === 0 ? 'ok' : `FAIL: ${counts.wrong} not 200`],
    ['5xx', String(counts.fiveXx), counts.fiveXx === 0 ? 'ok' : 'FAIL'],
    ['upstream connections still open after the clients left', String(openAfter), openAfter <= 4 ? 'ok (cancelled with their clients; kept-alive ones aside)' : 'FAIL: left streaming'],
    ['largest recorded file', `${(largestFile / 1024 / 1024).toFixed(1)} MB`, largestFile <= RECORD_FILE_LIMIT ? 'ok (within --record\'s 8 MiB per file)' : 'FAIL'],
    ['RSS growth over the run', grew === null ? '—' : `${(grew / 1024).toFixed(1)} MB`, grew === null ? 'not measured (no /proc)' : grew <= RSS_GROWTH_LIMIT_KB ? 'ok (bounded)' : 'FAIL: grew'],
  ];
  const lines = [`## Soak: ${seconds} s of --proxy --record with clients that leave`, '', '| measure | value | verdict |', '| :--- | ---: | :--- |', ...checks.map((row) => `| ${row.join(' | ')} |`)];
  return { lines, ok: checks.every((row) => !String(row[2]).startsWith('FAIL')) };
}
