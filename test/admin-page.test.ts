// The admin page in a real browser (Debian's chromium through playwright-core): requests appear
// live, a scenario is made sticky and cleared from the page, coverage is shown, and with an admin
// token the page asks for it.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { JSON_HEADERS } from './helpers/plant.js';

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
// CI installs chromium (.ci/run); there a missing browser is a failure, elsewhere a skipped test.
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`admin page browser tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

let browser: Browser;
const stubs: RunningStub[] = [];

beforeAll(async () => {
  if (!haveBrowser) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'], // playwright gives each launch a fresh profile
  });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(stubs.map((stub) => stub.close()));
});

async function openPage(options: Parameters<typeof startStub>[0] = {}): Promise<{ stub: RunningStub; page: Page }> {
  const stub = await startStub({ port: 0, watch: false, ...options });
  stubs.push(stub);
  const page = await browser.newPage();
  await page.goto(`${stub.url}/__admin/`);
  return { stub, page };
}

const postPlant = (stub: RunningStub, headers: Record<string, string> = {}) =>
  request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: '{"id":1,"name":"Fern"}' });

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
    const row = page.locator('#journal-rows tr', { hasText: 'duplicate-id' });
    await row.waitFor({ timeout: 5_000 });
    expect(await row.locator('td').allTextContents()).toEqual([expect.any(String), 'POST', '/plants', '400', 'duplicate-id', expect.stringMatching(/^\d+\.\d$/)]);
    await row.click();
    expect(await page.locator('#details-title').textContent()).toBe('POST /plants → 400 (duplicate-id)');
    expect(await page.locator('#details-headers').textContent()).toContain('"authorization": "Bearer [redacted]"');
    expect(JSON.parse((await page.locator('#details-body').textContent())!)).toEqual({ id: 1, name: 'Fern' });
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
    expect(await page.locator('#journal-rows tr').count()).toBe(200);
  });

  it('asks for the admin token when the stub has one, then works with it', async () => {
    const { stub, page } = await openPage({ adminToken: 'page-secret' });
    await page.locator('#token-form').waitFor({ timeout: 5_000 });
    await page.fill('#token', 'page-secret');
    await page.click('#token-form button');
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 5_000 });
    await postPlant(stub);
    await page.locator('#journal-rows tr', { hasText: 'echo' }).waitFor({ timeout: 1_000 });
    await page.locator('li[data-scenario="slow-create"] button').click();
    await page.locator('#sticky-banner', { hasText: 'slow-create' }).waitFor({ timeout: 5_000 });
    expect(await sticky(stub, { authorization: 'Bearer page-secret' })).toBe('slow-create');
  });
});
