// A page with the stub inside (MSW's service worker in Debian's chromium) downloads only what its
// document needs: the page's script is bundled as application bundlers do (esbuild, split at
// dynamic imports) and the test's static server notes each chunk the page asks for. A JSON
// document given as an object loads no YAML reader, no qs and no Handlebars, and its token-cursor
// list pages through to the end in the browser (the engine uses web APIs only); the same document
// as YAML text with a form and a templated fixture loads each of them, and answers alike.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install chromium`);
if (!haveBrowser) console.log(`page loading tests skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`);

const ROOT = join(import.meta.dirname, '..');

/** A Box-like folder listing paged by a `marker` token, and a form that takes bracketed fields. */
const WITH_FORM = {
  openapi: '3.0.3',
  info: { title: 'Files', version: '1' },
  paths: {
    '/files': {
      get: {
        parameters: [{ name: 'marker', in: 'query', schema: { type: 'string' } }, { name: 'limit', in: 'query', schema: { type: 'integer', default: 2 } }],
        responses: {
          '200': {
            description: 'files',
            content: { 'application/json': { schema: { type: 'object', properties: { entries: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } }, next_marker: { type: 'string', nullable: true } } } } },
          },
        },
      },
    },
    '/labels': {
      post: {
        operationId: 'addLabel',
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, metadata: { type: 'object', additionalProperties: { type: 'string' } } } } } } },
        responses: { '201': { description: 'added', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, metadata: { type: 'object', additionalProperties: { type: 'string' } } } } } } } },
      },
    },
  },
};

/** The listing alone, as an object. */
const DOCUMENT = { ...WITH_FORM, paths: { '/files': WITH_FORM.paths['/files'] } };

/** The listing and the form in YAML (flow style inside block style: not JSON text). */
const YAML_DOCUMENT = `openapi: 3.0.3\n${Object.entries(WITH_FORM).filter(([key]) => key !== 'openapi').map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join('\n')}\n`;

/** A fixture whose body is a template: only it needs the template engine. */
const TEMPLATED = 'operation: addLabel\nscenarios:\n  named:\n    status: 201\n    body: { name: "label {{request.body.name}}" }\n';

/** The page's script: MSW started with the stub's handlers for `options` (source text), then a flag. */
function entry(options: string): string {
  return `
import { setupWorker } from 'msw/browser';
import { openApiHandlers } from 'plant-store-stub/msw';
const worker = setupWorker();
await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
worker.use(...await openApiHandlers({ ...${options}, baseUrl: '/api' }));
window.mocksStarted = true;
`;
}

interface Site {
  server: Server;
  url: string;
  /** The package each chunk of the script is mostly made of (or `ours`), by file name. */
  madeOf: Map<string, string>;
  /** The script files the page asked for. */
  requested: Set<string>;
}

/** The package most of a chunk's bytes come from. */
function largestPart(inputs: Metafile['outputs'][string]['inputs']): string {
  const byPackage = new Map<string, number>();
  for (const [file, input] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'ours';
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  return [...byPackage].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'ours';
}

async function startSite(options: string): Promise<Site> {
  const bundled = await build({
    stdin: { contents: entry(options), resolveDir: ROOT, loader: 'js', sourcefile: 'page.js' },
    bundle: true, splitting: true, outdir: '/page', entryNames: 'page', platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true,
    nodePaths: [join(ROOT, 'node_modules')], alias: { 'plant-store-stub/msw': join(ROOT, 'src', 'msw.ts') },
  });
  const files = new Map(bundled.outputFiles.map((file) => [`/${basename(file.path)}`, file.text]));
  const madeOf = new Map(Object.entries(bundled.metafile.outputs).map(([file, output]) => [`/${basename(file)}`, largestPart(output.inputs)]));
  files.set('/mockServiceWorker.js', await readFile(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), 'utf8'));
  const requested = new Set<string>();
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><title>files</title><script type="module" src="/page.js"></script>');
    const body = files.get(url);
    if (body === undefined) return res.writeHead(404).end();
    requested.add(url);
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, madeOf, requested };
}

