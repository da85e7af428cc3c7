// docs/serving-documents.md's overlay for a real document, run as printed: Box's document
// (../shared/realworld/box-3.0.json, read from there and never copied; skipped with one line when
// absent) read wrongly by stateful mode, and the x-stub-resource hint that corrects it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { post, request, type TestResponse } from './helpers/http.js';
import { codeBlocks } from './helpers/doc-examples.js';

const BOX = join(import.meta.dirname, '..', '..', 'shared', 'realworld', 'box-3.0.json');
const present = existsSync(BOX);
if (!present) console.log(`hints on a real document: ${BOX} is absent, so the page's Box example is not run`);

const HEADERS = { authorization: 'Bearer test-token', 'content-type': 'application/json' };
let dir: string;
const started: RunningStub[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-real-hints-'));
});
afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await rm(dir, { recursive: true, force: true });
});

async function start(overlays: string[]): Promise<RunningStub> {
  const stub = await startStub({ spec: BOX, fixtures: join(dir, 'none'), port: 0, watch: false, log: false, stateful: true, overlays });
  started.push(stub);
  return stub;
}

/** Two taxonomies in one namespace: what the second is answered. */
async function secondTaxonomy(url: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const taxonomy = (key: string) => post(`${url}/metadata_taxonomies`, { displayName: key, key, namespace: 'enterprise_123456' }, HEADERS);
  expect((await taxonomy('geography')).status).toBe(201);
  const second: TestResponse = await taxonomy('department');
  return { status: second.status, type: second.headers.get('content-type'), body: second.status === 201 ? second.json.key : second.json };
}

describe.skipIf(!present)("docs/serving-documents.md, Box's metadata taxonomies", () => {
  it('refuses a second taxonomy in a namespace without the overlay, creates it with the overlay as printed', async () => {
    const printed = (await codeBlocks('serving-documents.md')).find(({ text }) => text.startsWith('# box-corrections.yaml'))!.text;
    const overlay = join(dir, 'box-corrections.yaml');
    await writeFile(overlay, printed);
    const [plain, corrected] = await Promise.all([start([]), start([overlay])]);
    expect(await secondTaxonomy(plain.url)).toEqual({
      status: 400, type: 'application/json',
      body: { status: 400, message: '/metadata_taxonomies: an item with namespace enterprise_123456 already exists' },
    });
    expect(await secondTaxonomy(corrected.url)).toEqual({ status: 201, type: 'application/json', body: 'department' });
    const report = await request(`${corrected.url}/__admin/resources`);
    expect(report.status).toBe(200);
    expect(report.json.stateless).toContainEqual({
      collection: '/metadata_taxonomies', item: '/metadata_taxonomies/{namespace}',
      reason: 'x-stub-resource at /paths/~1metadata_taxonomies/x-stub-resource says never stateful',
    });
    expect(report.json.resources.map((resource: { collection: string }) => resource.collection)).not.toContain('/metadata_taxonomies');
  });
});
