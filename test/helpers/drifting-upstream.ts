// A real API for the proxy tests: test/specs/plant-catalog.yaml implemented by a small node:http
// server on 127.0.0.1, under the document's base path /v2, with deliberate drifts from the
// document. It remembers the requests it received, so tests can see what the stub forwarded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface DriftingUpstream {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** The photo's size: large enough that holding it would show, streamed in 64 KiB chunks. */
export const PHOTO_BYTES = 20 * 1024 * 1024;
/** The list answer for `?tag=many`: JSON larger than the proxy's check cap (1 MiB). */
export const MANY_PLANTS = 40_000;
/** How long GET /v2/plants/{id}/care waits before answering (the test's --proxy-timeout is far shorter). */
export const SLOW_MS = 5_000;

/** Byte i of the photo: a pattern a test can recompute without holding the photo. */
export function photoByte(i: number): number {
  return (i * 31 + 7) & 0xff;
}

const PLANTS: Record<string, unknown> = {
  '1': { id: 1, name: 'Fern', tag: 'fern' },
  '2': { id: '2', name: 'Moss' }, // drift: id is a string, the document says integer
  '3': { id: 3, name: 'Ivy', color: 'green', care: { water: 3 } }, // drift: fields the document does not declare
};

export async function startDriftingUpstream(): Promise<DriftingUpstream> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req.method!, new URL(req.url!, 'http://upstream'), body, req.headers, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    received,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

type Res = Parameters<Parameters<typeof createServer>[1] & {}>[1];

function json(res: Res, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

function answer(method: string, url: URL, body: string, headers: IncomingHttpHeaders, res: Res): void {
  const path = url.pathname;
  if (method === 'GET' && path === '/v2/plants') {
    if (url.searchParams.get('tag') === 'many') return streamMany(res);
    // Drift in a documented header: X-Total-Count is an integer.
    if (url.searchParams.get('tag') === 'counted') return json(res, 200, [PLANTS['1']], { 'x-total-count': 'lots' });
    // Drift in every item: more violations than X-Mock-Violations can carry.
    if (url.searchParams.get('tag') === 'wrong') return json(res, 200, Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, name: 'Wrong' })));
    // A gzip answer, labelled so: the proxy must pass these bytes and this label through.
    const list = gzipSync(JSON.stringify([PLANTS['1'], { id: 4, name: 'Palm' }]));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': list.length, 'x-upstream': 'yes' });
    return void res.end(list);
  }
  if (method === 'POST' && path === '/v2/plants') {
    const plant = JSON.parse(body || '{}') as { name?: string; tag?: string };
    // Drift: a status the document does not list.
    if (plant.name === 'Teapot') return json(res, 418, { error: 418, message: 'I am a teapot' });
    const created: Record<string, unknown> = { id: 10, name: plant.name };
    if (plant.tag !== undefined) created.tag = plant.tag;
    return json(res, 201, created, headers.prefer === 'return=minimal' ? { 'preference-applied': 'return=minimal' } : {});
  }
  const item = /^\/v2\/plants\/([^/]+)(\/care|\/photo)?$/.exec(path);
  if (item && method === 'GET' && item[2] === undefined) {
    const plant = PLANTS[item[1]];
    return plant ? json(res, 200, plant, { 'set-cookie': 'session=upstream-secret; HttpOnly' }) : json(res, 404, { error: 404, message: `no plant ${item[1]}` });
  }
  if (item && method === 'GET' && item[2] === '/care') {
    // A broken answer: the connection is dropped before any status line.
    if (item[1] === '99') return void res.socket?.destroy();
    const timer = setTimeout(() => json(res, 200, { water: 7 }), SLOW_MS);
    return void res.on('close', () => clearTimeout(timer));
  }
  if (item && method === 'GET' && item[2] === '/photo') return streamPhoto(res);
  if (method === 'GET' && path === '/v2/status') return json(res, 200, { ok: true }); // not in the document
  // Not implemented yet (DELETE /plants/{id}, GET /seasons): a plain 404, as most servers send.
  res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
}

/** 20 MiB, written as the client takes it (back-pressure), never built whole. */
function streamPhoto(res: Res): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': PHOTO_BYTES });
  const CHUNK = 64 * 1024;
  let sent = 0;
  const more = () => {
    while (sent < PHOTO_BYTES) {
      const chunk = Buffer.alloc(Math.min(CHUNK, PHOTO_BYTES - sent));
      for (let i = 0; i < chunk.length; i++) chunk[i] = photoByte(sent + i);
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

/** A JSON list over 1 MiB, chunked (no Content-Length); the head leaves first, as a streaming server's would. */
function streamMany(res: Res): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  const item = (i: number) => JSON.stringify({ id: i, name: `Plant number ${i}` });
  res.write('[');
  for (let from = 0; from < MANY_PLANTS; from += 1_000) {
    const to = Math.min(MANY_PLANTS, from + 1_000);
    res.write(`${from === 0 ? '' : ','}${Array.from({ length: to - from }, (_, k) => item(from + k)).join(',')}`);
  }
  res.end(']');
}