/** What the page loaded, by the package each chunk is made of. */
const loadedParts = (site: Site) => [...site.requested].map((file) => site.madeOf.get(file)).filter((part) => part !== undefined);

/** Follows the listing's next_marker in the page until there is none (at most 10 pages). */
function pagesInPage(page: Page): Promise<Array<{ status: number; markerSent: string | null; next: string | null; count: number }>> {
  return page.evaluate(async () => {
    const pages = [];
    let marker: string | null = null;
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`/api/files?limit=2${marker === null ? '' : `&marker=${encodeURIComponent(marker)}`}`);
      const body: { entries: unknown[]; next_marker?: string | null } = await response.json();
      pages.push({ status: response.status, markerSent: marker, next: body.next_marker ?? null, count: body.entries.length });
      if (!body.next_marker) break;
      marker = body.next_marker;
    }
    return pages;
  });
}

function postForm(page: Page, form: string, scenario?: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async ({ form, scenario }) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (scenario) headers['x-mock-scenario'] = scenario;
    const response = await fetch('/api/labels', { method: 'POST', headers, body: form });
    return { status: response.status, body: await response.json() };
  }, { form, scenario });
}

describe.skipIf(!haveBrowser)('a page loads the parts of the stub its document needs', () => {
  let browser: Browser;
  let plain: Site;
  let full: Site;
  let plainPage: Page;
  let fullPage: Page;

  beforeAll(async () => {
    plain = await startSite(`{ document: ${JSON.stringify(DOCUMENT)} }`);
    full = await startSite(`{ document: ${JSON.stringify(YAML_DOCUMENT)}, fixtures: [${JSON.stringify(TEMPLATED)}] }`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    [plainPage, fullPage] = await Promise.all([browser.newPage(), browser.newPage()]);
    for (const [page, site] of [[plainPage, plain], [fullPage, full]] as const) {
      await page.goto(`${site.url}/`);
      await page.waitForFunction(() => (window as unknown as { mocksStarted?: boolean }).mocksStarted === true, undefined, { timeout: 30_000 });
    }
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    for (const site of [plain, full]) if (site) await new Promise((resolve) => site.server.close(resolve));
  });

  it('a document given as an object, without forms or templates, loads neither the YAML reader, nor qs, nor Handlebars', () => {
    const parts = loadedParts(plain);
    // The generator is every document's; faker is here for the items' `name` (a name faker reads).
    expect(parts).toContain('json-schema-faker');
    for (const unneeded of ['js-yaml', 'qs', 'handlebars', 're2js', 'fast-xml-parser', 'jsonpath-plus']) expect(parts).not.toContain(unneeded);
  });

  it('a YAML document with a form and a templated fixture loads the YAML reader, qs and Handlebars', () => {
    const parts = loadedParts(full);
    for (const needed of ['js-yaml', 'qs', 'handlebars']) expect(parts).toContain(needed);
  });

  it.each([['an object', () => plainPage], ['YAML text', () => fullPage]])('a token-cursor list pages to its end in the browser, the document given as %s', async (_given, page) => {
    const pages = await pagesInPage(page());
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.length).toBeLessThan(10);
    expect(pages.every((each) => each.status === 200 && each.count > 0)).toBe(true);
    // Each page's marker is the one the page before handed out; the last hands out none.
    expect(pages.slice(1).map((each) => each.markerSent)).toEqual(pages.slice(0, -1).map((each) => each.next));
    expect(pages.at(-1)!.next).toBeNull();
  });

  it('a form with bracketed fields is read into its object', async () => {
    expect(await postForm(fullPage, 'name=urgent&metadata[team]=ops')).toEqual({ status: 201, body: { name: 'urgent', metadata: { team: 'ops' } } });
    const refused = await postForm(fullPage, 'metadata[team]=ops');
    expect(refused.status).toBe(400);
  });

  it('a templated fixture renders from the request in the browser', async () => {
    expect(await postForm(fullPage, 'name=urgent', 'named')).toEqual({ status: 201, body: { name: 'label urgent' } });
  });
});
