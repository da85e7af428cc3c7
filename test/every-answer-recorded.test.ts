// Every answered request is recorded once, as one event every record hears: a read of the journal,
// coverage or metrics right after a burst of concurrent answers counts each of them (in one
// process, across --workers and across instances on one Redis), a record that throws (a `log`
// function given to startStub) costs no other record an answer and stops nothing, and the entry
// the whole server keeps in Redis (made from the answer as it was sent) is the one the process's
// own journal reads back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { createPlant, JSON_HEADERS } from './helpers/plant.js';
import { request } from './helpers/http.js';
import { raw } from './helpers/raw-http.js';
import { startCli, type StartedCli } from './helpers/cli.js';
import { haveRedis, startRedis, type RunningRedis } from './helpers/redis.js';

const BURST = 24;

/** `count` POST /plants sent at once, spread over `urls` in turn; each must be answered 200. */
async function burst(urls: string[], count = BURST): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => createPlant(urls[i % urls.length], { id: i + 1, name: `plant ${i + 1}` })));
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
}

/** What a read right after the burst must count: the journal, POST /plants' 200 in coverage. */
async function expectEveryAnswer(url: string, count = BURST): Promise<void> {
  const listed = await request(`${url}/__admin/requests?method=POST`);
  expect(listed.status).toBe(200);
  expect(listed.json.requests.map((entry: { body: { id: number } }) => entry.body.id).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  const coverage = await request(`${url}/__admin/coverage`);
  expect(coverage.status).toBe(200);
  const post = coverage.json.operations.find((op: { operation: string }) => op.operation === 'POST /plants');
  expect(post.responses.find((row: { status: string }) => row.status === '200').hits).toBe(count);
}

async function reset(url: string): Promise<void> {
  expect((await request(`${url}/__admin/reset`, { method: 'POST' })).status).toBeLessThan(300);
}

describe('a burst of concurrent answers, read at once, in one process', () => {
  let stub: RunningStub;
  beforeAll(async () => {
    stub = await startStub({ port: 0, watch: false, log: () => {} });
  });
  afterAll(() => stub?.close());

  it('lists every answer in the journal and counts each in coverage and the metrics', async () => {
    await burst([stub.url]);
    await expectEveryAnswer(stub.url);
    const metrics = await request(`${stub.url}/__admin/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain(`stub_requests_total{operation="POST /plants",status="200",origin="echo"} ${BURST}\n`);
    // The admin API's own reads are not journaled: the journal holds the burst alone.
    expect(metrics.text).toContain(`\nstub_journal_entries ${BURST}\n`);
  });

  it('lists them through stub.requests() as well', () => {
    expect(stub.requests({ method: 'POST' })).toHaveLength(BURST);
  });
});

describe('a record that throws', () => {
  let stub: RunningStub;
  const warnings: string[] = [];
  let lines = 0;
  beforeAll(async () => {
    // The second line logged throws, and every fifth after it: a broken log function of a test suite.
    const log = () => {
      lines++;
      if (lines === 2 || lines % 5 === 0) throw new Error('the log cannot be written');
    };
    stub = await startStub({ port: 0, watch: false, log, warn: (line) => void warnings.push(line) });
  });
  afterAll(() => stub?.close());

  it('costs the journal and coverage no answer, and the stub keeps answering', async () => {
    await burst([stub.url]);
    await expectEveryAnswer(stub.url);
    await burst([stub.url], 5);
    expect(stub.requests({ method: 'POST' })).toHaveLength(BURST + 5);
  });

  it('is said once in the warnings, with where it threw', () => {
    const said = warnings.filter((line) => line.includes('the log cannot be written'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^warning: recording an answer failed/);
    expect(said[0]).toContain('every-answer-recorded.test.ts');
  });
});

describe('a burst of concurrent answers, read at once, with --workers 2', () => {
  let cli: StartedCli;
  beforeAll(async () => {
    cli = await startCli(['--workers', '2', '--port', '0', '--quiet', '--no-watch'], { timeoutMs: 20_000 });
  }, 30_000);
  afterAll(() => cli?.stop('SIGKILL'));

  it('lists every worker\'s answers in the journal and counts each in coverage', async () => {
    await burst([cli.url]);
    await expectEveryAnswer(cli.url);
    await reset(cli.url);
    await burst([cli.url]);
    await expectEveryAnswer(cli.url);
  });
});

describe.skipIf(!haveRedis)('a burst of concurrent answers, read at once, across two instances on one Redis', () => {
  let redis: RunningRedis;
  let first: RunningStub;
  let second: RunningStub;
  beforeAll(async () => {
    redis = await startRedis();
    const options = { port: 0, watch: false, log: () => {}, stateStore: redis.url };
    [first, second] = [await startStub(options), await startStub(options)];
  }, 20_000);
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await redis?.stop();
  });

  it('lists both instances\' answers in the journal and counts each in coverage, read through either', async () => {
    await burst([first.url, second.url]);
    await expectEveryAnswer(first.url);
    await reset(second.url);
    await burst([first.url, second.url]);
    await expectEveryAnswer(second.url);
  });

  const longText = 'é'.repeat(12 * 1024);
  /** Requests whose entry has something to get wrong: texts outside ASCII, a list of values, a cut body, a redacted credential. */
  const CASES: Array<[string, () => Promise<unknown>]> = [
    ['a body and a query outside ASCII, a key given twice', () => request(`${first.url}/plants?tag=fougère&tag=🌿&x=1`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ id: 7, name: 'Fougère 🌿' }) })],
    ['two Set-Cookie lines (a list of values) and credentials', () => {
      const body = '{"id":8,"name":"Ivy"}';
      const port = Number(new URL(first.url).port);
      return raw(port, `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer secret-token\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    }],
    ['a body over the journal\'s cap, cut in the middle of a character', () => request(`${first.url}/plants`, { method: 'POST', headers: { ...JSON_HEADERS, 'content-type': 'text/plain' }, body: `x${longText}` })],
    ['no body, a 404', () => request(`${first.url}/nowhere?a=b`, { headers: { 'x-mock-session': 'one' } })],
  ];

  it.each(CASES)('keeps in Redis the entry the instance\'s own journal reads back: %s', async (_name, send) => {
    await send();
    const listed = await request(`${first.url}/__admin/requests?limit=1`);
    expect(listed.status).toBe(200);
    const [whole] = listed.json.requests;
    const own = first.requests().at(-1);
    expect(whole).toEqual(JSON.parse(JSON.stringify(own)));
    expect(whole.instance).toMatch(/:\d+/);
  });
});
