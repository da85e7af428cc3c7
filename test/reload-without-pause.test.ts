// A reload of a large document as a client lives it: while the new version is read and compiled,
// the old one keeps answering; the new one replaces it whole when ready; a newer change overtakes
// a reload under way; a broken document leaves the old version serving. Real stubs over HTTP,
// each answer's status and body asserted; how long anything takes is measured by the bench
// ("Answers during a reload"), never asserted here.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { post, request } from './helpers/http.js';

/** Large enough that reading and compiling it takes a while (a second or so), small enough for CI. */
const OPERATIONS = 2_000;
/** Bounds the client loops: a reload that never ends fails the test instead of hanging it. */
const MAX_REQUESTS = 20_000;

const temps: string[] = [];
const stubs: RunningStub[] = [];
afterEach(() => Promise.all(stubs.splice(0).map((stub) => stub.close())));
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A document of OPERATIONS operations, each answering `{"version": <version>, …}` by its example. */
function documentText(version: string): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < OPERATIONS; i++) {
    paths[`/items${i}/{id}`] = {
      get: {
        operationId: `getItem${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }],
        responses: {
          '200': {
            description: 'the item',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['version'], properties: { version: { type: 'string' }, name: { type: 'string', maxLength: 40 } } },
                example: { version, name: `item ${i}` },
              },
            },
          },
          '404': { description: 'no such item', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } },
        },
      },
    };
  }
  return dump({ openapi: '3.0.3', info: { title: 'Items', version: '1' }, paths }, { noRefs: true });
}

async function startOn(version: string): Promise<{ stub: RunningStub; spec: string; lines: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-reload-pause-'));
  temps.push(dir);
  const spec = join(dir, 'items.yaml');
  await writeFile(spec, documentText(version));
  const lines: string[] = [];
  const stub = await startStub({ spec, fixtures: join(dir, 'fixtures'), port: 0, watch: false, log: (line) => lines.push(line) });
  stubs.push(stub);
  return { stub, spec, lines };
}

/** The version the last operation answers with (the one a router scanning in order reaches last). */
async function versionServed(stub: RunningStub): Promise<string> {
  const answer = await request(`${stub.url}/items${OPERATIONS - 1}/7`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-mock-scenario')).toBe('example:default');
  expect(answer.json).toEqual({ version: answer.json?.version, name: `item ${OPERATIONS - 1}` });
  return answer.json.version;
}

/** Asks for the version served, one request at a time, until `done` settles: every answer's version in order. */
async function versionsWhile(stub: RunningStub, done: Promise<unknown>): Promise<string[]> {
  let settled = false;
  void done.finally(() => (settled = true));
  const versions: string[] = [];
  while (!settled && versions.length < MAX_REQUESTS) versions.push(await versionServed(stub));
  await done;
  return versions;
}

describe('a reload keeps the old version answering until the new one is ready', { timeout: 60_000 }, () => {
  it(`answers with the old version while a ${OPERATIONS}-operation document reloads, then with the new one`, async () => {
    const { stub, spec, lines } = await startOn('old');
    expect(await versionServed(stub)).toBe('old');

    await writeFile(spec, documentText('new'));
    const reload = post(`${stub.url}/__admin/reload`);
    const during = await versionsWhile(stub, reload);

    expect((await reload).json).toEqual({ reloaded: true });
    // Many answers came while the reload was under way, all from the old version: the new one
    // replaces it in one step, so there is never a mix of both (nor an old answer after a new one).
    // A reload that blocks the event loop gets about 20 answers in (while the file is read), one
    // that does not about 800 on a 2-core machine: the count tells them apart, whatever the speed.
    const firstNew = during.indexOf('new');
    const old = firstNew === -1 ? during : during.slice(0, firstNew);
    expect(old.length).toBeGreaterThanOrEqual(100);
    expect(new Set(old)).toEqual(new Set(['old']));
    expect(during.slice(old.length).every((version) => version === 'new')).toBe(true);
    expect(await versionServed(stub)).toBe('new');
    // The log says how long the reload took.
    expect(lines.filter((line) => line.startsWith('reloaded '))).toEqual([expect.stringMatching(new RegExp(`^reloaded ${spec} and .+ in \\d+ ms$`))]);
  });

  it('a change made during a reload wins: the stale reload is abandoned and the newest document served', async () => {
    const { stub, spec, lines } = await startOn('first');

    await writeFile(spec, documentText('second'));
    const stale = post(`${stub.url}/__admin/reload`);
    // The second reload is asked for while the first is still reading the document. The new text
    // replaces the file in one step (as editors save), so the first never reads half a file.
    await writeFile(`${spec}.new`, documentText('third'));
    await rename(`${spec}.new`, spec);
    const newest = post(`${stub.url}/__admin/reload`);
    const during = await versionsWhile(stub, Promise.all([stale, newest]));

    // Both callers get the outcome of the reload that read the newest files.
    expect((await stale).json).toEqual({ reloaded: true });
    expect((await newest).json).toEqual({ reloaded: true });
    expect(during.includes('second')).toBe(false);
    expect(await versionServed(stub)).toBe('third');
    // One compile finished: the stale one was abandoned, never run beside or after the newest.
    expect(lines.filter((line) => line.startsWith('reloaded '))).toHaveLength(1);
  });

  it('a document broken on disk is refused by the reload, and the old version keeps answering', async () => {
    const { stub, spec, lines } = await startOn('old');

    await writeFile(spec, `${documentText('new')}\n  /broken: [unclosed\n`);
    const reload = post(`${stub.url}/__admin/reload`);
    const during = await versionsWhile(stub, reload);

    expect((await reload).status).toBe(409);
    expect(new Set(during)).toEqual(new Set(['old']));
    expect(await versionServed(stub)).toBe('old');
    const refused = lines.find((line) => line.startsWith('reload refused'));
    expect(refused).toMatch(new RegExp(`^reload refused, still serving the last good version: ${spec}: invalid YAML at line \\d+, column \\d+`));
  });
});
