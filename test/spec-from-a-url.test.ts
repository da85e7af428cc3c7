// `--spec https://…` (and Prism's `mock https://…`): the document is downloaded, its relative
// `$ref`s are fetched from beside it, and a reload downloads it again. A document server on
// 127.0.0.1 stands in for the real one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';

const BED = 'type: object\nrequired: [name]\nproperties:\n  name: {type: string}\n  rows: {type: integer}\n';
const beds = (extra = '') => `openapi: 3.0.3
info: {title: Garden, version: "1"}
paths:
  /beds:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: './schemas/bed.yaml'}
      responses:
        "201":
          description: the bed
          content:
            application/json:
              schema: {$ref: './schemas/bed.yaml'}
${extra}`;
const SHEDS = `  /sheds:
    get:
      responses:
        "200":
          description: the sheds
          content:
            application/json:
              example: [{name: tools}]
`;

/** What the document server answers, by path; a test may change it. */
const served = new Map<string, string>();
/** Requests the document server is answering now, and the most it ever answered at once. */
let inFlight = 0;
let mostAtOnce = 0;
/** How long the document server takes over each answer, so that requests sent together overlap. */
let answerDelayMs = 0;
let documents: Server;
let base: string;
let noFixtures: string;
/** A port nothing listens on: one the kernel gave out and took back. */
let closedPort: number;
const started: StartedCli[] = [];

beforeAll(async () => {
  served.set('/api/openapi.yaml', beds());
  served.set('/api/schemas/bed.yaml', BED);
  documents = createServer((req, res) => {
    mostAtOnce = Math.max(mostAtOnce, ++inFlight);
    setTimeout(() => {
      inFlight--;
      const text = served.get(req.url ?? '');
      res.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/yaml' }).end(text ?? 'no such document');
    }, answerDelayMs);
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  served.set('/api/broken.yaml', beds().replaceAll('./schemas/bed.yaml', './schemas/gone.yaml'));
  // 40 paths, each with its body schema in a file of its own.
  const many = Array.from({ length: 40 }, (_, i) => `  /beds${i}:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: './many/bed${i}.yaml'}\n      responses:\n        "204": {description: planted}\n`);
  served.set('/api/many.yaml', `openapi: 3.0.3\ninfo: {title: Garden, version: "1"}\npaths:\n${many.join('')}`);
  for (let i = 0; i < 40; i++) served.set(`/api/many/bed${i}.yaml`, BED);
  noFixtures = await mkdtemp(join(tmpdir(), 'stub-url-spec-'));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await new Promise((resolve) => documents.close(resolve));
  await rm(noFixtures, { recursive: true, force: true });
});

async function start(args: string[]): Promise<StartedCli> {
  const cli = await startCli(['--port', '0', '--no-watch', '--quiet', '--fixtures', noFixtures, ...args]);
  started.push(cli);
  return cli;
}

const JSON_BODY = { 'content-type': 'application/json' };

describe('a document named by an http URL', () => {
  // [how the stub is started, request, status, body]
  const cases: Array<[string, string[] | (() => string[]), string, number, unknown]> = [
    ['--spec URL, a valid body is echoed', () => ['--spec', `${base}/api/openapi.yaml`], '{"name":"herbs","rows":3}', 201, { name: 'herbs', rows: 3 }],
    ['--spec URL, the $ref\'d schema fetched from beside it checks the body', () => ['--spec', `${base}/api/openapi.yaml`], '{"rows":"three"}', 400, { status: 400, violations: ['/name: is required', '/rows: must be an integer'] }],
  ];
  it.each(cases)('%s', async (_name, args, body, status, answer) => {
    const cli = await start(typeof args === 'function' ? args() : args);
    const response = await request(`${cli.url}/beds`, { method: 'POST', headers: JSON_BODY, body });
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject(answer as object);
  });

  it('Prism\'s `mock URL` serves it, answering as Prism does', async () => {
    const cli = await startCli(['mock', `${base}/api/openapi.yaml`, '-p', '0', '--no-watch', '--quiet', '--fixtures', noFixtures]);
    started.push(cli);
    const response = await request(`${cli.url}/beds`, { method: 'POST', headers: JSON_BODY, body: '{"name":"herbs"}' });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ name: expect.any(String), rows: expect.any(Number) });
  });

  it('fetches the files its $refs reach a few at a time, not all at once', async () => {
    answerDelayMs = 20;
    mostAtOnce = 0;
    try {
      const cli = await start(['--spec', `${base}/api/many.yaml`]);
      const refused = await request(`${cli.url}/beds39`, { method: 'POST', headers: JSON_BODY, body: '{"rows":2}' });
      expect([refused.status, refused.json?.violations]).toEqual([400, ['/name: is required']]);
      expect(mostAtOnce).toBeGreaterThan(1);
      expect(mostAtOnce).toBeLessThanOrEqual(8);
    } finally {
      answerDelayMs = 0;
    }
  });

  it('POST /__admin/reload downloads it again and serves what changed', async () => {
    const cli = await start(['--spec', `${base}/api/openapi.yaml`]);
    expect((await request(`${cli.url}/sheds`)).status).toBe(404);
    served.set('/api/openapi.yaml', beds(SHEDS));
    try {
      expect((await request(`${cli.url}/__admin/reload`, { method: 'POST' })).status).toBe(200);
      const sheds = await request(`${cli.url}/sheds`);
      expect([sheds.status, sheds.json]).toEqual([200, [{ name: 'tools' }]]);
    } finally {
      served.set('/api/openapi.yaml', beds());
    }
  });
});

describe('a document URL that cannot be read', () => {
  it.each([
    ['a 404 names the status', () => `${base}/api/missing.yaml`, (url: string) => `could not be downloaded: the server answered 404 Not Found; check the address, or download it yourself (curl -sLo openapi.yaml '${url}') and pass --spec openapi.yaml`],
    ['a refused connection names the error', () => `http://127.0.0.1:${closedPort}/openapi.yaml`, (url: string) => `could not be downloaded (ECONNREFUSED); check the address, or download it yourself (curl -sLo openapi.yaml '${url}') and pass --spec openapi.yaml`],
    ['a $ref the server does not have names the file', () => `${base}/api/broken.yaml`, () => `unresolvable $ref: Error downloading ${base}/api/schemas/gone.yaml`],
  ])('%s, exit 2', async (_name, url, problem) => {
    const run = await runCli(['--port', '0', '--no-watch', '--quiet', '--fixtures', noFixtures, '--spec', url()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`plant-store-stub: ${url()}: ${problem(url())}`);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 20_000);
});
