// The admin page's stored-items panel in a real browser (Debian's chromium through
// playwright-core), on a stateful stub: a tab per resource, the items newest first with the
// store's bytes, an item edited in place (a refusal shows the stub's words and stores nothing, a
// valid edit is what the API answers next), one deleted, the resource reset to its first data.
// The screenshot in docs/admin-api.md is taken here, so the docs show the page as it is (written
// only when the page looks different: helpers/screenshot.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startStubOn, type DocumentStub } from './helpers/document-stub.js';
import { documentHead, pathParameters } from './helpers/company-shapes.js';
import { keepScreenshot } from './helpers/screenshot.js';

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`admin page browser tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

const SCREENSHOT = join(import.meta.dirname, '..', 'docs', 'images', 'admin-stored-items.png');

const DOCUMENT = `
${documentHead('Customer directory')}
  /customers:
    get:
      responses:
        '200':
          description: customers
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Customer' } }
              example: [{ id: 1, name: Ada Lovelace, email: ada@example.com }, { id: 2, name: Alan Turing, email: alan@example.com }]
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } } }
  /customers/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: a customer, content: { application/json: { schema: { $ref: '#/components/schemas/Customer' } } } }
        '404': { description: none }
  /orders:
    post:
      requestBody: { content: { application/json: { schema: { type: object, properties: { id: { type: integer }, total: { type: number } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, total: { type: number } } } } } } }
  /orders/{id}:
    ${pathParameters('id')}
    get:
      responses:
        '200': { description: an order, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, total: { type: number } } } } } }
components:
  schemas:
    Customer:
      type: object
      required: [name]
      properties: { id: { type: integer, minimum: 1 }, name: { type: string, minLength: 1 }, email: { type: string } }
`;

let browser: Browser;
let stub: DocumentStub;
let page: Page;

beforeAll(async () => {
  if (!haveBrowser) return;
  stub = await startStubOn(DOCUMENT, { stateful: true, seedItems: 3 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${stub.url}/__admin/`);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await stub?.close();
});

const shownIds = () => page.$$eval('#items .item', (nodes) => nodes.map((node) => (node as HTMLElement).dataset.id));

// A browser on a shared 2-core machine can take seconds to draw: generous bounds, never a timing claim.
describe.runIf(haveBrowser)('the stored items on the admin page', { timeout: 30_000 }, () => {
  it('shows a tab per resource and the items newest first, with the store\'s bytes', async () => {
    await page.waitForSelector('#stored-items:not([hidden]) #items .item');
    expect(await page.$$eval('#resource-tabs .tab', (tabs) => tabs.map((tab) => tab.textContent))).toEqual(['customers', 'orders']);
    expect(await shownIds()).toEqual(['5', '4', '3', '2', '1']);
    expect(await page.textContent('#items-summary')).toMatch(/^5 items in \/customers, newest first; the store holds \d+ B of 32\.0 MiB$/);
    keepScreenshot(SCREENSHOT, await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 420 } }));
  });

  it('shows the stub\'s refusal for an edit that breaks the schema, and stores a valid one', async () => {
    const row = page.locator('#items .item[data-id="2"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.locator('textarea').fill('{"id": 2, "name": ""}');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('.item-problem').textContent()).toBe('the item does not fit the document; nothing was stored\n/name: must NOT have fewer than 1 characters');
    expect((await request(`${stub.url}/customers/2`)).json.name).toBe('Alan Turing');
    await row.locator('textarea').fill('{"id": 2, "name": "Alan M. Turing", "email": "alan@example.com"}');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await request(`${stub.url}/customers/2`)).json).toEqual({ id: 2, name: 'Alan M. Turing', email: 'alan@example.com' });
    await expect.poll(() => page.locator('#items .item[data-id="2"] .item-json').textContent()).toBe('{"id":2,"name":"Alan M. Turing","email":"alan@example.com"}');
  });

  it('deletes an item, and resets the resource to its first data', async () => {
    await page.locator('#items .item[data-id="5"]').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(shownIds).toEqual(['4', '3', '2', '1']);
    expect((await request(`${stub.url}/customers/5`)).status).toBe(404);
    await page.click('#items-reset');
    await expect.poll(async () => (await request(`${stub.url}/customers/2`)).json.name).toBe('Alan Turing');
    await expect.poll(shownIds).toEqual(['5', '4', '3', '2', '1']);
  });

  it('switches resources by tab', async () => {
    await request(`${stub.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": 40, "total": 12.5}' });
    await page.click('#resource-tabs .tab:text("orders")');
    await expect.poll(shownIds).toContain('40');
    expect(await page.textContent('#items-summary')).toMatch(/ in \/orders, newest first;/);
  });
});
