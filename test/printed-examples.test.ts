// The shell examples a new user copies, run as printed: the README's quick start, the sticky
// scenario of docs/choosing-answers.md, the fixtures of docs/scenarios-and-fixtures.md and
// docs/webhooks.md, and the demo of docs/stateful-mode.md. Each `curl` line runs through bash with the real curl (only the port
// 4010 becomes the test stub's), and the answer must be the one the page prints under it
// (`# 200 {...}`, `# {...}`) or beside it (`# 204`).
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type StartedCli } from './helpers/cli.js';
import { codeBlocks, writeFixtureBlocks } from './helpers/doc-examples.js';
import { freePort } from './helpers/ports.js';
import { pollUntil } from './helpers/poll.js';

const run = promisify(execFile);

/** One command of a printed block and what the page says it answers, if it says. */
interface Step {
  command: string;
  expected: { status?: number; body?: string; remark?: string } | null;
}

/** The commands of a shell block, `\` continuations joined, each with the comment that follows it. */
function steps(block: string): Step[] {
  const lines = block.split('\n');
  const found: Step[] = [];
  for (let i = 0; i < lines.length; i++) {
    let command = lines[i];
    if (command.trim() === '' || command.startsWith('#')) continue;
    while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i].trim()}`;
    // The pages set a comment beside a command off by two spaces or more.
    const beside = /\s{2,}#\s(.*)$/.exec(command);
    let comment: string | null = null;
    if (beside) {
      comment = beside[1];
      command = command.slice(0, beside.index);
    } else if (lines[i + 1]?.startsWith('# ')) {
      comment = lines[++i].slice(2);
    }
    found.push({ command: command.trim(), expected: comment === null ? null : expectation(comment) });
  }
  return found;
}

/** `200 {"a":1}   (a remark)`, `{"a":1}   the receiver prints: …`, `204`: the status and body to expect. */
function expectation(comment: string): Step['expected'] {
  const status = /^(\d{3})(?:\s+|$)/.exec(comment);
  const rest = status ? comment.slice(status[0].length) : comment;
  const [text, ...remarks] = rest.split(/\s{2,}/);
  const body = /^[[{]/.test(text) ? text : status && rest === '' ? '' : undefined;
  if (!status && body === undefined) return null;
  return { status: status ? Number(status[1]) : undefined, body, remark: remarks.join('  ') || undefined };
}

/** Runs a printed curl command against `port` (its 4010 replaced), answering its status and body. */
async function curl(command: string, port: number, env: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const target = command.replace(/(?:127\.0\.0\.1|localhost):4010\b/g, `127.0.0.1:${port}`);
  const { stdout } = await run('bash', ['-c', `${target} -w '\\n%{http_code}'`], { env: { ...process.env, ...env } });
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

function expectAnswer(answer: { status: number; body: string }, step: Step): void {
  if (step.expected?.status !== undefined) expect({ command: step.command, status: answer.status }).toEqual({ command: step.command, status: step.expected.status });
  if (step.expected?.body !== undefined) expect({ command: step.command, body: answer.body }).toEqual({ command: step.command, body: step.expected.body });
}

const started: StartedCli[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stub-printed-'));
});

afterAll(async () => {
  await Promise.all(started.map((cli) => cli.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** The CLI as `npm start` runs it in the clone (its openapi.yaml and fixtures/), on a free port. */
async function startAsNpmStart(args: string[] = []): Promise<StartedCli> {
  const cli = await startCli(['--port', '0', '--no-watch', ...args]);
  started.push(cli);
  return cli;
}

describe('the README quick start, as printed', () => {
  it('answers each curl of the quick start with the status and body printed under it', async () => {
    const cli = await startAsNpmStart();
    // codeBlocks reads docs/<page>; the README sits one folder up.
    const block = (await codeBlocks('../README.md')).find(({ lang, text }) => lang === 'sh' && text.startsWith('curl '))!.text;
    const printed = steps(block);
    expect(printed.map((step) => step.expected?.status)).toEqual([200, 400, 400]);
    for (const step of printed) expectAnswer(await curl(step.command, cli.port), step);
  });
});

describe('docs/choosing-answers.md: a sticky scenario, as printed', () => {
  it('the PUT makes the scenario answer every request of its operation, the DELETE ends it', async () => {
    const cli = await startAsNpmStart();
    const [set, clear] = steps((await codeBlocks('choosing-answers.md')).find(({ text }) => text.includes('/__admin/scenario'))!.text);
    const create = `curl -s localhost:4010/plants -H 'Authorization: Bearer t' -H 'Content-Type: application/json' -d '{"id": 1, "name": "Fern"}'`;
    const cases = [
      { step: set, then: { status: 400, body: '{"error":1002,"message":"The tag is not one the store knows; use an existing tag or leave it out"}' } },
      { step: clear, then: { status: 200, body: '{"name":"Fern"}' } },
    ];
    for (const { step, then } of cases) {
      expect((await curl(step.command, cli.port)).status).toBeLessThan(300);
      expect(await curl(create, cli.port)).toEqual(then);
    }
  });
});

describe('docs/scenarios-and-fixtures.md: the fixture it prints', () => {
  it('loads as printed and answers its scenario by name', async () => {
    const fixtures = join(dir, 'printed-fixtures');
    await run('mkdir', ['-p', fixtures]);
    expect(await writeFixtureBlocks('scenarios-and-fixtures.md', fixtures)).toEqual(['create-plant.yaml', 'plant-taken.yaml', 'plant-busy.yaml']);
    const cli = await startAsNpmStart(['--fixtures', fixtures]);
    const answer = await curl(`curl -s localhost:4010/plants -H 'Authorization: Bearer t' -H 'Content-Type: application/json' -H 'X-Mock-Scenario: duplicate-id' -d '{"id": 1, "name": "Fern"}'`, cli.port);
    expect(answer).toEqual({ status: 400, body: '{"error":1001,"message":"A plant with this id already exists"}' });
  });
});

describe('docs/webhooks.md: the fixture it prints', () => {
  it('sends newPlant after each successful answer of POST /plants, the bulk scenario\'s included', async () => {
    const fixtures = join(dir, 'webhook-fixtures');
    await run('mkdir', ['-p', fixtures]);
    expect(await writeFixtureBlocks('webhooks.md', fixtures)).toEqual(['add-plant.yaml']);
    const deliveries: Array<{ path: string; body: string }> = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
        deliveries.push({ path: request.url ?? '', body });
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as { port: number };
      const cli = await startAsNpmStart(['--spec', 'test/specs/plant-store-full.yaml', '--fixtures', fixtures, '--webhook', `newPlant=http://127.0.0.1:${port}/hooks`]);
      const cases = [
        { scenario: '', sent: '{"id": 3, "name": "Ivy"}', answer: '{"id":3,"name":"Ivy"}', delivered: '{"id":3,"name":"Ivy"}' },
        { scenario: "-H 'X-Mock-Scenario: bulk' ", sent: '{"id": 4, "name": "Fig"}', answer: '{"id":9,"name":"Bulk"}', delivered: '{"id":4,"name":"Fig"}' },
      ];
      for (const [i, c] of cases.entries()) {
        const answer = await curl(`curl -s localhost:4010/plants -H 'Authorization: Bearer t' -H 'Content-Type: application/json' ${c.scenario}-d '${c.sent}'`, cli.port);
        expect(answer).toEqual({ status: 200, body: c.answer });
        await pollUntil(async () => deliveries.length, (n) => n > i, 10_000);
        expect(deliveries[i]).toEqual({ path: '/hooks', body: c.delivered });
      }
      expect(deliveries).toHaveLength(cases.length);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('docs/stateful-mode.md: the demo, as printed', () => {
  it('creates, lists, reads and deletes as printed, the receiver gets the webhook, and a restart keeps what was stored', async () => {
    const block = (await codeBlocks('stateful-mode.md')).find(({ text }) => text.includes('--state-file plants.json'))!.text;
    const printed = steps(block);
    // Seven answers printed: the create, the duplicate, two lists, the read, the delete and the 404.
    expect(printed.filter((step) => step.expected?.body !== undefined)).toHaveLength(7);
    const hookPort = await freePort();
    const stateFile = join(dir, 'plants.json');
    const local = (command: string) => command.replaceAll('4011', String(hookPort)).replaceAll('plants.json', stateFile);

    // The receiver: the printed one-liner, on a free port.
    const receiverLine = printed.find((step) => step.command.startsWith('node -e'))!.command.replace(/&$/, '');
    const receiver = spawn('bash', ['-c', local(receiverLine)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let received = '';
    receiver.stdout.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    try {
      await pollUntil(() => run('bash', ['-c', `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${hookPort}/`]).then(({ stdout }) => stdout, () => ''), (code) => code === '200', 10_000);
      // The stub: the printed command line, on port 0, its state file in a temporary folder.
      const stubLine = printed.find((step) => step.command.startsWith('node dist/cli.js'))!.command.replace(/&$/, '');
      const args = local(stubLine).split(/\s+/).filter(Boolean).slice(2);
      let cli = await startAsNpmStart(args);
      const env: Record<string, string> = {};
      for (const step of printed) {
        const assignment = /^(\w+)='(.*)'$/.exec(step.command);
        if (assignment) env[assignment[1]] = assignment[2];
        if (!step.command.startsWith('curl ')) continue;
        const answer = await curl(step.command, cli.port, env);
        expect(answer.status).toBeLessThan(500);
        expectAnswer(answer, step);
        const prints = step.expected?.remark && /the receiver prints: (.*)$/.exec(step.expected.remark)?.[1];
        if (prints) await pollUntil(async () => received, (text) => text.includes(prints), 10_000);
      }
      // `kill %2`: SIGTERM; then the state file holds Fern, and a new start lists her.
      expect(printed.at(-1)!.command).toBe('kill %2');
      await cli.stop('SIGTERM');
      expect(await readFile(stateFile, 'utf8')).toContain('"Fern"');
      cli = await startAsNpmStart(args);
      expect(await curl(`curl -s localhost:4010/plants -H "$H"`, cli.port, env)).toEqual({ status: 200, body: '[{"id":2,"name":"Fern"}]' });
    } finally {
      receiver.kill();
    }
  }, 60_000);
});
