// --workers N: one port served by N processes (node:cluster), stopped together by one signal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type StartedCli } from './helpers/cli.js';
import { request } from './helpers/http.js';
import { createPlant } from './helpers/plant.js';
import { freePort } from './helpers/ports.js';

describe('the CLI with --workers 2', () => {
  let cli: StartedCli;

  beforeAll(async () => {
    cli = await startCli(['--workers', '2', '--port', String(await freePort()), '--quiet', '--no-watch']);
  }, 15_000);

  afterAll(async () => {
    await cli?.stop('SIGKILL');
  });

  it('announces one URL once every worker listens', () => {
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.stdout().split('\n')).toContain(`stub listening on ${cli.url} with 2 workers`);
  });

  it('answers every request on the shared port with the same contract', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createPlant(cli.url, { id: i, name: `plant ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.map((a) => a.json)).toEqual(Array.from({ length: 20 }, (_, i) => ({ name: `plant ${i}` })));
  });

  it('stops every worker and exits on SIGTERM', async () => {
    const { code } = await cli.stop('SIGTERM');
    expect(code).toBe(0);
    await expect(request(`${cli.url}/__admin/health`)).rejects.toThrow();
  });
});

describe('the CLI refuses --workers with port 0', () => {
  it('names the problem on one line and exits 2', async () => {
    const { code, stderr } = await runCli(['--workers', '2', '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toBe('plant-store-stub: --workers needs a fixed --port (each worker would pick its own with 0)\n');
  });
});
