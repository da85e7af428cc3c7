// Edits to the document and the fixtures are served live once the files are quiet, and a broken
// edit keeps the last good version serving.
import { readFile, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningStub } from '../src/index.js';
import { pollUntil } from './helpers/poll.js';
import { createPlant } from './helpers/plant.js';
import { FIXTURES, SPEC, VALID, closeAfterAll, start, tempDir } from './helpers/plant-store-suite.js';

closeAfterAll();

describe('hot reload', { timeout: 30_000 }, () => {
  // A reload waits for a quiet second after the last write; 8 s is ample even on a loaded CI machine.
  const PICKUP_MS = 8_000;

  async function workspace(): Promise<{ dir: string; spec: string; fixture: string; lines: string[]; stub: RunningStub }> {
    const dir = await tempDir();
    await mkdir(join(dir, 'fixtures'));
    const spec = join(dir, 'openapi.yaml');
    const fixture = join(dir, 'fixtures', 'create-plant.yaml');
    await copyFile(SPEC, spec);
    await copyFile(join(FIXTURES, 'create-plant.yaml'), fixture);
    const lines: string[] = [];
    const stub = await start({ spec, fixtures: join(dir, 'fixtures'), watch: true, log: (line) => lines.push(line) });
    return { dir, spec, fixture, lines, stub };
  }

  /** Waits for the next log line matching `pattern` after `from` lines. */
  const logged = (lines: string[], from: number, pattern: RegExp) =>
    pollUntil(async () => lines.slice(from).some((line) => pattern.test(line)), Boolean, PICKUP_MS);

  it('fixture edits are served within seconds; a broken fixture keeps the last good version serving', async () => {
    const { fixture, lines, stub } = await workspace();
    const original = await readFile(fixture, 'utf8');
    expect(original).toContain('message: A plant with this id already exists');
    const duplicate = () => createPlant(stub.url, VALID, { 'x-mock-scenario': 'duplicate-id' }).then((r) => r.text);
    expect(await duplicate()).toBe('{"error":1001,"message":"A plant with this id already exists"}');

    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: That id is taken (edited)'));
    const edited = '{"error":1001,"message":"That id is taken (edited)"}';
    expect(await pollUntil(duplicate, (text) => text === edited, PICKUP_MS)).toBe(edited);

    const before = lines.length;
    await writeFile(fixture, original.replace('error: 1001', 'error: "x"'));
    expect(await logged(lines, before, /reload refused/)).toBe(true);
    expect(lines.slice(before).find((line) => /reload refused/.test(line))).toContain('/scenarios/duplicate-id/body/error');
    // For about a second the last good version keeps serving.
    const unchanged = await pollUntil(duplicate, (text) => text !== edited, 1_000, 100);
    expect(unchanged).toBe(edited);

    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: Edited again'));
    const again = '{"error":1001,"message":"Edited again"}';
    expect(await pollUntil(duplicate, (text) => text === again, PICKUP_MS)).toBe(again);
  });

  it('the sticky scenario survives a reload; when an edit removes it, it is cleared with a warning', async () => {
    const { fixture, lines, stub } = await workspace();
    const original = await readFile(fixture, 'utf8');
    stub.useScenario('name-too-long');
    const plain = () => createPlant(stub.url, '{"id":1,"name":"Ficus"}').then((r) => `${r.status} ${r.headers.get('x-mock-scenario')}`);
    expect(await plain()).toBe('400 name-too-long');

    let before = lines.length;
    await writeFile(fixture, original.replace('message: A plant with this id already exists', 'message: Edited'));
    expect(await logged(lines, before, /^reloaded /)).toBe(true);
    expect(await plain()).toBe('400 name-too-long');

    before = lines.length;
    await writeFile(fixture, original.replace('  name-too-long:', '  name-far-too-long:'));
    expect(await logged(lines, before, /^reloaded /)).toBe(true);
    expect(lines.slice(before)).toContain('warning: the sticky scenario "name-too-long" is no longer in the fixtures; it was cleared');
    expect(await plain()).toBe('200 echo');
  });

  it('spec edits are served within seconds; a broken spec keeps the last good version serving', async () => {
    const { spec, lines, stub } = await workspace();
    const original = await readFile(spec, 'utf8');
    const plain = () => createPlant(stub.url, '{"id":1,"name":"Ficus"}').then((r) => `${r.status} ${r.text}`);
    expect(await plain()).toBe('200 {"name":"Ficus"}');

    const requiredId = '          required:\n            - id\n';
    expect(original).toContain(requiredId);
    await writeFile(spec, original.replace(requiredId, `${requiredId}            - colour\n`));
    const refused = '400 {"error":400,"message":"/colour: is required"}';
    expect(await pollUntil(plain, (text) => text === refused, PICKUP_MS)).toBe(refused);

    const before = lines.length;
    await writeFile(spec, original.replace('paths:', 'paths: [unclosed'));
    expect(await logged(lines, before, /reload refused/)).toBe(true);
    expect(await pollUntil(plain, (text) => text !== refused, 1_000, 100)).toBe(refused);

    await writeFile(spec, original);
    expect(await pollUntil(plain, (text) => text === '200 {"name":"Ficus"}', PICKUP_MS)).toBe('200 {"name":"Ficus"}');
  });
});
