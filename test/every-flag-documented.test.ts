// Every flag of the command line is declared once (src/config/option-table.ts): the parser takes
// it, `--help` prints it with its value's name, and docs/command-line.md describes it; the doc
// names no flag the stub does not take. A flag read from the environment works from there too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LINE_OPTIONS, type CommandLineOption } from '../src/config/option-table.js';
import { runCli, startCli } from './helpers/cli.js';
import { request } from './helpers/http.js';

const ROOT = join(import.meta.dirname, '..');
const table = COMMAND_LINE_OPTIONS as readonly CommandLineOption[];
const doc = readFileSync(join(ROOT, 'docs', 'command-line.md'), 'utf8');

describe('the table of command-line options', () => {
  it('--help prints every flag of the table, each with its value’s name', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const missing = table.filter((option) => !help.stdout.includes(`--${option.flag}${option.value ? ` ${option.value}` : ''}`));
    expect(missing.map((option) => option.flag)).toEqual([]);
  });

  it('docs/command-line.md describes every flag, and names none the stub does not take', () => {
    const documented = new Set(doc.match(/--[a-z][a-z-]*/g));
    // The page shows what a mistyped flag gets: `Unknown option '--sepc'; did you mean --spec?`.
    documented.delete('--sepc');
    expect([...documented].sort()).toEqual(table.map((option) => `--${option.flag}`).sort());
  });

  it('every flag is one the parser takes: an unknown one is refused naming the nearest', async () => {
    const refused = await runCli(['--stream-max-event', '3']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("plant-store-stub: Unknown option '--stream-max-event'; did you mean --stream-max-events?\n");
  });

  it.each(table.filter((option) => option.env !== undefined && option.flag !== 'port').map((option) => [option.flag, option.env!]))('--%s is read from %s when not given', async (flag, env) => {
    // 127.0.0.2 is loopback too, and not the default, so the URL shows whether HOST was read.
    const cli = await startCli(['--port', '0', '--quiet', '--no-watch'], { env: { [env]: flag === 'host' ? '127.0.0.2' : 'secret-admin' } });
    try {
      if (flag === 'host') expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      const health = await request(`${cli.url}/__admin/requests`, { headers: flag === 'admin-token' ? { authorization: 'Bearer secret-admin' } : {} });
      expect(health.status).toBe(200);
      if (flag === 'admin-token') expect((await request(`${cli.url}/__admin/requests`)).status).toBe(401);
    } finally {
      await cli.stop();
    }
  });
});
