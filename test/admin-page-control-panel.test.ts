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
    await expect.poll(() => operation('GET /orders').locator('.problem').textContent()).toMatch(/the scenario does not fit the document; nothing was added: \/delay: must be a whole number of milliseconds from 0 to 60000/);
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
});
