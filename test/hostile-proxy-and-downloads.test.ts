// What a hostile client, a careless operator or a bad network sends through --proxy and a
// document URL: a path that would climb out of the proxy target's base path is refused and never
// forwarded; a document URL that redirects to this machine from a public host is refused hop by
// hop; a download that announces no length is counted as it arrives and stopped at the cap; a
// path that holds `>` or `"` cannot write links of its own into a Link header or a next-page URI.
// Real servers on 127.0.0.1 stand in for the upstream and the document host.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { downloadDocument, isPrivateDocument } from '../src/openapi/download-document.js';
import { raw } from './helpers/raw-http.js';
import { runCli, startCli } from './helpers/cli.js';
import { startStubOn } from './helpers/document-stub.js';

const DOCUMENT = 'openapi: 3.0.3\ninfo: {title: Remote, version: "1"}\npaths:\n  /ping:\n    get:\n      responses:\n        "200": {description: pong, content: {application/json: {example: {pong: true}}}}\n';

async function listen(handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, port };
}

describe('--proxy keeps every forwarded path under the target\'s base path', () => {
  const received: string[] = [];
  let upstream: Awaited<ReturnType<typeof listen>>;
  let stub: RunningStub;
  beforeAll(async () => {
    upstream = await listen((req, res) => {
      received.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: () => {}, proxy: `${upstream.url}/base/api` });
  });
  afterAll(async () => {
    await stub?.close();
    upstream?.server.close();
  });

  it.each([
    ['/items/../../../root'],
    ['/v2/../../admin'],
    ['/%2e%2e/admin'],
    ['/%2E%2E/%2e%2e/etc/passwd'],
  ])('%s is refused with 400 and never reaches the upstream', async (path) => {
    received.length = 0;
    const answer = await raw(Number(new URL(stub.url).port), `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(JSON.parse(answer.body).detail).toMatch(/climbs out of \/base\/api with its dot segments/);
    expect(received).toEqual([]);
  });

  it.each([
    ['/items/./7', '/base/api/items/7'],
    ['/items/../orders/1', '/base/api/orders/1'],
    ['/items?q=../..', '/base/api/items?q=../..'],
  ])('%s stays under it and is forwarded as %s', async (path, forwarded) => {
    received.length = 0;
    const answer = await raw(Number(new URL(stub.url).port), `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect([answer.status, received]).toEqual([200, [forwarded]]);
  });
});

describe('a document URL that redirects', () => {
  let inside: Awaited<ReturnType<typeof listen>>;
  let outside: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    inside = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(DOCUMENT));
    outside = await listen((req, res) => {
      if (req.url === '/openapi.yaml') return res.writeHead(302, { location: `${inside.url}/openapi.yaml` }).end();
      if (req.url === '/hop') return res.writeHead(301, { location: '/openapi.yaml' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    });
  });
  afterAll(() => {
    inside?.server.close();
    outside?.server.close();
  });

  // Both servers listen on 127.0.0.1 (as every server a test starts does); the judge of what is
  // private is told that the first one stands for a public host, so each hop is judged as it would be.
  const judge = (url: string) => new URL(url).port !== String(outside.port);

  it.each([
    ['a public document answering 302 to this machine', '/openapi.yaml', /redirects to http:\/\/127\.0\.0\.1:\d+\/openapi\.yaml: a document on a public host may not lead to this machine or a private network/],
    ['the same after a first hop on the public host', '/hop', /redirects to http:\/\/127\.0\.0\.1:\d+\/openapi\.yaml: a document on a public host may not lead/],
    ['a redirect to a file: URL', '/file', /redirects to file:\/\/\/etc\/passwd, which is not an http\(s\) URL/],
    ['a redirect that never ends', '/loop', /redirects more than 10 times/],
  ])('%s is refused', async (_name, path, message) => {
    await expect(downloadDocument(`${outside.url}${path}`, judge)).rejects.toThrow(message);
  });

  it('is followed when it stays on this machine (a private document may lead to private ones)', async () => {
    const cli = await startCli(['--spec', `${outside.url}/hop`, '--port', '0', '--no-watch', '--quiet', '--fixtures', 'none']);
    try {
      const answer = await fetch(`${cli.url}/ping`);
      expect([answer.status, await answer.json()]).toEqual([200, { pong: true }]);
    } finally {
      await cli.stop();
    }
  });

  it.each([
    ['::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]:8080/openapi.yaml'],
    ['169.254.169.254 (a cloud\'s metadata service)', 'http://169.254.169.254/latest/openapi.yaml'],
    ['0.0.0.0', 'http://0.0.0.0:8080/openapi.yaml'],
    ['localhost with its final dot', 'http://localhost.:8080/openapi.yaml'],
  ])('a redirect to %s is judged private', async (_name, target) => {
    const teller = await listen((_req, res) => res.writeHead(302, { location: target }).end());
    try {
      // The first server stands for a public host; where the redirect leads is judged as it is.
      await expect(downloadDocument(`${teller.url}/openapi.yaml`, (url) => !url.startsWith(teller.url) && isPrivateDocument(url))).rejects.toThrow(/a document on a public host may not lead/);
    } finally {
      teller.server.close();
    }
  });
});

