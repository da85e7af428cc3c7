// The package as a user installs it: packed with `npm pack`, installed into a fresh project (with
// msw beside it), the contract test docs/in-your-tests.md prints and docs/runtimes.md's examples
// (the fetch handler, MSW in Node, MSW in the browser) run unchanged and type-checked strictly, the
// CLI started in an empty folder, and the documented CommonJS way of loading it. Slow (it
// installs), so it runs once.
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks } from './helpers/doc-examples.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const INSTALL_TIMEOUT = 180_000;
let consumer: string;

/** The contract test docs/in-your-tests.md prints, exactly: the code block after "A complete client contract test". */
async function printedTest(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'in-your-tests.md'), 'utf8');
  const after = page.slice(page.indexOf('A complete client contract test'));
  return /```ts\n([\s\S]*?)```/.exec(after)![1];
}

/** docs/runtimes.md's TypeScript examples, each written as the consumer file named for what it imports. */
async function runtimeExamples(): Promise<Record<string, string>> {
  const blocks = (await codeBlocks('runtimes.md')).filter((block) => block.lang === 'ts').map((block) => block.text);
  const find = (imported: string) => blocks.find((text) => text.includes(`from '${imported}'`))!;
  return { 'fetch-handler.test.ts': find('plant-store-stub/fetch'), 'msw-node.test.ts': find('msw/node'), 'mocks.ts': find('msw/browser') };
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', [...args, '--no-audit', '--no-fund'], { cwd, timeout: INSTALL_TIMEOUT, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

beforeAll(async () => {
  consumer = await mkdtemp(join(tmpdir(), 'stub-consumer-'));
  // --ignore-scripts: dist/ is already built (pretest); rebuilding it here would race the CLI tests.
  await npm(['pack', '--ignore-scripts', '--pack-destination', consumer, '--silent'], ROOT);
  const tarball = (await readdir(consumer)).find((name) => name.endsWith('.tgz'))!;
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The same versions as this repository's own devDependencies, so npm's cache usually has them.
  const tools = ['typescript', 'vitest', '@types/node', 'msw'].map((name) => `${name}@${own.devDependencies[name]}`);
  await npm(['install', '--prefer-offline', `./${tarball}`, ...tools], consumer);
  await writeFile(join(consumer, 'plant.test.ts'), await printedTest());
  await copyFile(join(ROOT, 'examples', 'plant-client.ts'), join(consumer, 'plant-client.ts'));
  // The docs' examples read the document and a fixture from the project, as a user's would.
  await copyFile(join(ROOT, 'openapi.yaml'), join(consumer, 'openapi.yaml'));
  await mkdir(join(consumer, 'fixtures'));
  await copyFile(join(ROOT, 'fixtures', 'create-plant.yaml'), join(consumer, 'fixtures', 'create-plant.yaml'));
  for (const [name, text] of Object.entries(await runtimeExamples())) await writeFile(join(consumer, name), text);
}, INSTALL_TIMEOUT);

afterAll(async () => {
  if (consumer) await rm(consumer, { recursive: true, force: true });
});

describe('the packed package in a fresh project', () => {
  it("runs the printed contract test and docs/runtimes.md's fetch handler and MSW-in-Node examples unchanged", async () => {
    const { stdout: colored } = await run(join(consumer, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=verbose'], { cwd: consumer, timeout: 60_000 });
    const stdout = colored.replace(/\x1b\[[0-9;]*m/g, '');
    expect(stdout).toMatch(/Test Files\s+3 passed \(3\)/);
    expect(stdout).toMatch(/Tests\s+5 passed \(5\)/);
  }, 60_000);

  it('type-checks in a strict project without skipLibCheck or Express types, the fetch and MSW entries included', async () => {
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
      include: ['*.ts'],
    }));
    const checked = await run(join(consumer, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: consumer, timeout: 60_000 }).then(() => 'ok', (error: { stdout: string }) => error.stdout);
    expect(checked).toBe('ok');
  }, 60_000);

  it('holds no script npm would run, or warn about, when a project installs it', async () => {
    const installed = JSON.parse(await readFile(join(consumer, 'node_modules', 'plant-store-stub', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const runOnInstall = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => installed.scripts?.[name] !== undefined);
    expect(runOnInstall).toEqual([]);
  });

  it('can be loaded from CommonJS with require() (Node 20.19+)', async () => {
    await writeFile(join(consumer, 'load.cjs'), [
      "const { startStub } = require('plant-store-stub');",
      'startStub({ port: 0, watch: false, log: false }).then(async (stub) => {',
      "  const answer = await fetch(`${stub.url}/__admin/health`).then((r) => r.json());",
      '  console.log(JSON.stringify(answer));',
      '  await stub.close();',
      '});',
    ].join('\n'));
    const { stdout, stderr } = await run('node', ['load.cjs'], { cwd: consumer, timeout: 30_000 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ status: 'ok', spec: 'OpenAPI Plant Store', operations: 1 });
    expect(stderr).toBe(''); // log: false is silence
  }, 30_000);

  it('starts with npx in an empty folder, serving the bundled Plant Store and saying so', async () => {
    const empty = join(consumer, 'empty');
    await mkdir(empty);
    const child = spawn(join(consumer, 'node_modules', '.bin', 'plant-store-stub'), ['--port', '0'], { cwd: empty });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 20 s:\n${output}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    try {
      expect(output).toContain('serving the bundled Plant Store document');
      const answer = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-mock-scenario': 'duplicate-id' },
        body: '{"id":1,"name":"Fern"}',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 1001, message: 'A plant with this id already exists' });
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 30_000);
});
