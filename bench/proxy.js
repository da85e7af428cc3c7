// Benchmark section for --proxy: POST /plants sent straight to an upstream (the bare node:http
// reference), through the stub proxying to that same upstream, and through Prism's `prism proxy`
// (which also validates both sides) for comparison, one request at a time so each
// latency is a request's own (autocannon's 1 ms resolution would read every one as "<1"). The
// two are measured in alternating rounds; the proxy's added latency is the difference of their
// percentiles, and its CPU per request is the stub process's own, read from /proc.
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs, fmt, freePort, startServer, table } from './lib.js';

/** Requests per round per target: enough for a stable p99, bounded so a round stays a few seconds. */
const REQUESTS = 2_000;
const ROUNDS = 3;

/** `paths`: { root, bench, cli, spec, prism }; `skip`: why the section cannot run, or null; `prismSkip`: why Prism's row cannot. */
export async function runProxyBench({ root, bench, cli, spec, prism }, skip, prismSkip, progress) {
  if (skip) return `skipped: ${skip}`;
  let upstream;
  let proxy;
  let prismProxy;
  try {
    const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
    const body = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
    const probe = { method: 'POST', path: '/plants', headers, body };
    upstream = await startServer({ command: process.execPath, args: [path.join(bench, 'server-reference.js'), '0'], cwd: root, probe });
    proxy = await startServer({ command: process.execPath, args: [cli, '--quiet', '--no-watch', '--port', '0', '--host', '127.0.0.1', '--proxy', upstream.url], cwd: root, probe });
    if (!prismSkip) {
      const port = await freePort();
      prismProxy = await startServer({ command: process.execPath, args: [prism, 'proxy', spec, upstream.url, '-p', String(port), '-h', '127.0.0.1', '--errors', 'false'], cwd: root, port, probe, timeoutMs: 60_000 })
        .catch((error) => {
          progress(`proxy: Prism's proxy did not start: ${error.message}`);
          return undefined;
        });
    }
    const targets = [
      { name: 'the upstream alone (node:http reference)', server: upstream, times: [], cpu: 0 },
      { name: 'through the stub --proxy', server: proxy, times: [], cpu: 0 },
      ...(prismProxy ? [{ name: 'through Prism\'s proxy (prism proxy)', server: prismProxy, times: [], cpu: 0 }] : []),
    ];
    progress(`proxy: ${ROUNDS} rounds of ${REQUESTS} sequential POST /plants to each of ${targets.length}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (server) => sequential(server.url + '/plants', { method: 'POST', headers, agent }, body);
    // A discarded round first: JIT, connections, the validators compiled on first use.
    for (const { server } of targets) await send(server);
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const before = cpuMs(target.server.pid);
        target.times.push(...await send(target.server));
        target.cpu += cpuMs(target.server.pid) - before;
      }
    }
    agent.destroy();
    const p = (values, q) => values.slice().sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
    const [direct, ...proxies] = targets;
    const rows = targets.map(({ name, times, cpu }, i) => [
      name, p(times, 0.5).toFixed(3), p(times, 0.99).toFixed(3),
      i === 0 ? '—' : (p(times, 0.5) - p(direct.times, 0.5)).toFixed(3), i === 0 ? '—' : (p(times, 0.99) - p(direct.times, 0.99)).toFixed(3),
      fmt.us((cpu * 1000) / (ROUNDS * REQUESTS)),
    ]);
    const [stub] = proxies;
    return [
      table(['POST /plants, one at a time', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms', 'CPU µs/req (that process)'], rows, 'lrrrrr'),
      '',
      `Added by the stub's proxy: **${(p(stub.times, 0.5) - p(direct.times, 0.5)).toFixed(3)} ms at p50, ${(p(stub.times, 0.99) - p(direct.times, 0.99)).toFixed(3)} ms at p99**; ` +
        `its CPU per proxied request: **${fmt.us((stub.cpu * 1000) / (ROUNDS * REQUESTS))} µs** (request and answer checked, forwarded, journaled).` +
        (prismSkip ? ` Prism's row skipped: ${prismSkip}.` : prismProxy ? '' : ' Prism\'s proxy did not start (see the progress lines).'),
    ].join('\n');
  } catch (error) {
    progress(`proxy: failed: ${error.message}`);
    return `skipped: ${error.message}`;
  } finally {
    await prismProxy?.stop();
    await proxy?.stop();
    await upstream?.stop();
  }
}

/** Milliseconds per request, REQUESTS of them one after another; a non-2xx answer stops the run. */
async function sequential(url, options, body) {
  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const status = await new Promise((resolve, reject) => {
      const req = http.request(url, options, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
      req.on('error', reject);
      req.end(body);
    });
    if (status < 200 || status > 299) throw new Error(`${url} answered ${status}`);
    times.push(performance.now() - started);
  }
  return times;
}
