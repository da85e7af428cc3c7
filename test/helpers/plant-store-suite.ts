// What the tests of choosing answers on the shipped Plant Store share: the document, its fixtures
// as shipped, a validator of its Plant schema, and stubs and temporary folders closed and removed
// after each file (call closeAfterAll() in the file).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Ajv } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { afterAll } from 'vitest';
import { startStub, type RunningStub } from '../../src/index.js';

// CommonJS default export, seen through NodeNext's ESM interop.
const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

const ROOT = join(import.meta.dirname, '..', '..');
export const SPEC = join(ROOT, 'openapi.yaml');
export const FIXTURES = join(ROOT, 'fixtures');
export const VALID = '{"id":7,"name":"Ficus","tag":"fig"}';
/** The admin API's problems (kept loose: Express once added a charset to the media type). */
export const ADMIN_PROBLEM_TYPE = /^application\/problem\+json(; charset=utf-8)?$/;

export const shipped = parseYaml(await readFile(join(FIXTURES, 'create-plant.yaml'), 'utf8')) as {
  scenarios: Record<string, { status: number; body: unknown; delay?: number }>;
};
export const SHIPPED_NAMES = Object.keys(shipped.scenarios);
/** The shipped fixtures answered at once (slow-create is for delay tests, not the table). */
export const INSTANT = SHIPPED_NAMES.filter((name) => shipped.scenarios[name].delay === undefined);

const plantStore = parseYaml(await readFile(SPEC, 'utf8')) as { components: { schemas: Record<string, object> } };
export const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
export const isPlant = ajv.compile(plantStore.components.schemas.Plant);

const temps: string[] = [];
const started: RunningStub[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stub-scenarios-'));
  temps.push(dir);
  return dir;
}

export async function start(options: Parameters<typeof startStub>[0]): Promise<RunningStub> {
  const stub = await startStub({ port: 0, watch: false, ...options });
  started.push(stub);
  return stub;
}

/**
 * A selection the stub cannot honour: 422 problem+json (not 400, which the API documents with its
 * own Error shape). The title is Node's reason phrase for 422.
 */
export function unprocessable(detail: string): Record<string, unknown> {
  return { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail };
}

/** Closes the stubs started and removes the folders made, once the calling file's tests are done. */
export function closeAfterAll(): void {
  afterAll(async () => {
    await Promise.all(started.splice(0).map((stub) => stub.close(500)));
    await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
}
