// Corrections without editing the document: OpenAPI Overlay 1.0 files given
// with --overlay (startStub's `overlays`) change the document before it is read: an update merged
// into what its JSONPath target selects, a remove, several files in order; an action selecting
// nothing is a warning naming it; a broken overlay stops the start naming its file and pointer;
// editing an overlay reloads the stub.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, startStub, type RunningStub } from '../src/index.js';
import { post, request } from './helpers/http.js';
import { AUTH_HEADERS, JSON_HEADERS } from './helpers/plant.js';
import { runCli } from './helpers/cli.js';
import { pollUntil } from './helpers/poll.js';
import { codeBlocks } from './helpers/doc-examples.js';

const SPEC = join(import.meta.dirname, 'specs', 'plant-catalog.yaml');
let dir: string;
const started: RunningStub[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-overlays-'));
});
afterAll(async () => {
  await Promise.all(started.map((stub) => stub.close(500)));
  await rm(dir, { recursive: true, force: true });
});

async function overlayFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function start(overlays: string[], watch = false): Promise<RunningStub> {
  const stub = await startStub({ spec: SPEC, fixtures: join(dir, 'none'), port: 0, watch, log: false, overlays });
  started.push(stub);
  return stub;
}

const CORRECTIONS = `overlay: 1.0.0
info: { title: Plant catalog corrections, version: 1.0.0 }
actions:
  - target: $.info
    update: { title: Plant catalog (corrected) }
  - target: $.components.schemas.NewPlant.properties.name
    update: { maxLength: 5 }
  - target: "$.paths['/seasons']"
    remove: true
  - target: "$.paths['/trees']"
    description: written for another version of the document
    update: { summary: nothing here }
`;

describe('overlays', () => {
  it('updates and removes what their targets select, before the document is read', async () => {
    const stub = await start([await overlayFile('corrections.yaml', CORRECTIONS)]);
    expect((await request(`${stub.url}/__admin/health`)).json.spec).toBe('Plant catalog (corrected)');
    const long = await post(`${stub.url}/plants`, { name: 'Monstera' }, JSON_HEADERS);
    expect(long.status).toBe(400);
    expect(long.text).toContain('/name');
    expect((await post(`${stub.url}/plants`, { name: 'Fern' }, JSON_HEADERS)).status).toBe(201);
    expect((await request(`${stub.url}/seasons`, { headers: AUTH_HEADERS })).status).toBe(404);
  });

  it('runs the example of docs/serving-documents.md as printed', async () => {
    const printed = (await codeBlocks('serving-documents.md')).find(({ text }) => text.startsWith('# corrections.yaml'))!.text;
    const stub = await start([await overlayFile('printed.yaml', printed)]);
    expect((await post(`${stub.url}/plants`, { name: 'Monstera' }, JSON_HEADERS)).status).toBe(400);
    expect((await post(`${stub.url}/plants`, { name: 'Fern' }, JSON_HEADERS)).status).toBe(201);
    expect((await request(`${stub.url}/seasons`, { headers: AUTH_HEADERS })).status).toBe(404);
    expect((await request(`${stub.url}/__admin/warnings`)).json.warnings.filter((warning: { kind: string }) => warning.kind.startsWith('overlay'))).toEqual([]);
  });

  it('warns of an action whose target selects nothing, naming the file and the action', async () => {
    const file = await overlayFile('corrections.yaml', CORRECTIONS);
    const stub = await start([file]);
    const warnings = (await request(`${stub.url}/__admin/warnings`)).json.warnings;
    expect(warnings).toContainEqual({ file, pointer: '/actions/3', kind: 'overlay action whose target matches nothing', reason: "the target $.paths['/trees'] selects nothing in the document; the action changed nothing" });
  });

  it('applies several overlays in order', async () => {
    const first = await overlayFile('first.yaml', 'overlay: 1.0.0\ninfo: { title: one, version: "1" }\nactions:\n  - target: $.info\n    update: { title: First }\n');
    const second = await overlayFile('second.yaml', 'overlay: 1.0.0\ninfo: { title: two, version: "1" }\nactions:\n  - target: $.info\n    update: { title: Second }\n');
    const stub = await start([first, second]);
    expect((await request(`${stub.url}/__admin/health`)).json.spec).toBe('Second');
  });

  it.each([
    ['no actions', 'overlay: 1.0.0\ninfo: { title: x, version: "1" }\n', /bad\.yaml: \/actions: must be a list of actions/],
    ['an action doing two things', 'overlay: 1.0.0\ninfo: { title: x, version: "1" }\nactions:\n  - { target: $.info, update: { title: y }, remove: true }\n', /bad\.yaml: \/actions\/0: has both update and remove: true/],
    ['a target that is no JSONPath', 'overlay: 1.0.0\ninfo: { title: x, version: "1" }\nactions:\n  - { target: info, update: {} }\n', /bad\.yaml: \/actions\/0\/target: must be a JSONPath expression starting at \$/],
    ['no version', 'info: { title: x, version: "1" }\nactions:\n  - { target: $.info, update: {} }\n', /bad\.yaml: \/overlay: must name the Overlay version, 1\.0\.0/],
  ])('refuses an overlay with %s, naming file and pointer', async (_what, text, expected) => {
    const file = await overlayFile('bad.yaml', text);
    const error = await start([file]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(expected);
  });

  it('reloads when an overlay is edited', async () => {
    const file = await overlayFile('live.yaml', 'overlay: 1.0.0\ninfo: { title: live, version: "1" }\nactions:\n  - target: $.info\n    update: { title: Before }\n');
    const stub = await start([file], true);
    expect((await request(`${stub.url}/__admin/health`)).json.spec).toBe('Before');
    await writeFile(file, 'overlay: 1.0.0\ninfo: { title: live, version: "1" }\nactions:\n  - target: $.info\n    update: { title: After }\n');
    const title = await pollUntil(async () => (await request(`${stub.url}/__admin/health`)).json.spec, (spec) => spec === 'After', 15_000, 200);
    expect(title).toBe('After');
  }, 30_000);

  it('names an overlay the command line cannot read', async () => {
    const run = await runCli(['--spec', SPEC, '--overlay', join(dir, 'missing.yaml'), '--port', '0', '--no-watch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/missing\.yaml: cannot read the overlay \(ENOENT\)/);
  });
});
