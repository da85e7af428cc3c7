// The stub inside a web page: what `plant-store-stub/msw` costs a page (the esbuild bundle,
// minified and gzipped, msw itself aside) and how long a page takes from navigation to its first
// answer from the stub (MSW's service worker registered and started, the document fetched and
// compiled, one fetch answered), in Debian's chromium, for the Plant Store and GitHub's document.
// Run by bench/run.js, or alone after a build: `node bench/in-the-page.js`.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fmt, table } from './lib.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CHROMIUM = '/usr/bin/chromium';
const GITHUB = path.join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'api.github.com.json');
const SPAWNS = 5;

/**
 * The one library imported (dynamically) for every document: the data generator. Every other
 * dynamic import is for documents or options that need it: faker (`x-faker`, a name faker reads),
 * RE2 (`pattern`), the XML writer, qs (urlencoded forms), the YAML reader (text that is not
 * JSON), Handlebars (templated fixtures), overlays, several documents.
 */
const ALWAYS = new Set(['json-schema-faker']);

/**
 * Bundles `source` (an entry module's text, resolved from the repository) for a browser, as an
 * application's bundler does: dynamic imports become chunks fetched when first imported. Returns
 * the files by name, what every document loads (the entry, its static imports, the chunks always
 * imported), and the chunks only some documents load.
 */
async function bundle(source, external = []) {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'js', sourcefile: 'entry.js' },
    bundle: true, splitting: true, outdir: '/out', entryNames: 'page', platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent', metafile: true, external,
  });
  const files = new Map(result.outputFiles.map((file) => [`/${path.basename(file.path)}`, file.contents]));
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([file, output]) => [`/${path.basename(file)}`, output]));
  const atOnce = new Set(['/page.js']);
  for (const name of atOnce) for (const imported of outputs[name].imports) if (imported.kind === 'import-statement' && !imported.external) atOnce.add(`/${path.basename(imported.path)}`);
  const sizes = (names) => {
    const bytes = names.map((name) => files.get(name));
    return { minified: bytes.reduce((sum, b) => sum + b.length, 0), gzipped: bytes.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0) };
  };
  for (const name of files.keys()) if (ALWAYS.has(largestInputs(outputs[name].inputs, 1)[0]?.[0])) atOnce.add(name);
  const onDemand = [...files.keys()].filter((name) => !atOnce.has(name));
  const inputs = Object.assign({}, ...Object.values(outputs).map((output) => output.inputs));
  return { files, atOnce: sizes([...atOnce]), onDemand: onDemand.map((name) => ({ name, ...sizes([name]), packages: largestInputs(outputs[name].inputs, 2) })), inputs };
}

