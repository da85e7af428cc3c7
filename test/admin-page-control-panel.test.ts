// The admin page as a control panel, in a real browser (Debian's chromium through playwright-core):
// forcing one of an operation's documented statuses or named examples, with a delay and a fault,
// through the same POST /__admin/scenarios a test uses; a refusal shown in the API's words; the
// forced answer cleared; and a session chosen so a tab's forcing leaves the default session alone.
// The screenshot in docs/admin-api.md is taken here (written only when the page looks different).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { post, request } from './helpers/http.js';
import { keepScreenshot } from './helpers/screenshot.js';

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`admin page browser tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

const SPEC = join(import.meta.dirname, 'specs', 'scripted-orders.yaml');
const SCREENSHOT = join(import.meta.dirname, '..', 'docs', 'images', 'admin-control-panel.png');

let browser: Browser;
let stub: RunningStub;
let page: Page;

beforeAll(async () => {
  if (!haveBrowser) return;
  stub = await startStub({ spec: SPEC, fixtures: join(import.meta.dirname, 'none'), port: 0, watch: false, log: false });
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

const operation = (key: string) => page.locator(`.operation[data-operation="${key}"]`);

/** Opens the operation's form, picks the answer and delay, and presses Force. */
async function forceOn(key: string, answer: string, delay = '') {
  const form = operation(key).locator('details.force');
  if (!(await form.evaluate((node) => (node as HTMLDetailsElement).open))) await form.locator('summary').click();
  await form.locator('select[name="answer"]').selectOption(answer);
  await form.locator('input[name="delay"]').fill(delay);
  await form.getByRole('button', { name: 'Force' }).click();
}

// A browser on a shared 2-core machine can take seconds to draw: generous bounds, never a timing claim.
describe.runIf(haveBrowser)('the admin page as a control panel', { timeout: 30_000 }, () => {
  it('forces a documented status (the stub\'s own body), shows it, and the API answers it', async () => {
    await page.waitForSelector('.operation[data-operation="GET /orders/{id}"] details.force');
    await forceOn('GET /orders/{id}', 'status:503', '5-10');
    await expect.poll(() => operation('GET /orders/{id}').locator('.pill.forced').textContent()).toMatch(/^forced 503/);
    await expect.poll(() => page.textContent('#forced-banner')).toBe('1 operation forced');
    const answer = await request(`${stub.url}/orders/1`);
    expect(answer.status).toBe(503);
    expect(typeof answer.json.message).toBe('string');
    const entry = stub.requests().at(-1)!;
    expect(entry.delayMs).toBeGreaterThanOrEqual(5);
    expect(entry.delayMs).toBeLessThanOrEqual(10);
  });

  it('forces a named example on a second operation, both forced at once', async () => {
    await forceOn('POST /orders', 'example:201:standard');
    await expect.poll(() => page.textContent('#forced-banner')).toBe('2 operations forced');
    const created = await post(`${stub.url}/orders`, { id: 9, owner: { name: 'Cy' } }, { 'content-type': 'application/json' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 2, owner: 'Bo', status: 'queued' });
    keepScreenshot(SCREENSHOT, await page.screenshot({ clip: { x: 0, y: 0, width: 1280, height: 560 } }));
  });

  it('shows the API\'s refusal for what does not fit, and forces nothing', async () => {
    await forceOn('GET /orders', 'status:200', '900000');
    await expect.poll(() => operation('GET /orders').locator('.problem').textContent()).toMatch(/the scenario does not fit the document; nothing was added: \/delay: must be a whole number from 0 to 60000, got 900000/);
    expect((await request(`${stub.url}/orders`)).status).toBe(200);
    expect(await operation('GET /orders').locator('.pill.forced').count()).toBe(0);
  });

  it('clears a forced answer', async () => {
    await operation('GET /orders/{id}').locator('.pill.forced button').click();
    await expect.poll(() => operation('GET /orders/{id}').locator('.pill.forced').count()).toBe(0);
    expect((await request(`${stub.url}/orders/1`)).status).toBe(200);
  });

  it('forces for a chosen session only', async () => {
    await post(`${stub.url}/__admin/scenarios?session=tab-2`, { operation: 'GET /orders', status: 500 }, { 'content-type': 'application/json' });
    await expect.poll(() => page.isVisible('#session-picker'), { timeout: 10_000 }).toBe(true);
    await page.selectOption('#session', 'tab-2');
    await expect.poll(() => operation('GET /orders').locator('.pill.forced').textContent()).toMatch(/^forced 500/);
    await forceOn('GET /orders/{id}', 'status:404');
    await expect.poll(async () => (await request(`${stub.url}/orders/3`, { headers: { 'x-mock-session': 'tab-2' } })).status).toBe(404);
    expect((await request(`${stub.url}/orders/3`)).status).toBe(200);
    await page.selectOption('#session', 'default');
    await expect.poll(() => operation('GET /orders/{id}').locator('.pill.forced').count()).toBe(0);
  });

  it('tries an operation: a form from the document, the request sent, the answer beside it', async () => {
    await page.selectOption('#session', 'default');
    await operation('POST /orders').getByRole('button', { name: 'Try it' }).click();
    const panel = page.locator('.try-panel[data-try="POST /orders"]');
    // Prefilled with the request example, which the document pairs with the response example of its name.
    expect(JSON.parse(await panel.locator('textarea').inputValue())).toEqual({ id: 1, owner: { name: 'Ada' }, items: [{ sku: 'R-1' }], rush: true });
    await operation('POST /orders').locator('.pill.forced button').click();
    await expect.poll(() => operation('POST /orders').locator('.pill.forced').count()).toBe(0);
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.locator('.try-answer h4').textContent()).toMatch(/^answer: 201 in [\d.]+ ms$/);
    expect(await panel.locator('.try-answer pre').textContent()).toContain('"status": "expedited"');
    expect(await panel.locator('.try-request pre').textContent()).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/orders\ncontent-type: application\/json/);
  });
});

describe('GET /__admin/try', () => {
  it.runIf(haveBrowser)('describes an operation\'s parameters, body and credential; 404 for one the document lacks', async () => {
    const described = await request(`${stub.url}/__admin/try?operation=getOrder`);
    expect(described.status).toBe(200);
    expect(described.json).toEqual({ operation: 'GET /orders/{id}', method: 'GET', path: '/orders/{id}', parameters: [{ name: 'id', in: 'path', required: true, value: '1' }], body: null, credential: null });
    const missing = await request(`${stub.url}/__admin/try?operation=${encodeURIComponent('GET /nothing')}`);
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toBe('the document has no operation "GET /nothing"; name it as METHOD /path or by its operationId');
  });

  it('prefills the Plant Store\'s body with valid generated data and its bearer credential', async () => {
    const plantStore = await startStub({ spec: join(import.meta.dirname, '..', 'openapi.yaml'), fixtures: join(import.meta.dirname, 'none'), port: 0, watch: false, log: false, tokens: ['s3cret'], adminToken: 'adm' });
    try {
      const described = (await request(`${plantStore.url}/__admin/try?operation=${encodeURIComponent('POST /plants')}`, { headers: { authorization: 'Bearer adm' } })).json;
      expect(described.credential).toEqual({ in: 'header', name: 'authorization', value: 'Bearer s3cret' });
      expect(described.body.contentType).toBe('application/json');
      const sent = await post(`${plantStore.url}/plants`, described.body.text, { 'content-type': 'application/json', authorization: described.credential.value });
      expect(sent.status).toBe(200);
    } finally {
      await plantStore.close(500);
    }
  });

  it('never hands a --token to an admin API no admin token guards (any local page may read it)', async () => {
    const plantStore = await startStub({ spec: join(import.meta.dirname, '..', 'openapi.yaml'), fixtures: join(import.meta.dirname, 'none'), port: 0, watch: false, log: false, tokens: ['s3cret'] });
    try {
      const described = (await request(`${plantStore.url}/__admin/try?operation=${encodeURIComponent('POST /plants')}`)).json;
      expect(described.credential).toEqual({ in: 'header', name: 'authorization', value: 'Bearer <one of the --token values>' });
    } finally {
      await plantStore.close(500);
    }
  });
});
