// Fixtures are checked against the document at start-up (a broken one stops the start naming the
// file and the JSON pointer); a missing folder and odd entries in it are warnings.
import { execFileSync } from 'node:child_process';
import { rm, writeFile, mkdir, mkdtemp, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, startStub } from '../src/index.js';
import { request } from './helpers/http.js';
import { createPlant, JSON_HEADERS } from './helpers/plant.js';
import { SPEC, VALID, closeAfterAll, start, tempDir } from './helpers/plant-store-suite.js';

closeAfterAll();

describe('fixtures are checked against the spec at start-up', () => {
  const fixture = (operation: string, name: string, scenario: string) =>
    `operation: ${operation}\nscenarios:\n  ${name}:\n${scenario.replace(/^/gm, '    ')}\n`;

  async function fixturesDir(files: Record<string, string>): Promise<string> {
    const dir = await tempDir();
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('a fixture body that breaks the Error schema refuses start-up, naming the file and the pointer', async () => {
    const dir = await fixturesDir({ 'bad.yaml': fixture('POST /plants', 'broken-error', 'status: 400\nbody:\n  error: "x"\n  message: oops') });
    const attempt = startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    const error = (await attempt.catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toContain(join(dir, 'bad.yaml'));
    expect(error.message).toContain('/scenarios/broken-error/body/error');
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('a fixture missing a required Error field names that field', async () => {
    const dir = await fixturesDir({ 'bad.yaml': fixture('POST /plants', 'no-message', 'status: 400\nbody:\n  error: 1') });
    await expect(startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false })).rejects.toThrow(/bad\.yaml.*\/scenarios\/no-message\/body\/message/);
  });

  it('a fixture with an undocumented status (418) refuses start-up, naming /scenarios/<name>/status', async () => {
    const dir = await fixturesDir({ 'teapot.yaml': fixture('POST /plants', 'teapot', 'status: 418\nbody:\n  error: 418\n  message: short and stout') });
    const attempt = startStub({ spec: SPEC, fixtures: dir, port: 0, watch: false });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/teapot\.yaml: \/scenarios\/teapot\/status: 418 is not documented/);
  });

  it('a fixture for an operation the spec lacks only warns; the stub starts and serves', async () => {
    const dir = await fixturesDir({
      'orphan.yaml': fixture('DELETE /plants/{id}', 'gone', 'status: 204'),
      'good.yaml': fixture('POST /plants', 'ok-one', 'status: 400\nbody:\n  error: 9\n  message: fine'),
    });
    const lines: string[] = [];
    const stub = await start({ spec: SPEC, fixtures: dir, log: (line) => lines.push(line) });
    expect(lines.some((line) => line.startsWith('warning:') && line.includes('orphan.yaml') && line.includes('DELETE /plants/{id}'))).toBe(true);
    const response = await createPlant(stub.url, VALID, { 'x-mock-scenario': 'ok-one' });
    expect(response.status).toBe(400);
    expect(response.text).toBe('{"error":9,"message":"fine"}');
  });
});

describe('a fixtures folder that does not exist', () => {
  it('is a warning naming it, so a typo in --fixtures does not look like "no scenarios"', async () => {
    const lines: string[] = [];
    const stub = await startStub({ spec: 'openapi.yaml', fixtures: 'fixtrues', port: 0, watch: false, log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual(['warning: fixtrues: no such folder; no scenarios are served']);
    } finally {
      await stub.close();
    }
  });
});

describe('odd entries in the fixtures folder', () => {
  it('skips a FIFO and a folder named like fixtures, with a warning naming each, and serves the real ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'odd-fixtures-'));
    try {
      await copyFile(join('fixtures', 'create-plant.yaml'), join(dir, 'create-plant.yaml'));
      execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
      await mkdir(join(dir, 'folder.yaml'));
      const lines: string[] = [];
      const stub = await startStub({ spec: 'openapi.yaml', fixtures: dir, port: 0, watch: false, log: (line) => lines.push(line) });
      try {
        expect(lines).toEqual(expect.arrayContaining([
          `warning: ${join(dir, 'folder.yaml')}: not a regular file; skipped`,
          `warning: ${join(dir, 'pipe.yaml')}: not a regular file; skipped`,
        ]));
        const answer = await request(`${stub.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-scenario': 'duplicate-id' }, body: '{"id":1,"name":"Fern"}' });
        expect(answer.status).toBe(400);
        expect(answer.json).toEqual({ error: 1001, message: 'A plant with this id already exists' });
      } finally {
        await stub.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
