// A rolling restart loses nothing: three CLI instances share one real redis-server behind a small
// round-robin balancer (written here) that sends requests only to instances whose
// GET /__admin/ready answers 200. A steady, bounded load of creates and reads runs while each
// instance in turn gets SIGTERM and is started again on its port. Then: no request failed, every
// acknowledged create is listed, and no id is listed twice.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';
import { freePort } from './helpers/ports.js';
import { pollUntil } from './helpers/poll.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-store-full.yaml');
const NO_FIXTURES = join(import.meta.dirname, 'specs', 'no-fixtures');
/** Long enough for the balancer to see a 503 (it polls every 50 ms) on a busy machine. */
const DRAIN_MS = 2_000;
const POLL_MS = 50;
/** The load's bounds: clients at once, and requests in all. */
const CLIENTS = 4;
const MAX_REQUESTS = 8_000;

/** Round robin over the backends whose readiness answered 200 at the last poll; no retries, so a failure shows. */
class Balancer {
  readonly ready: boolean[];
  url = '';
  private next = 0;
  private server: Server | null = null;
  private poller: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(private readonly ports: number[]) {
    this.ready = ports.map(() => false);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.poller = setInterval(() => void this.poll(), POLL_MS);
  }

  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    await Promise.all(this.ports.map(async (port, at) => {
      this.ready[at] = await readiness(port);
    }));
    this.polling = false;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const candidates = this.ports.map((_, at) => at).filter((at) => this.ready[at]);
    if (candidates.length === 0) return void res.writeHead(503, { 'x-balancer': 'no backend ready' }).end();
    const at = candidates[this.next++ % candidates.length];
    // A connection per request (no keep-alive), as many balancers do towards a backend.
    const upstream = httpRequest({ host: '127.0.0.1', port: this.ports[at], method: req.method, path: req.url, headers: req.headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!res.headersSent) res.writeHead(502, { 'x-balancer': `backend ${at}: ${error.code ?? error.message}` });
      res.end();
    });
    req.pipe(upstream);
  }
}

/** Whether GET /__admin/ready answers 200 within a second. */
function readiness(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = httpRequest({ host: '127.0.0.1', port, path: '/__admin/ready', agent: false, timeout: 1_000 }, (answer) => {
      answer.resume();
      resolve(answer.statusCode === 200);
    });
    probe.on('timeout', () => probe.destroy());
    probe.on('error', () => resolve(false));
    probe.end();
  });
}

describe.skipIf(!haveRedis)('a rolling restart of three instances on one Redis', () => {
  let redis: RunningRedis;
  const instances: StartedCli[] = [];
  let ports: number[];
  let balancer: Balancer;

  const start = (port: number) => startCli(['--port', String(port), '--no-watch', '--quiet', '--spec', SPEC, '--fixtures', NO_FIXTURES,
    '--stateful', '--state-store', redis.url, '--drain-ms', String(DRAIN_MS)]);

  beforeAll(async () => {
    redis = await startRedis();
    ports = [await freePort(), await freePort(), await freePort()];
    for (const port of ports) instances.push(await start(port));
    balancer = new Balancer(ports);
    await balancer.start();
  }, 30_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(instances.map((cli) => cli.stop('SIGKILL')));
    await redis?.stop();
  });

  it('answers every request, lists every acknowledged create once, and loses nothing', async () => {
    const everyReady = () => pollUntil(async () => balancer.ready.every(Boolean), (all) => all, 10_000, POLL_MS);
    expect(await everyReady()).toBe(true);

    const failures: string[] = [];
    const acknowledged: number[] = [];
    let sent = 0;
    let nextId = 1;
    let restarting = true;
    // Each client: create a plant, read it back through the balancer (whichever instance serves it).
    const client = async () => {
      while (restarting && sent < MAX_REQUESTS) {
        const id = nextId++;
        sent += 2;
        const created = await request(`${balancer.url}/plants`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ id, name: `Plant ${id}` }) }).catch((error: Error) => error);
        if (created instanceof Error || created.status !== 200) {
          failures.push(`POST /plants id ${id}: ${created instanceof Error ? created.message : `${created.status} ${created.headers.get('x-balancer') ?? created.text}`}`);
          continue;
        }
        acknowledged.push(id);
        const read = await request(`${balancer.url}/plants/${id}`, { headers: JSON_HEADERS }).catch((error: Error) => error);
        if (read instanceof Error || read.status !== 200 || read.json?.id !== id) {
          failures.push(`GET /plants/${id}: ${read instanceof Error ? read.message : `${read.status} ${read.headers.get('x-balancer') ?? read.text}`}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, client));

    const stops: Array<number | null> = [];
    for (let at = 0; at < instances.length; at++) {
      // Let the load run on every instance before each restart (counted in requests, not time).
      const before = sent;
      await pollUntil(async () => sent, (count) => count >= before + 100 || count >= MAX_REQUESTS, 20_000, 10);
      const stopped = await instances[at].stop('SIGTERM', DRAIN_MS + 10_000);
      stops.push(stopped.code);
      instances[at] = await start(ports[at]);
      expect(await pollUntil(async () => balancer.ready[at], (ready) => ready, 10_000, POLL_MS)).toBe(true);
    }
    const after = sent;
    await pollUntil(async () => sent, (count) => count >= after + 100 || count >= MAX_REQUESTS, 20_000, 10);
    restarting = false;
    await load;

    expect(stops).toEqual([0, 0, 0]);
    expect(failures).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(300);
    const listed = await request(`${balancer.url}/plants`, { headers: JSON_HEADERS });
    expect(listed.status).toBe(200);
    const ids = (listed.json as Array<{ id: number }>).map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
  }, 90_000);
});
