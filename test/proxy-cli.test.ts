// docs/proxy.md, run: its command line (with the test upstream as the target), its requests, and
// the log lines and journal entry it prints, against the built CLI.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { AUTH_HEADERS } from './helpers/plant.js';
import { codeBlocks } from './helpers/doc-examples.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { startDriftingUpstream, type DriftingUpstream } from './helpers/drifting-upstream.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
const PAGE = 'proxy.md';
const blocks = await codeBlocks(PAGE);
const block = (starts: string) => blocks.find(({ text }) => text.startsWith(starts))!.text;

let upstream: DriftingUpstream;
let cli: StartedCli;
beforeAll(async () => {
  upstream = await startDriftingUpstream();
  // The page's command, pointed at the test's document and upstream, on a free port.
  const args = block('plant-store-stub ').trim().split(/\s+/).slice(1)
    .map((arg) => arg === 'openapi.yaml' ? SPEC : arg === 'https://staging.example.com/v2' ? upstream.url : arg);
  cli = await startCli([...args, '--port', '0', '--fixtures', join(import.meta.dirname, 'no-such-fixtures'), '--no-watch']);
});
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
      await request(`${cli.url}${path}`, { method, headers: { ...AUTH_HEADERS, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
    }
    const logged = () => cli.stdout().split('\n').filter((line) => /^(GET|POST|DELETE) /.test(line)).map((line) => line.replace(/ \d+\.\dms/, ' 0.0ms'));
    await expect.poll(logged).toHaveLength(expected.length);
    expect(logged()).toEqual(expected);
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
