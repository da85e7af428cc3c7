// --workers N: one port served by N processes (node:cluster), stopped together by one signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

describe('the CLI with --workers 2', () => {
  let child: ChildProcess;
  let url: string;
  let stdout = '';

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['dist/cli.js', '--workers', '2', '--port', String(port), '--quiet', '--no-watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    const deadline = Date.now() + 10_000;
    while (!/with 2 workers/.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
  }, 15_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('announces one URL once every worker listens', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers every request on the shared port with the same contract', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => request(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ id: i, name: `plant ${i}` }),
    })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => a.json)).toEqual(Array.from({ length: 20 }, (_, i) => ({ name: `plant ${i}` })));
  });

  it('stops every worker and exits on SIGTERM', async () => {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    await expect(request(`${url}/__admin/health`)).rejects.toThrow();
  });
});

describe('the CLI refuses --workers with port 0', () => {
  it('names the problem on one line and exits 2', async () => {
    const child = spawn(process.execPath, ['dist/cli.js', '--workers', '2', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toBe('plant-store-stub: --workers needs a fixed --port (each worker would pick its own with 0)\n');
  });
});
