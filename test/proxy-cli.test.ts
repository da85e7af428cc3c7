// docs/proxy.md, run: its command lines (with the test upstream as the target), its requests, and
// the header, log lines, journal entry and drift table it prints, against the built CLI; then its
// --record command and the replay it describes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type TestResponse } from './helpers/http.js';
import { AUTH_HEADERS } from './helpers/plant.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { runCli, startCli, type StartedCli } from './helpers/cli.js';
import { startDriftingUpstream, type DriftingUpstream } from './helpers/drifting-upstream.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const PAGE = 'proxy.md';
const blocks = await codeBlocks(PAGE);
const block = (starts: string) => blocks.find(({ text }) => text.startsWith(starts))!.text;

let upstream: DriftingUpstream;
let cli: StartedCli;
/** The answers to the page's requests, by the line that sends them. */
const answers = new Map<string, TestResponse>();
beforeAll(async () => {
  upstream = await startDriftingUpstream();
  cli = await startCli(pageCommand(block('plant-store-stub ')));
});

/** The page's command, pointed at the test's document, upstream and `recorded` folder, on a free port, without fixtures unless it names some. */
function pageCommand(line: string, recorded = ''): string[] {
  const args = line.trim().split(/\s+/).slice(1)
    .map((arg) => arg === 'openapi.yaml' ? SPEC : arg === 'https://staging.example.com/v2' ? upstream.url : arg === 'recorded/' ? recorded : arg);
  return [...args, '--port', '0', '--no-watch', ...(args.includes('--fixtures') ? [] : ['--fixtures', join(import.meta.dirname, 'no-such-fixtures')])];
}
afterAll(async () => {
  await cli?.stop();
  await upstream?.close();
});

/** `GET /plants/2` or `POST /plants {"name":"Teapot"}`, as the page's log lines begin. */
function parse(line: string): { method: string; path: string; body?: string } {
  const [, method, path, body] = /^(\S+) (\S+)(?: (\{.*\}))?/.exec(line)!;
  return { method, path, body };
}

describe('docs/proxy.md', () => {
  it('the requests of the page give the log lines it prints (durations aside)', async () => {
    const expected = block('GET /plants/1 ').trim().split('\n');
    for (const line of block('# requests\n').trim().split('\n').slice(1)) {
      const { method, path, body } = parse(line);
      answers.set(line, await request(`${cli.url}${path}`, { method, headers: { ...AUTH_HEADERS, ...(body ? { 'content-type': 'application/json' } : {}) }, body }));
    }
    const logged = () => cli.stdout().split('\n').filter((line) => /^(GET|POST|DELETE) /.test(line)).map((line) => line.replace(/ \d+\.\dms/, ' 0.0ms'));
    await expect.poll(logged).toHaveLength(expected.length);
    expect(logged()).toEqual(expected);
  });

  it('the X-Mock-Violations line the page prints is the header of POST /plants {"name":"Teapot"}', async () => {
    const [name, value] = block('X-Mock-Violations: ').trim().split(/: (.*)/);
    expect(answers.get('POST /plants {"name":"Teapot"}')?.headers.get(name)).toBe(value);
  });

  it('the journal entry the page prints is the one of POST /plants {"name":"Teapot"}', async () => {
    const shown = JSON.parse(block('{\n  "method": "POST"')) as Record<string, unknown>;
    const response = await request(`${cli.url}/__admin/requests?method=POST`);
    const entry = response.json.requests.find((e: { body: { name: string } }) => e.body?.name === 'Teapot');
    const { time: _time, durationMs: _ms, headers: _headers, target: _target, ...rest } = shown;
    expect(entry).toMatchObject(rest);
    expect(entry.target).toBe(`${upstream.url}/plants`);
  });
  it('at shutdown the drift table the page prints follows the coverage table', async () => {
    const { stdout } = await cli.stop();
    const table = block('drift between the document and ').trim().replace('https://staging.example.com/v2', upstream.url);
    expect(stdout).toContain(table);
  });
});

describe('docs/proxy.md, --record and the replay', () => {
  it('the --record command writes GET /plants/1 as a fixture, and the replay command answers it offline with the recorded body', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stub-record-cli-'));
    try {
      const recording = await startCli(pageCommand(blocks.find(({ text }) => text.includes('--record recorded/'))!.text, dir));
      const live = await request(`${recording.url}/plants/1`, { headers: AUTH_HEADERS });
      await recording.stop(); // files are written at shutdown at the latest
      expect(await readFile(join(dir, 'get-plant.yaml'), 'utf8')).toContain('  get-plant-1:\n');
      const replayLine = /`(plant-store-stub --spec openapi\.yaml --fixtures recorded\/)`/.exec(await readFile(join(import.meta.dirname, '..', 'docs', PAGE), 'utf8'))![1];
      const replay = await startCli(pageCommand(replayLine, dir));
      try {
        const replayed = await request(`${replay.url}/plants/1`, { headers: AUTH_HEADERS });
        expect([replayed.status, replayed.json, replayed.headers.get('x-mock-scenario')]).toEqual([live.status, live.json, 'get-plant-1']);
      } finally {
        await replay.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the proxy flags refuse what cannot work, in one line and exit code 2', () => {
  it.each([
    [['--proxy', 'ftp://example.com'], '--proxy: must be an http:// or https:// URL, got ftp://example.com'],
    [['--proxy', 'http://127.0.0.1:9', '--proxy-timeout', '0'], '--proxy-timeout: must be a whole number from 1 to 600000, got 0'],
    [['--proxy', 'http://127.0.0.1:9', '--proxy-timeout', 'soon'], '--proxy-timeout: must be a whole number, got "soon"'],
    [['--record', 'recorded'], '--record: records the real API\'s answers, so it needs --proxy URL'],
    [['--proxy', 'http://127.0.0.1:9', '--record', 'recorded', '--workers', '2'], '--record: records from one process; leave out --workers (or use --workers 1)'],
  ])('%j', async (args, message) => {
    const { code, stderr } = await runCli(['--spec', SPEC, '--port', '0', '--no-watch', ...args]);
    expect([code, stderr]).toEqual([2, `plant-store-stub: ${message}\n`]);
  });
});

describe('--proxy with --workers 2', () => {
  it('GET /__admin/drift adds up every worker\'s exchanges, and so does the table at shutdown', async () => {
    const workers = await startCli([...pageCommand(block('plant-store-stub ')), '--workers', '2']);
    try {
      // Connection: close, so each request comes on a new connection, which either worker may accept.
      for (let i = 0; i < 6; i++) await request(`${workers.url}/plants/2`, { headers: { ...AUTH_HEADERS, connection: 'close' } });
      const drift = (await request(`${workers.url}/__admin/drift`)).json;
      expect(drift).toEqual({
        operations: [{ operation: 'GET /plants/{id}', exchanges: 6, fallbacks: 0, undocumentedStatuses: {}, undeclaredFields: {}, violations: { 'response /id: must be an integer': 6 } }],
        undocumented: {},
      });
      const { stdout } = await workers.stop();
      expect(stdout).toContain(`drift between the document and ${upstream.url} (GET /__admin/drift):\n  GET /plants/{id}  6 exchanges; response /id: must be an integer (6)\n`);
    } finally {
      await workers.stop();
    }
  });
});