/** The bytes each package (or our dist/) adds to the minified output, largest first. */
function largestInputs(inputs, count) {
  const byPackage = new Map();
  for (const [file, input] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? 'plant-store-stub (dist/)';
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  return [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The page's script: start MSW with the stub's handlers, answer one request, note when it came. */
function pageSource({ document, fixtures, request }) {
  return `
import { setupWorker } from 'msw/browser';
import { openApiHandlers } from './dist/msw.js';
// As docs/runtimes.md starts it: the worker registers while the document is fetched and compiled.
const worker = setupWorker();
const started = worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
const text = (path) => fetch(path).then((response) => response.text());
const [document, ...fixtures] = await Promise.all([${JSON.stringify(document)}, ...${JSON.stringify(fixtures)}].map(text));
worker.use(...await openApiHandlers({ document, fixtures, baseUrl: '/api', log: () => {} }));
await started;
const response = await fetch('/api' + ${JSON.stringify(request.path)}, ${JSON.stringify(request.init)});
await response.arrayBuffer();
window.firstAnswer = { ms: performance.now(), status: response.status, scenario: response.headers.get('x-mock-scenario') };
`;
}

/** The reference: MSW alone with one hand-written handler, the floor any MSW page pays (worker registration, msw's script). */
const MSW_ALONE = `
import { setupWorker } from 'msw/browser';
import { http, HttpResponse } from 'msw';
await setupWorker(http.post('/api/plants', () => HttpResponse.json({ name: 'Fern' }, { headers: { 'x-mock-scenario': 'hand-written' } }))).start({ quiet: true, onUnhandledRequest: 'bypass' });
const response = await fetch('/api/plants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Fern"}' });
await response.arrayBuffer();
window.firstAnswer = { ms: performance.now(), status: response.status, scenario: response.headers.get('x-mock-scenario') };
`;

/** A static site on 127.0.0.1: the page, its script, MSW's worker, and the files it fetches. */
async function startSite(scripts, files, requested) {
  const served = {
    '/': ['text/html', '<!DOCTYPE html><title>bench</title><script type="module" src="/page.js"></script>'],
    ...Object.fromEntries([...scripts].map(([name, bytes]) => [name, ['text/javascript', bytes]])),
    '/mockServiceWorker.js': ['text/javascript', readFileSync(path.join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'))],
    ...files,
  };
  const server = createServer((req, res) => {
    requested.add(req.url);
    const file = served[req.url];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Navigation to first answer, in a fresh browser context each time (no worker registered yet). */
async function firstAnswers(browser, url) {
  const times = [];
  let last = null;
  for (let i = 0; i < SPAWNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    last = await page.waitForFunction(() => window.firstAnswer, undefined, { timeout: 60_000 }).then((handle) => handle.jsonValue());
    times.push(last.ms);
    await context.close();
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], best: times[0], last };
}

export async function runInThePage(progress = () => {}) {
  const lines = ['## The stub inside a web page (plant-store-stub/msw, MSW 2 in chromium)', ''];
  if (!existsSync(path.join(ROOT, 'dist', 'msw.js'))) return [...lines, 'skipped: dist/msw.js not built (npm run build)'].join('\n');
  progress('bundling plant-store-stub/msw for a browser');
  const ours = await bundle("export { openApiHandlers } from './dist/msw.js';", ['msw', 'msw/*']);
  const withMsw = await bundle("export { openApiHandlers } from './dist/msw.js'; export { setupWorker } from 'msw/browser';");
  const fetchOnly = await bundle("export { createFetchHandler } from './dist/fetch.js';");
  const plantYaml = readFileSync(path.join(ROOT, 'openapi.yaml'));
  const kb = (n) => fmt.int(n / 1024);
  lines.push(
    'esbuild, platform browser, minified, split at dynamic imports as application bundlers do; gzip level 9. ' +
      '"Every document" is what any page loads; the other chunks load only for a document that needs them ' +
      '(faker for `x-faker` or a name faker reads, RE2 for `pattern`s, the XML writer for XML media types, qs for urlencoded forms, ' +
      'the YAML reader for a document or fixture given as text that is not JSON, Handlebars for templated fixtures, the overlay reader, several documents\' merger). ' +
      '"msw aside": msw external, our code and its dependencies only.',
    '',
    table(['bundle', 'every document, minified KB', 'every document, gzipped KB', 'only if needed, gzipped KB'], [
      ['plant-store-stub/msw, msw aside', kb(ours.atOnce.minified), kb(ours.atOnce.gzipped), ours.onDemand.map((c) => `${kb(c.gzipped)} (${c.packages[0][0]})`).join(', ')],
      ['plant-store-stub/fetch', kb(fetchOnly.atOnce.minified), kb(fetchOnly.atOnce.gzipped), fetchOnly.onDemand.map((c) => kb(c.gzipped)).join(', ')],
      ['plant-store-stub/msw with msw/browser', kb(withMsw.atOnce.minified), kb(withMsw.atOnce.gzipped), withMsw.onDemand.map((c) => kb(c.gzipped)).join(', ')],
      ['the Plant Store document (fetched by the page, not bundled)', kb(plantYaml.length), kb(gzipSync(plantYaml).length), ''],
    ], 'lrrr'),
    '',
    `Largest parts of the "msw aside" bundle (minified bytes in the output): ${largestInputs(ours.inputs, 7).map(([name, bytes]) => `${name} ${kb(bytes)} KB`).join(', ')}.`,
    '',
  );
  if (!existsSync(CHROMIUM)) return [...lines, `First answer: skipped, no ${CHROMIUM} (apt-get install chromium).`].join('\n');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const rows = [];
  try {
    const documents = [
      { name: 'reference: MSW alone, one hand-written handler', source: MSW_ALONE, files: {} },
      {
        name: 'Plant Store, POST /plants',
        page: { document: '/openapi.yaml', fixtures: ['/fixtures/create-plant.yaml'], request: { path: '/plants', init: { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id":1,"name":"Fern"}' } } },
        files: { '/openapi.yaml': ['text/yaml', plantYaml], '/fixtures/create-plant.yaml': ['text/yaml', readFileSync(path.join(ROOT, 'fixtures', 'create-plant.yaml'))] },
      },
      ...(existsSync(GITHUB) ? [{
        name: "GitHub's document (1,223 operations, 13 MB), GET /zen",
        page: { document: '/github.json', fixtures: [], request: { path: '/zen', init: {} } },
        files: { '/github.json': ['application/json', readFileSync(GITHUB)] },
      }] : []),
    ];
    for (const { name, page, source, files } of documents) {
      progress(`first answer in chromium: ${name}`);
      const script = await bundle(source ?? pageSource(page));
      const requested = new Set();
      const site = await startSite(script.files, files, requested);
      try {
        const { median, best, last } = await firstAnswers(browser, `http://127.0.0.1:${site.address().port}/`);
        const loaded = [...script.files].filter(([file]) => requested.has(file)).reduce((sum, [, bytes]) => sum + gzipSync(bytes, { level: 9 }).length, 0);
        rows.push([name, fmt.ms(median), fmt.ms(best), `${last.status} ${last.scenario}`, kb(loaded)]);
      } catch (error) {
        rows.push([name, `failed: ${error.message.split('\n')[0]}`, '', '', '']);
      } finally {
        site.close();
      }
    }
  } finally {
    await browser.close();
  }
  lines.push(
    `Navigation to first answer: \`performance.now()\` once the page's first \`fetch\` to the stub has its body, in a fresh browser context each time (MSW's worker registered, the document fetched and compiled); ${SPAWNS} loads, median and best.`,
    '',
    table(['document', 'median ms', 'best ms', 'answer', 'scripts loaded, gzipped KB (msw included)'], rows, 'lrrlr'),
  );
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await runInThePage((text) => process.stderr.write(`[bench] ${text}\n`)));
}
