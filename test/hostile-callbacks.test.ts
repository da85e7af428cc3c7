// Hostile callbacks: a receiver that answers with a body without end, a
// callback aimed at the stub's own subscription operation, and callback URLs of any scheme or
// host. The stub reads at most what it records, ends a chain of its own deliveries at once, and
// follows only http(s) URLs on the hosts it allows, recording each refusal with its reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { runCli, startCli } from './helpers/cli.js';

const SPECS = join(import.meta.dirname, 'specs');
const NO_FIXTURES = join(SPECS, 'no-fixtures');
/** What the endless receiver sends at most, so a test of a stub that reads it all still ends. */
const ENDLESS_CAP = 64 * 1024 * 1024;

interface Outcome {
  kind: string;
  name: string;
  target: string | null;
  status: number | null;
  attempts: number;
  error?: string;
}

/** The stub's delivery outcomes once there are `count` of them (waited for, bounded in count). */
async function outcomes(stub: RunningStub, count: number): Promise<Outcome[]> {
  let listed: Outcome[] = [];
  for (let i = 0; i < 100; i++) {
    listed = (await request(`${stub.url}/__admin/webhooks`)).json.deliveries;
    if (listed.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return listed;
}

function subscribe(stub: RunningStub, callbackUrl: string) {
  return request(`${stub.url}/subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl, topic: 'ferns' }) });
}

/** Answers 200 and streams a body until the caller hangs up (or ENDLESS_CAP is out); counts what it wrote. */
class EndlessReceiver {
  written = 0;
  private server: Server | null = null;
  url = '';
  private hungUp: Promise<void> | null = null;

  async start(): Promise<void> {
    let hangUp = () => {};
    this.hungUp = new Promise((resolve) => (hangUp = resolve));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    this.server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const pump = () => {
        while (this.written < ENDLESS_CAP && !res.destroyed) {
          this.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', hangUp);
      pump();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once the stub has hung up (or taken everything). */
  done(): Promise<void> {
    return this.hungUp!;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('a callback receiver that answers with a body without end', () => {
  const receiver = new EndlessReceiver();
  let stub: RunningStub;

  beforeAll(async () => {
    await receiver.start();
    stub = await startStub({ spec: join(SPECS, 'subscriptions-3.0.yaml'), fixtures: NO_FIXTURES, port: 0, watch: false });
  });

  afterAll(async () => {
    await stub?.close();
    await receiver.stop();
  });

  it('is read no further than the stub records, then the connection is closed; the delivery counts as made', async () => {
    expect((await subscribe(stub, `${receiver.url}/events`)).status).toBe(201);
    await receiver.done();
    // What the stub read, plus what the sockets' buffers took: far below what the receiver would send.
    expect(receiver.written).toBeLessThan(ENDLESS_CAP / 4);
    expect(await outcomes(stub, 1)).toEqual([expect.objectContaining({ kind: 'callback', name: 'onEvent', status: 200, attempts: 1 })]);
  });
});

describe('a callback aimed at the stub’s own subscription operation', () => {
  let stub: RunningStub;
  const logged: string[] = [];

  beforeAll(async () => {
    stub = await startStub({ spec: join(SPECS, 'relay.yaml'), fixtures: NO_FIXTURES, port: 0, watch: false, log: (line) => void logged.push(line) });
  });

  afterAll(async () => {
    await stub?.close();
  });

  it('is made once; what that call triggers is recorded as the end of the chain, not sent', async () => {
    expect((await subscribe(stub, `${stub.url}/subscriptions`)).status).toBe(201);
    // The call back is answered (and its own delivery refused) before its outcome is recorded.
    const [ended, sent] = await outcomes(stub, 2);
    expect(sent).toMatchObject({ kind: 'callback', name: 'onEvent', target: `${stub.url}/subscriptions`, status: 201, attempts: 1 });
    expect(ended).toMatchObject({
      kind: 'callback', name: 'onEvent', status: null, attempts: 0,
      error: 'not sent: the request that triggered it was itself a delivery (it carried X-Mock-Delivery), so the chain ends here',
    });
    // Settled: a marker request after the chain's end is answered, and nothing else was sent.
    expect((await request(`${stub.url}/__admin/requests?path=/subscriptions`)).json.requests.map((entry: { headers: Record<string, string> }) => entry.headers['x-mock-delivery'] ?? 'client'))
      .toEqual(['client', 'plant-store-stub onEvent']);
    expect((await outcomes(stub, 2)).length).toBe(2);
  });
});

describe('callback URLs of schemes other than http and https', () => {
  let stub: RunningStub;
  const logged: string[] = [];

  beforeAll(async () => {
    stub = await startStub({ spec: join(SPECS, 'subscriptions-3.0.yaml'), fixtures: NO_FIXTURES, port: 0, watch: false, log: (line) => void logged.push(line) });
  });

  afterAll(async () => {
    await stub?.close();
  });

  const urls: Array<[string, string]> = [
    ['data:text/plain,hello', 'data:'],
    ['file:///etc/passwd', 'file:'],
    ['javascript:alert(1)', 'javascript:'],
    ['blob:http://127.0.0.1/0c6b2f4e', 'blob:'],
    ['ftp://127.0.0.1/plants.csv', 'ftp:'],
  ];
  it.each(urls)('%s is refused at once, never tried, and recorded with the reason', async (url, scheme) => {
    const before = (await outcomes(stub, 0)).length;
    expect((await subscribe(stub, url)).status).toBe(201);
    const last = (await outcomes(stub, before + 1)).at(-1)!;
    expect(last).toEqual(expect.objectContaining({ kind: 'callback', target: `${url}?topic=ferns`, status: null, attempts: 0, error: `refused: only http: and https: URLs are followed, not ${scheme}` }));
    expect(logged).toContain(`callback onEvent to ${url}?topic=ferns refused: only http: and https: URLs are followed, not ${scheme}`);
  });
});

describe('callback hosts', () => {
  const receivers: Server[] = [];
  let receiverUrl = '';
  let arrived = 0;

  beforeAll(async () => {
    const server = createServer((req, res) => {
      arrived++;
      req.resume().on('end', () => res.end());
    });
    receivers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const server of receivers) await new Promise((resolve) => server.close(resolve));
  });

  const cases: Array<[string, string[] | undefined, (receiver: string) => string, number | null, string | undefined]> = [
    ['by default, this machine is reached (the stub listens on loopback)', undefined, (receiver) => `${receiver}/events`, 200, undefined],
    ['by default, another host is refused', undefined, () => 'http://metadata.internal/latest', null,
      'refused: metadata.internal is not a host callbacks may reach (allowed by default: this machine and the webhook targets\' hosts); see --callback-hosts'],
    ['a listed host is reached', ['127.0.0.1'], (receiver) => `${receiver}/events`, 200, undefined],
    ['with a list, this machine under another name is refused', ['127.0.0.1'], (receiver) => `${receiver.replace('127.0.0.1', 'localhost')}/events`, null,
      'refused: localhost is not a host callbacks may reach (allowed: 127.0.0.1); see --callback-hosts'],
    ['* allows any host', ['*'], (receiver) => `${receiver}/events`, 200, undefined],
  ];
  it.each(cases)('%s', async (_name, callbackHosts, url, status, error) => {
    const stub = await startStub({ spec: join(SPECS, 'subscriptions-3.0.yaml'), fixtures: NO_FIXTURES, port: 0, watch: false, callbackHosts });
    try {
      const arrivedBefore = arrived;
      expect((await subscribe(stub, url(receiverUrl))).status).toBe(201);
      const [outcome] = await outcomes(stub, 1);
      expect(outcome).toMatchObject({ kind: 'callback', status, attempts: status === null ? 0 : 1 });
      expect(outcome.error).toBe(error);
      expect(arrived - arrivedBefore).toBe(status === null ? 0 : 1);
    } finally {
      await stub.close();
    }
  });

  it('refuses a list entry that is not a host', async () => {
    await expect(startStub({ port: 0, watch: false, callbackHosts: ['http://x/'] })).rejects.toThrow('callbackHosts: must be host names or addresses (example.com, 10.0.0.5, ::1), or *; got http://x/');
  });
});

describe('the new flags on the command line', () => {
  it('--callback-hosts lets a callback reach a listed host, and refuses another', async () => {
    const cli = await startCli(['--spec', join(SPECS, 'subscriptions-3.0.yaml'), '--fixtures', NO_FIXTURES, '--port', '0', '--quiet', '--no-watch', '--callback-hosts', 'hooks.example.com, 10.0.0.5']);
    try {
      const subscribed = await request(`${cli.url}/subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"callbackUrl":"http://127.0.0.1:9/x","topic":"t"}' });
      expect(subscribed.status).toBe(201);
      const stub = { url: cli.url } as RunningStub;
      expect((await outcomes(stub, 1))[0].error).toBe('refused: 127.0.0.1 is not a host callbacks may reach (allowed: hooks.example.com, 10.0.0.5); see --callback-hosts');
    } finally {
      await cli.stop();
    }
  });

  it.each([
    ['--callback-hosts with a URL', ['--callback-hosts', 'http://x/'], 'plant-store-stub: --callback-hosts: must be host names or addresses (example.com, 10.0.0.5, ::1), or *; got http://x/\n'],
    ['--max-state of no bytes', ['--max-state', '0'], /^plant-store-stub: --max-state: /],
  ])('refuses %s with one line and exit code 2', async (_name, flags, stderr) => {
    const run = await runCli(['--port', '0', '--quiet', '--no-watch', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(stderr);
  });
});
