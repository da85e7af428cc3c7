// The admin page in a real browser (Debian's chromium through playwright-core): requests appear
// live with their details under the clicked row, a scenario is made sticky and cleared from the
// page, coverage is shown, operations are filtered, warnings are grouped by kind, the requests
// table fits its panel at 1,024 px, and with an admin token the page asks for it.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';
import { startDriftingUpstream } from './helpers/drifting-upstream.js';

const CATALOG = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
// CI installs chromium (.ci/run); there a missing browser is a failure, elsewhere a skipped test.
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`admin page browser tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

let browser: Browser;
const stubs: RunningStub[] = [];
let dir: string;
let shelf: string;

/** A path long enough to be ellipsized in the requests table at 1,024 px. */
const LONG_PATH = '/libraries/{library}/shelves/{shelf}/sections/{section}/books/{book}/annotations/{annotation}';
const LONG_REQUEST = '/libraries/central-library-of-the-city/shelves/north-wing-7/sections/rare-manuscripts/books/978-0-13-468599-1/annotations/42';

/**
 * A document shaped like a big one, small enough to start at once: a few named operations, a long
 * path, 150 more operations so the list is longer than the window, and warnings of two kinds
 * (two `nullable` without `type`, one empty `enum`).
 */
function shelfDocument(): string {
  const ok = "{ '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } } }";
  const pathParameter = (name: string) => `{ name: ${name}, in: path, required: true, schema: { type: string } }`;
  const more = Array.from({ length: 150 }, (_, index) => `  /things/n${index}:\n    get: { operationId: thing${index}, responses: { '204': { description: none } } }`);
  return [
    'openapi: 3.0.3',
    'info: { title: Shelf, version: "1" }',
    'paths:',
    '  /books:',
    `    get: { operationId: listBooks, responses: ${ok} }`,
    `    post: { operationId: createBook, responses: ${ok} }`,
    '  /books/{id}:',
    `    get: { operationId: getBook, parameters: [${pathParameter('id')}], responses: ${ok} }`,
    `    delete: { operationId: withdrawBook, parameters: [${pathParameter('id')}], responses: { '204': { description: gone } } }`,
    '  /authors:',
    `    get: { operationId: listAuthors, parameters: [{ name: mode, in: query, schema: { type: string, enum: [] } }], responses: ${ok} }`,
    `  ${LONG_PATH}:`,
    `    get: { operationId: getAnnotation, parameters: [${['library', 'shelf', 'section', 'book', 'annotation'].map(pathParameter).join(', ')}], responses: ${ok} }`,
    ...more,
    'components:',
    '  schemas:',
    '    Person: { type: object, properties: { name: { type: string } } }',
    '    Book:',
    '      type: object',
    '      properties:',
    "        owner: { nullable: true, allOf: [{ $ref: '#/components/schemas/Person' }] }",
    "        editor: { nullable: true, allOf: [{ $ref: '#/components/schemas/Person' }] }",
    '',
  ].join('\n');
}

beforeAll(async () => {
  if (!haveBrowser) return;
  dir = await mkdtemp(join(tmpdir(), 'stub-admin-page-'));
  shelf = join(dir, 'shelf.yaml');
  await writeFile(shelf, shelfDocument());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'], // playwright gives each launch a fresh profile
  });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(stubs.map((stub) => stub.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openPage(options: Parameters<typeof startStub>[0] = {}, viewport = { width: 1400, height: 900 }): Promise<{ stub: RunningStub; page: Page }> {
  const stub = await startStub({ port: 0, watch: false, ...options });
  stubs.push(stub);
  const page = await browser.newPage({ viewport });
  await page.goto(`${stub.url}/__admin/`);
  return { stub, page };
}

const postPlant = (stub: RunningStub, headers: Record<string, string> = {}) =>
  request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: '{"id":1,"name":"Fern"}' });

const openShelf = (viewport?: { width: number; height: number }) =>
  openPage({ spec: shelf, fixtures: join(dir, 'none'), log: () => {} }, viewport);

/** The operations the filter leaves in view, as their keys. */
const shownOperations = (page: Page) =>
  page.$$eval('#operations .operation:not([hidden])', (nodes) => nodes.map((node) => (node as HTMLElement).dataset.operation));

async function sticky(stub: RunningStub, admin: Record<string, string> = {}): Promise<string | null> {
  return ((await request(`${stub.url}/__admin/scenarios`, { headers: admin })).json as { sticky: string | null }).sticky;
}

// A browser on a shared 2-core machine can take seconds to draw: generous bounds, never a timing claim.
describe.runIf(haveBrowser)('the admin page at /__admin/', { timeout: 30_000 }, () => {
  it('shows each request as it arrives, and its details on click', async () => {
    const { stub, page } = await openPage();
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    expect(await page.locator('#title').textContent()).toBe('OpenAPI Plant Store');
    expect((await postPlant(stub, { 'x-mock-scenario': 'duplicate-id' })).status).toBe(400);
    const row = page.locator('#journal-rows tr.request', { hasText: 'duplicate-id' });
    await row.waitFor({ timeout: 5_000 });
    expect(await row.locator('td').allTextContents()).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d$/), 'POST', '/plants', '400', 'duplicate-id', expect.stringMatching(/^\d+\.\d$/)]);
    const duration = (await row.locator('td.num').textContent())!;
    await row.click();
    // The details open in the row right under the clicked one, with what the response was.
    expect(await page.locator('#journal-rows tr.selected + tr.details-row #details-title').textContent()).toBe('POST /plants → 400 (duplicate-id)');
    expect(await page.locator('#details-response dt').allTextContents()).toEqual(['status', 'answered by', 'duration', 'received']);
    expect((await page.locator('#details-response dd').allTextContents()).slice(0, 3)).toEqual(['400', 'the scenario "duplicate-id"', `${duration} ms`]);
    expect(await page.locator('#details-headers').textContent()).toContain('"authorization": "Bearer [redacted]"');
    expect(JSON.parse((await page.locator('#details-body').textContent())!)).toEqual({ id: 1, name: 'Fern' });
    // The answer's body beside the request's, as the fixture scripted it.
    const bodies = await page.locator('#details .bodies > div').evaluateAll((columns) => columns.map((column) => column.getBoundingClientRect()));
    expect(bodies[1].left).toBeGreaterThan(bodies[0].right - 1);
    expect(bodies[1].top).toBe(bodies[0].top);
    expect(JSON.parse((await page.locator('#details-response-body').textContent())!)).toEqual({ error: 1001, message: 'A plant with this id already exists' });
    await page.locator('#details button', { hasText: 'close' }).click();
    expect(await page.locator('#journal-rows tr.details-row').count()).toBe(0);
    expect(await page.locator('#journal-rows tr.selected').count()).toBe(0);
  });

  it('shows a row\'s query, and a faulted answer as its fault, not as the status never sent', async () => {
    const { stub, page } = await openPage();
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    await request(`${stub.url}/plants?trace=on&tag=a%20b`, { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer t', 'x-mock-fault': 'reset' }, body: '{"id":1,"name":"Fern"}' }).catch(() => undefined);
    const row = page.locator('#journal-rows tr.request', { has: page.locator('td.answer', { hasText: 'fault: reset' }) });
    await row.waitFor({ timeout: 5_000 });
    expect(await row.locator('td').allTextContents()).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d$/), 'POST', '/plants?trace=on&tag=a+b', 'reset', 'fault: reset', expect.stringMatching(/^\d+\.\d$/)]);
    expect(await row.locator('td.fault').getAttribute('title')).toBe('the fault "reset": status 200 was never sent');
  });

  it('says in the details what answered: echo, the refusal, a fault', async () => {
    const { stub, page } = await openPage();
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    const cases: Array<{ headers: Record<string, string>; answer: string; status: string; answeredBy: string }> = [
      { headers: {}, answer: 'echo', status: '200', answeredBy: 'echo: the request projected onto the response schema' },
      { headers: { authorization: '' }, answer: '—', status: '401', answeredBy: 'the stub refused the request (nothing was served)' },
      { headers: { 'x-mock-fault': 'reset' }, answer: 'fault: reset', status: '200', answeredBy: 'the fault "reset": the status was never sent' },
    ];
    for (const { headers } of cases) await postPlant(stub, headers).catch(() => undefined); // a reset fault drops the connection
    for (const { answer, status, answeredBy } of cases) {
      const row = page.locator('#journal-rows tr.request', { has: page.locator('td.answer', { hasText: answer }) });
      await row.waitFor({ timeout: 5_000 });
      await row.click();
      expect(await page.locator('#details-response dd').first().textContent()).toBe(status);
      expect(await page.locator('#details-response dd').nth(1).textContent()).toBe(answeredBy);
    }
  });

  it('shows a proxied request: the real API answered, with the answer\'s violations and undeclared fields', async () => {
    const upstream = await startDriftingUpstream();
    try {
      const { stub, page } = await openPage({ spec: CATALOG, fixtures: join(dir, 'none'), proxy: upstream.url, log: () => {} });
      await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
      await request(`${stub.url}/plants/2`, { headers: JSON_HEADERS });
      await request(`${stub.url}/plants/3`, { headers: JSON_HEADERS });
      for (const [path, violation] of [['/plants/2', 'answer violation /id: must be an integer'], ['/plants/3', 'undeclared answer field /color']]) {
        const row = page.locator('#journal-rows tr.request', { hasText: path });
        await row.waitFor({ timeout: 5_000 });
        await row.click();
        expect(await page.locator('#details-response dd').nth(1).textContent()).toBe(`the real API at ${upstream.url}${path} (forwarded)`);
        expect(await page.locator('#details-violations').textContent()).toContain(violation);
      }
    } finally {
      await upstream.close();
    }
  });

  it('makes a scenario sticky and clears it, as the admin API then reports', async () => {
    const { stub, page } = await openPage();
    await page.locator('li[data-scenario="unknown-tag"] button', { hasText: 'make sticky' }).click();
    await page.locator('#sticky-banner', { hasText: 'sticky scenario: unknown-tag' }).waitFor({ timeout: 5_000 });
    expect(await sticky(stub)).toBe('unknown-tag');
    const answer = await postPlant(stub);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-mock-scenario')).toBe('unknown-tag');
    await page.locator('li[data-scenario="unknown-tag"] button', { hasText: 'clear sticky' }).click();
    await page.locator('#sticky-banner').waitFor({ state: 'hidden', timeout: 5_000 });
    expect(await sticky(stub)).toBeNull();
  });

  it('shows coverage: the documented statuses and scenarios exercised', async () => {
    const { stub, page } = await openPage();
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    await postPlant(stub);
    await postPlant(stub, { 'x-mock-scenario': 'name-too-long' });
    await page.locator('#coverage-summary', { hasText: '3 of 6' }).waitFor({ timeout: 5_000 });
    expect(await page.locator('.status.hit').allTextContents()).toEqual(['✓ 200 ×1', '✓ 400 ×1']);
    expect(await page.locator('li[data-scenario="name-too-long"] .hit').textContent()).toBe('✓');
    expect(await page.locator('li[data-scenario="duplicate-id"] .miss').textContent()).toBe('·');
  });

  it('stays bounded with a journal of over a thousand requests: the newest 200 rows are drawn', async () => {
    const { stub, page } = await openPage({ journalLimit: 5_000 });
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    for (let batch = 0; batch < 12; batch++) await Promise.all(Array.from({ length: 100 }, () => postPlant(stub)));
    await page.locator('#journal-count', { hasText: 'newest 200 of 1000' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#journal-rows tr.request').count()).toBe(200);
  });

  it('asks for the admin token when the stub has one, then works with it', async () => {
    const { stub, page } = await openPage({ adminToken: 'page-secret' });
    await page.locator('#token-form').waitFor({ timeout: 5_000 });
    await page.fill('#token', 'page-secret');
    await page.click('#token-form button');
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    await postPlant(stub);
    await page.locator('#journal-rows tr.request', { hasText: 'echo' }).waitFor({ timeout: 5_000 });
    await page.locator('li[data-scenario="slow-create"] button').click();
    await page.locator('#sticky-banner', { hasText: 'slow-create' }).waitFor({ timeout: 5_000 });
    expect(await sticky(stub, { authorization: 'Bearer page-secret' })).toBe('slow-create');
  });

  it('filters the operations by method, path and operationId, and shows the exercised ones only on request', async () => {
    const { stub, page } = await openShelf();
    await page.locator('#operations-count', { hasText: '156' }).waitFor({ timeout: 5_000 });
    // The page learns of requests through its event stream: one sent before it is live is never seen.
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    expect((await request(`${stub.url}/books/7`)).status).toBe(200);
    await page.locator('.operation.exercised').waitFor({ timeout: 5_000 });
    const cases: Array<{ filter: string; exercisedOnly: boolean; shown: string[]; count: string }> = [
      { filter: 'post', exercisedOnly: false, shown: ['POST /books'], count: '1 of 156' },
      { filter: 'withdraw', exercisedOnly: false, shown: ['DELETE /books/{id}'], count: '1 of 156' },
      { filter: 'BOOKS get', exercisedOnly: false, shown: ['GET /books', 'GET /books/{id}', `GET ${LONG_PATH}`], count: '3 of 156' },
      { filter: 'thing149', exercisedOnly: false, shown: ['GET /things/n149'], count: '1 of 156' },
      { filter: 'no-such-operation', exercisedOnly: false, shown: [], count: '0 of 156' },
      { filter: '', exercisedOnly: true, shown: ['GET /books/{id}'], count: '1 of 156' },
      { filter: 'post', exercisedOnly: true, shown: [], count: '0 of 156' },
    ];
    for (const { filter, exercisedOnly, shown, count } of cases) {
      await page.fill('#operation-filter', filter);
      await page.setChecked('#exercised-only', exercisedOnly);
      expect({ filter, exercisedOnly, shown: await shownOperations(page) }).toEqual({ filter, exercisedOnly, shown });
      expect(await page.locator('#operations-count').textContent()).toBe(count);
      expect(await page.locator('#operations-empty').isVisible()).toBe(shown.length === 0);
    }
    // The filter outlives a reload of the page; `/` jumps back to it.
    await page.setChecked('#exercised-only', false);
    await page.fill('#operation-filter', 'withdraw');
    await page.reload();
    await page.locator('#operations-count', { hasText: '1 of 156' }).waitFor({ timeout: 5_000 });
    expect(await shownOperations(page)).toEqual(['DELETE /books/{id}']);
    await page.locator('h1').click();
    await page.keyboard.press('/');
    await page.keyboard.type('createbook');
    expect(await shownOperations(page)).toEqual(['POST /books']);
    await page.fill('#operation-filter', '');
    expect((await shownOperations(page)).length).toBe(156);
    // The exercised operation is marked, with its hits; the others are not.
    expect(await page.$$eval('.operation.exercised', (nodes) => nodes.map((node) => (node as HTMLElement).dataset.operation))).toEqual(['GET /books/{id}']);
    expect(await page.locator('.operation.exercised .hits').textContent()).toBe('1 hit');
  });

  it('ranks the operations the filter names exactly first: method and path, then the path', async () => {
    const file = join(dir, 'ranked.yaml');
    const ok = "{ '200': { description: ok } }";
    await writeFile(file, [
      'openapi: 3.0.3',
      'info: { title: Ranked, version: "1" }',
      'paths:',
      `  /plants/{id}/care: { get: { operationId: getCare, parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: ${ok} } }`,
      `  /plants/{id}: { get: { operationId: getPlant, parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: ${ok} } }`,
      `  /plants: { get: { operationId: listPlants, responses: ${ok} }, post: { operationId: addPlant, responses: ${ok} } }`,
      '',
    ].join('\n'));
    const { page } = await openPage({ spec: file, fixtures: join(dir, 'none'), log: () => {} });
    await page.locator('#operations-count', { hasText: '4' }).waitFor({ timeout: 5_000 });
    const cases: Array<{ filter: string; shown: string[] }> = [
      { filter: 'get /plants', shown: ['GET /plants', 'GET /plants/{id}/care', 'GET /plants/{id}'] },
      { filter: '/plants', shown: ['GET /plants', 'POST /plants', 'GET /plants/{id}/care', 'GET /plants/{id}'] },
      { filter: 'GET  /Plants/{id}', shown: ['GET /plants/{id}', 'GET /plants/{id}/care'] },
      { filter: 'getplant', shown: ['GET /plants/{id}'] },
      { filter: '', shown: ['GET /plants/{id}/care', 'GET /plants/{id}', 'GET /plants', 'POST /plants'] },
    ];
    for (const { filter, shown } of cases) {
      await page.fill('#operation-filter', filter);
      expect({ filter, shown: await shownOperations(page) }).toEqual({ filter, shown });
    }
  });

  it('shows coverage below 1% with one decimal, below 0.1% as <0.1% (never 0% of something), counts with thousands separators', async () => {
    const file = join(dir, 'many.yaml');
    const paths = Array.from({ length: 2_100 }, (_, index) => `  /n${index}: { get: { responses: { '204': { description: none } } } }`);
    await writeFile(file, ['openapi: 3.0.3', 'info: { title: Many, version: "1" }', 'paths:', ...paths, ''].join('\n'));
    const { stub, page } = await openPage({ spec: file, fixtures: join(dir, 'none'), log: () => {} });
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    const cases = [
      { calls: 1, summary: '1 of 2,100 documented responses and scenarios exercised (<0.1%)' },
      { calls: 5, summary: '5 of 2,100 documented responses and scenarios exercised (0.2%)' },
    ];
    let called = 0;
    for (const { calls, summary } of cases) {
      for (; called < calls; called++) expect((await request(`${stub.url}/n${called}`)).status).toBe(204);
      await page.locator('#coverage-summary', { hasText: `${calls} of` }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#coverage-summary').textContent()).toBe(summary);
    }
  });

  it('groups the warnings by kind with their counts, collapsed until opened', async () => {
    const { page } = await openShelf();
    await page.locator('#warnings').waitFor({ timeout: 5_000 });
    expect(await page.locator('#warning-count').textContent()).toBe('3');
    const groups = page.locator('#warning-groups details');
    expect(await groups.locator('summary .kind').allTextContents()).toEqual(['nullable without type', 'empty enum']);
    expect(await groups.locator('summary .count').allTextContents()).toEqual(['×2', '×1']);
    expect(await groups.first().locator('summary .reason').textContent()).toContain('or null');
    expect(await page.locator('#warning-groups details[open]').count()).toBe(0);
    expect(await page.locator('.warning-list li').count()).toBe(0);
    await groups.first().locator('summary').click();
    // The page lists a group's pointers when it opens; on a busy machine that is not at once.
    await groups.first().locator('li code').first().waitFor({ timeout: 5_000 });
    expect(await groups.first().locator('li code').allTextContents()).toEqual([
      '/components/schemas/Book/properties/owner/nullable',
      '/components/schemas/Book/properties/editor/nullable',
    ]);
    expect(await groups.nth(1).locator('li').isVisible()).toBe(false);
  });

  it('says on a group of warnings with different reasons what the stub does about them all, each reason in the list', async () => {
    const file = join(dir, 'patterns.yaml');
    const lookaround = (name: string, pattern: string) => `{ name: ${name}, in: query, schema: { type: string, pattern: '${pattern}' } }`;
    await writeFile(file, [
      'openapi: 3.0.3', 'info: { title: Patterns, version: "1" }', 'paths:',
      `  /words: { get: { parameters: [${lookaround('a', '^(?!x)')}, ${lookaround('b', '^(?=y)')}], responses: { '204': { description: none } } } }`, '',
    ].join('\n'));
    const { page } = await openPage({ spec: file, fixtures: join(dir, 'none'), log: () => {} });
    const group = page.locator('#warning-groups details[data-kind="unsupported pattern"]');
    await group.waitFor({ timeout: 5_000 });
    expect(await group.locator('summary .count').textContent()).toBe('×2');
    expect(await group.locator('summary .reason').textContent()).toBe('it is not enforced');
    await group.locator('summary').click();
    await group.locator('li').first().waitFor({ timeout: 5_000 });
    expect(await group.locator('li').allTextContents()).toEqual([
      expect.stringContaining('"^(?!x)"'),
      expect.stringContaining('"^(?=y)"'),
    ]);
  });

  it('keeps the requests table within its panel at 1,024 px, in view while the operations scroll, details under the row', async () => {
    const { stub, page } = await openShelf({ width: 1024, height: 768 });
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    expect((await request(`${stub.url}${LONG_REQUEST}`)).status).toBe(200);
    const row = page.locator('#journal-rows tr.request').first();
    await row.waitFor({ timeout: 5_000 });
    const layout = await page.evaluate(() => {
      const scroll = document.getElementById('journal-scroll')!;
      const panel = document.getElementById('journal-panel')!.getBoundingClientRect();
      const cells = [...document.querySelectorAll('#journal-rows tr.request:first-child td')].map((cell) => cell.getBoundingClientRect());
      const path = document.querySelector('#journal-rows td.path') as HTMLElement;
      return {
        pageOverflows: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        tableOverflows: scroll.scrollWidth > scroll.clientWidth,
        cellsInside: cells.every((cell) => cell.left >= panel.left && cell.right <= panel.right),
        pathEllipsized: path.scrollWidth > path.clientWidth,
        pathTitle: path.title,
      };
    });
    expect(layout).toEqual({ pageOverflows: false, tableOverflows: false, cellsInside: true, pathEllipsized: true, pathTitle: LONG_REQUEST });
    // The operations list is longer than the window; scrolled to its end, the requests stay in view.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1_000);
    const panel = await page.locator('#journal-panel').boundingBox();
    expect(panel!.y).toBeGreaterThanOrEqual(0);
    expect(panel!.y).toBeLessThan(100);
    await row.click();
    const details = page.locator('#journal-rows tr.request.selected + tr.details-row');
    expect(await details.locator('#details-title').textContent()).toBe(`GET ${LONG_REQUEST} → 200 (generated)`);
    expect(await details.locator('#details-response dd').nth(1).textContent()).toBe('data generated from the response schema');
    const box = await details.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(768);
  });
});
