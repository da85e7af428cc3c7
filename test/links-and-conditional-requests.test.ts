// Links stay on the stub and pagination ends: a documented Link or Location header that names the
// real API's host is answered with the stub's own origin, a list that documents a Link header gets
// next/last links built for the page asked for (none past the last), and where the document lists
// an ETag header or a 304, a GET carries an ETag and a matching If-None-Match is answered 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { startStubOn } from './helpers/document-stub.js';
import { request } from './helpers/http.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Links, version: '1' }
servers: [{ url: 'https://api.example.com' }]
paths:
  /issues:
    get:
      parameters:
        - { name: page, in: query, schema: { type: integer } }
        - { name: per_page, in: query, schema: { type: integer } }
      responses:
        '200':
          description: a page of issues
          headers:
            Link: { schema: { type: string }, example: '<https://api.example.com/issues?page=2>; rel="next", <https://api.example.com/issues?page=5>; rel="last"' }
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { id: { type: integer } } } }
              example: [{ id: 1 }, { id: 2 }]
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { title: { type: string } } } } } }
      responses:
        '201':
          description: created
          headers:
            Location: { schema: { type: string }, example: 'https://api.example.com/issues/1' }
          content:
            application/json:
              schema: { type: object, properties: { id: { type: integer }, title: { type: string } } }
              example: { id: 1, title: Bug }
  /issues/{number}:
    parameters: [{ name: number, in: path, required: true, schema: { type: integer } }]
    get:
      responses:
        '200':
          description: an issue
          headers:
            ETag: { schema: { type: string }, example: '"abc"' }
          content: { application/json: { schema: { type: object, properties: { number: { type: integer } } }, example: { number: 1 } } }
  /notes/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200':
          description: a note
          content: { application/json: { schema: { type: object, properties: { id: { type: string } } }, example: { id: n1 } } }
        '304': { description: not modified }
  /plain/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200':
          description: no conditional requests documented
          content: { application/json: { schema: { type: object, properties: { id: { type: string } } }, example: { id: p1 } } }
`;

let stub: RunningStub;
beforeAll(async () => { stub = await startStubOn(DOCUMENT); });
afterAll(async () => { await stub?.close(); });

/** The URL of the link with relation `rel` in a Link header, or null. */
function linkOf(header: string | null, rel: string): string | null {
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match && match[2] === rel) return match[1];
  }
  return null;
}

describe('links stay on the stub', () => {
  it('answers a create with a Location on the stub\'s origin, the path kept', async () => {
    const answer = await request(`${stub.url}/issues`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(`${stub.url}/issues/1`);
  });

  const pages = [
    { name: 'the first page, without ?page', query: '', next: 2, last: 3, prev: null },
    { name: 'page 2 with its page size kept', query: '?per_page=2&page=2', next: 3, last: 3, prev: 1 },
    { name: 'the last page, without next', query: '?page=3', next: null, last: null, prev: 2 },
  ];
  it.each(pages)('answers $name with links built for that page', async ({ query, next, last, prev }) => {
    const answer = await request(`${stub.url}/issues${query}`);
    expect(answer.status).toBe(200);
    const link = answer.headers.get('link');
    const pageOf = (rel: string) => {
      const url = linkOf(link, rel);
      if (url === null) return null;
      expect(url.startsWith(`${stub.url}/issues?`)).toBe(true);
      if (query.includes('per_page')) expect(new URL(url).searchParams.get('per_page')).toBe('2');
      return Number(new URL(url).searchParams.get('page'));
    };
    expect(pageOf('next')).toBe(next);
    expect(pageOf('last')).toBe(last);
    expect(pageOf('prev')).toBe(prev);
  });

  it('lets a client that follows next until it is gone end on the stub', async () => {
    const visited: string[] = [];
    let url: string | null = `${stub.url}/issues?per_page=2`;
    while (url !== null && visited.length < 10) {
      visited.push(url);
      const answer = await request(url);
      expect(answer.status).toBe(200);
      url = linkOf(answer.headers.get('link'), 'next');
    }
    expect(visited).toHaveLength(3);
    for (const page of visited) expect(page.startsWith(stub.url)).toBe(true);
  });
});

describe('conditional requests', () => {
  const documented = [
    { name: 'an ETag header', path: '/issues/7' },
    { name: 'a 304 response', path: '/notes/n7' },
  ];
  it.each(documented)('where the document lists $name, answers an ETag, then 304 to a matching If-None-Match', async ({ path }) => {
    const first = await request(`${stub.url}${path}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const cached = await request(`${stub.url}${path}`, { headers: { 'if-none-match': etag! } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    const stale = await request(`${stub.url}${path}`, { headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
    expect(stale.json).toEqual(first.json);
  });

  it('answers another id with another ETag', async () => {
    const seven = await request(`${stub.url}/issues/7`);
    const eight = await request(`${stub.url}/issues/8`);
    expect(eight.json).toEqual({ number: 8 });
    expect(eight.headers.get('etag')).not.toBe(seven.headers.get('etag'));
  });

  it('sends no ETag where the document lists neither, and ignores If-None-Match there', async () => {
    const answer = await request(`${stub.url}/plain/p1`, { headers: { 'if-none-match': '*' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toBeNull();
    expect(answer.json).toEqual({ id: 'p1' });
  });
});