describe('a document download that announces no length', () => {
  it('is counted as it arrives and stopped past 256 MiB: exit 2, one line, the server cut off', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const endless = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/yaml' });
      // At most 300 MiB, so the test ends whatever the stub does.
      const more = () => {
        while (written < 300 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    try {
      const run = await runCli(['--spec', `${endless.url}/openapi.yaml`, '--port', '0', '--no-watch', '--quiet'], { timeoutMs: 60_000 });
      expect([run.code, run.stderr]).toEqual([2, `plant-store-stub: ${endless.url}/openapi.yaml: is larger than 256 MiB; is this the document? Else download it yourself (curl -sLo openapi.yaml '${endless.url}/openapi.yaml') and pass --spec openapi.yaml\n`]);
      expect(written).toBeLessThan(300 * 1024 * 1024);
    } finally {
      endless.server.close();
    }
  }, 90_000);
});

const LINKED = `
openapi: 3.0.3
info: { title: Linked, version: '1' }
paths:
  /users/{user}/repos:
    get:
      parameters:
        - { name: user, in: path, required: true, schema: { type: string } }
        - { name: page, in: query, schema: { type: integer } }
      responses:
        '200':
          description: a page of repositories
          headers:
            Link: { schema: { type: string }, example: '<https://api.example.com/users/a/repos?page=2>; rel="next"' }
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { id: { type: integer } } } }
              example: [{ id: 1 }]
  /Accounts/{sid}/Messages.json:
    get:
      parameters:
        - { name: sid, in: path, required: true, schema: { type: string } }
        - { name: PageToken, in: query, schema: { type: string } }
      responses:
        '200':
          description: a page of messages
          content:
            application/json:
              schema:
                type: object
                properties:
                  messages: { type: array, items: { type: object, properties: { sid: { type: string } } } }
                  next_page_uri: { type: string, nullable: true }
              example: { messages: [{ sid: SM1 }], next_page_uri: '/Accounts/AC1/Messages.json?PageToken=PASM1' }
`;

describe('links built from a hostile path', () => {
  let stub: Awaited<ReturnType<typeof startStubOn>>;
  beforeAll(async () => {
    stub = await startStubOn(LINKED);
  });
  afterAll(async () => {
    await stub?.close();
  });

  /** Every URL a Link header holds: what a client following it would request. */
  const targets = (header: string) => [...header.matchAll(/<([^>]*)>/g)].map(([, url]) => url);

  const get = (path: string) => {
    const port = new URL(stub.url).port;
    return raw(Number(port), `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  };

  it.each([
    ['/users/x>;rel="next",<https:evil.example/repos'],
    ['/users/x%3E/repos'],
    ['/users/<javascript:alert(1)>/repos'],
  ])('GET %s gets a Link of its next and last pages only, both on the stub', async (path) => {
    const answer = await get(path);
    const link = /^link: (.*)$/m.exec(answer.headers)?.[1] ?? '';
    expect(answer.status).toBe(200);
    // The head is read lower-cased (raw-http.ts): so is the stub's URL here.
    expect(targets(link).map((url) => url.startsWith(`${stub.url}/users/`))).toEqual([true, true]);
    expect([...link.matchAll(/rel="(\w+)"/g)].map(([, rel]) => rel)).toEqual(['next', 'last']);
  });

  it('a next-page URI keeps a hostile path escaped', async () => {
    const answer = await get('/Accounts/a"b<c>/Messages.json');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).next_page_uri).toMatch(/^\/Accounts\/a%22b%3Cc%3E\/Messages\.json\?PageToken=/);
  });
});

describe('--proxy when the upstream stalls or the client leaves', () => {
  let stalls: Awaited<ReturnType<typeof listen>>;
  /** Each request the upstream received, and whether its connection has been closed since. */
  let received: Array<{ closed: boolean }> = [];
  let stub: RunningStub;
  beforeAll(async () => {
    stalls = await listen((req, res) => {
      const seen = { closed: false };
      received.push(seen);
      req.socket.once('close', () => (seen.closed = true));
      // The head and half a JSON body, then nothing; or (for /plants?silent) not even the head;
      // or (for /photo) the head and a fifth of a streamed picture.
      if (req.url?.includes('silent')) return;
      if (req.url?.includes('photo')) {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '5000' });
        return void res.write(Buffer.alloc(1000, 7));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '40' });
      res.write('{"name":"Fern","tag":"');
    });
    stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtures', port: 0, watch: false, log: () => {}, proxy: stalls.url, proxyTimeoutMs: 500 });
  });
  afterAll(async () => {
    await stub?.close();
    stalls?.server.closeAllConnections();
    stalls?.server.close();
  });

  it('a body held back for checking that stops arriving is a 504 within --proxy-timeout, not a client held for ever', async () => {
    const started = performance.now();
    const answer = await fetch(`${stub.url}/plants`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"id":1,"name":"Fern"}', signal: AbortSignal.timeout(10_000) });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([504, 'application/problem+json']);
    expect((await answer.json()).detail).toMatch(/sent its answer's head and then nothing for 500 ms \(--proxy-timeout\)$/);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(stub.requests().at(-1)).toMatchObject({ status: 504, proxy: 'timeout' });
  });

  it('a streamed answer that stops arriving after its head is cut off within --proxy-timeout, so the client sees it broken', async () => {
    const answer = await fetch(`${stub.url}/photo`, { signal: AbortSignal.timeout(10_000) });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const started = performance.now();
    const read = await answer.arrayBuffer().then(() => 'whole', (error: Error) => (error.name === 'TimeoutError' ? 'held for 10 s' : 'cut off'));
    expect(read).toBe('cut off');
    expect(performance.now() - started).toBeLessThan(8_000);
    await expect.poll(() => stub.requests().at(-1)?.proxy).toBe('timeout (answer cut off)');
  });

  it('cancels the request to the upstream when its client leaves before the answer\'s head', async () => {
    received = [];
    const clients = Array.from({ length: 20 }, () => fetch(`${stub.url}/plants?silent`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"id":1,"name":"Fern"}', signal: AbortSignal.timeout(300),
    }).catch(() => null));
    await Promise.all(clients);
    // Every upstream connection the clients started is closed soon after they left, none left streaming.
    await expect.poll(() => [received.length, received.filter((seen) => seen.closed).length], { timeout: 5_000 }).toEqual([20, 20]);
    await expect.poll(() => stub.requests().filter((entry) => entry.abandoned).length).toBe(20);
  });
});
