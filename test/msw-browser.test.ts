// MSW in a real browser (Debian's chromium through playwright-core): a page served by the test's
// own static server on 127.0.0.1 runs docs/runtimes.md's mocks.ts as printed (bundled by esbuild,
// MSW's mockServiceWorker.js beside it), and the page's fetch calls get the HTTP server's answers,
// byte for byte: the echo, every violation at once, the 401 with WWW-Authenticate, a scenario by
// header, and the rest of the runtime table.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { comparable, requestInit, COMPARED_HEADERS, PLANT_STORE_CASES, type Comparable, type RuntimeCase } from './helpers/runtime-cases.js';

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
// CI installs chromium (.ci/run); there a missing browser is a failure, elsewhere a skipped test.
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`MSW browser tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

const ROOT = join(import.meta.dirname, '..');

let browser: Browser;
let page: Page;
let site: Server;
let http: RunningStub;
let dir: string;

/** The page's script: docs/runtimes.md's mocks.ts, then a flag the test waits for. */
async function pageScript(): Promise<string> {
  const mocks = (await codeBlocks('runtimes.md')).find((block) => block.lang === 'ts' && block.text.includes("from 'msw/browser'"))!.text;
  await writeFile(join(dir, 'mocks.ts'), mocks);
  await writeFile(join(dir, 'page.ts'), "import './mocks.ts';\n(window as unknown as { mocksStarted: boolean }).mocksStarted = true;\n");
  const bundled = await build({
    entryPoints: [join(dir, 'page.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent',
    nodePaths: [join(ROOT, 'node_modules')], alias: { 'plant-store-stub/msw': join(ROOT, 'src', 'msw.ts') },
  });
  return bundled.outputFiles[0].text;
}

/** The static site: the page, its script, MSW's worker, the document and its fixture; nothing else. */
async function startSite(): Promise<Server> {
  const files: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html', body: '<!DOCTYPE html><title>plants</title><script type="module" src="/page.js"></script>' },
    '/page.js': { type: 'text/javascript', body: await pageScript() },
    '/mockServiceWorker.js': { type: 'text/javascript', body: await readFile(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), 'utf8') },
    '/openapi.yaml': { type: 'text/yaml', body: await readFile(join(ROOT, 'openapi.yaml'), 'utf8') },
    '/fixtures/create-plant.yaml': { type: 'text/yaml', body: await readFile(join(ROOT, 'fixtures', 'create-plant.yaml'), 'utf8') },
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The case sent by the page's own fetch under /api, read as the comparison reads answers. */
function fetchInPage(testCase: RuntimeCase): Promise<Comparable> {
  return page.evaluate(async ({ testCase, compared }) => {
    const body = testCase.bodyBytes ? new Uint8Array(testCase.bodyBytes) : testCase.body;
    const response = await fetch(`/api${testCase.path}`, { method: testCase.method, headers: testCase.headers ?? {}, body, redirect: 'manual' });
    const headers: Record<string, string> = {};
    for (const name of compared) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers, body: String.fromCharCode(...bytes) };
  }, { testCase, compared: COMPARED_HEADERS });
}

beforeAll(async () => {
  if (!haveBrowser) return;
  dir = await mkdtemp(join(tmpdir(), 'stub-msw-page-'));
  site = await startSite();
  http = await startStub({ spec: join(ROOT, 'openapi.yaml'), fixtures: join(ROOT, 'fixtures'), port: 0, watch: false });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => (window as unknown as { mocksStarted?: boolean }).mocksStarted === true, undefined, { timeout: 20_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await http?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!haveBrowser)("MSW's service worker in chromium with openApiHandlers", () => {
  it('answers the page with the 200 echo of a valid plant', async () => {
    const answer = await fetchInPage(PLANT_STORE_CASES[0]);
    expect(answer).toEqual({ status: 200, headers: { 'content-type': 'application/json', 'x-mock-scenario': 'echo' }, body: '{"name":"Monstera","tag":"aroid"}' });
  });

  it('answers 400 naming every violation, 401 with WWW-Authenticate, and a scenario asked for by header', async () => {
    const [invalid, unauthenticated, scenario] = await Promise.all(['answers 400 naming every violation at once', 'answers 401 with WWW-Authenticate without credentials', 'serves a scenario asked for by header']
      .map((name) => fetchInPage(PLANT_STORE_CASES.find((testCase) => testCase.name === name)!)));
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toEqual({ error: 400, message: '/name: is required; /tag: must be a string; /id: is required' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['www-authenticate']).toBe('Bearer');
    expect(scenario).toMatchObject({ status: 400, headers: { 'x-mock-scenario': 'duplicate-id' } });
    expect(JSON.parse(scenario.body)).toEqual({ error: 1001, message: 'A plant with this id already exists' });
  });

  // A path the document lacks is let through to the site (MSW's passthrough), not the stub's 404.
  it.each(PLANT_STORE_CASES.filter((testCase) => testCase.status !== 404).map((testCase) => [testCase.name, testCase] as const))('%s, with the HTTP server\'s bytes', async (_name, testCase) => {
    const overHttp = await comparable(await fetch(http.url + testCase.path, requestInit(testCase)));
    expect(await fetchInPage(testCase)).toEqual(overHttp);
  });

  it("lets a request for a path the document lacks through to the page's own server", async () => {
    // The site's own bare 404, not the stub's problem+json.
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/nothing/here');
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    });
    expect(answer).toEqual({ status: 404, type: null, body: '' });
    const own = await page.evaluate(async () => (await fetch('/openapi.yaml')).text());
    expect(own).toContain('openapi:');
  });
});
