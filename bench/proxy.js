// Benchmark section for --proxy: POST /plants sent straight to an upstream (the bare node:http
// reference) and through the stub proxying to that same upstream, one request at a time so each
// latency is a request's own (autocannon's 1 ms resolution would read every one as "<1"). The
// two are measured in alternating rounds; the proxy's added latency is the difference of their
// percentiles, and its CPU per request is the stub process's own, read from /proc.
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuMs, fmt, startServer, table } from './lib.js';

/** Requests per round per target: enough for a stable p99, bounded so a round stays a few seconds. */
const REQUESTS = 2_000;
const ROUNDS = 3;

/** `paths`: { root, bench, cli, spec }; `skip`: why the section cannot run, or null. */
export async function runProxyBench({ root, bench, cli }, skip, progress) {
  if (skip) return `skipped: ${skip}`;
  let upstream;
  let proxy;
  try {
    const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
    const body = JSON.stringify({ id: 1, name: 'Fern', tag: 'indoor' });
    const probe = { method: 'POST', path: '/plants', headers, body };
    upstream = await startServer({ command: process.execPath, args: [path.join(bench, 'server-reference.js'), '0'], cwd: root, probe });
    proxy = await startServer({ command: process.execPath, args: [cli, '--quiet', '--no-watch', '--port', '0', '--host', '127.0.0.1', '--proxy', upstream.url], cwd: root, probe });
    progress(`proxy: ${ROUNDS} rounds of ${REQUESTS} sequential POST /plants, upstream alone and through the stub`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const direct = [];
    const proxied = [];
    let cpu = 0;
    // A discarded round first: JIT, connections, the validators compiled on first use.
    await sequential(upstream.url + '/plants', { method: 'POST', headers, agent }, body);
    await sequential(proxy.url + '/plants', { method: 'POST', headers, agent }, body);
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(...await sequential(upstream.url + '/plants', { method: 'POST', headers, agent }, body));
      const before = cpuMs(proxy.pid);
      proxied.push(...await sequential(proxy.url + '/plants', { method: 'POST', headers, agent }, body));
      cpu += cpuMs(proxy.pid) - before;
    }
    agent.destroy();
    const p = (values, q) => values.slice().sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
    const row = (name, values) => [name, p(values, 0.5).toFixed(3), p(values, 0.99).toFixed(3)];
    return [
      table(['POST /plants, one at a time', 'p50 ms', 'p99 ms'], [row('the upstream alone (node:http reference)', direct), row('through the stub --proxy', proxied)], 'lrr'),
      '',
      `Added by the proxy: **${(p(proxied, 0.5) - p(direct, 0.5)).toFixed(3)} ms at p50, ${(p(proxied, 0.99) - p(direct, 0.99)).toFixed(3)} ms at p99**; ` +
        `the stub's CPU per proxied request: **${fmt.us((cpu * 1000) / (ROUNDS * REQUESTS))} µs** (request and answer checked, forwarded, journaled).`,
    ].join('\n');
  } catch (error) {
    progress(`proxy: failed: ${error.message}`);
    return `skipped: ${error.message}`;
  } finally {
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
