// The JSON shapes docs/admin-api.md and docs/coverage-and-warnings.md print are what the admin API
// answers: the pages' own requests are sent to a fresh stub of the Plant Store, and its journal
// and coverage compared with the pages' blocks (times, durations and the client's own headers vary).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';
import { codeBlocks } from './helpers/doc-examples.js';

let stub: RunningStub;
beforeAll(async () => {
  stub = await startStub({ port: 0, watch: false });
});
afterAll(() => stub.close());

/** The `curl` lines of a page's first sh block, as fetch calls against the stub. */
async function sendThePagesRequests(): Promise<void> {
  const [shell] = (await codeBlocks('admin-api.md')).filter(({ lang }) => lang === 'sh');
  for (const line of shell.text.trim().split('\n')) {
    const path = /http:\/\/127\.0\.0\.1:4010(\S+)/.exec(line)![1];
    const headers = Object.fromEntries([...line.matchAll(/-H '([^:]+): ([^']*)'/g)].map(([, name, value]) => [name, value]));
    const body = /-d '([^']*)'/.exec(line)![1];
    await (await fetch(`${stub.url}${path}`, { method: 'POST', headers, body })).arrayBuffer();
  }
}

async function documentedJson(page: string): Promise<unknown> {
  return JSON.parse((await codeBlocks(page)).find(({ lang }) => lang === 'json')!.text);
}

it('answers GET /__admin/requests with the journal entries docs/admin-api.md shows', async () => {
  await sendThePagesRequests();
  const documented = await documentedJson('admin-api.md') as { requests: Array<Record<string, unknown> & { headers: Record<string, string> }> };
  const expected = documented.requests.map((entry) => ({
    ...entry,
    headers: { ...entry.headers, host: expect.any(String), 'user-agent': expect.any(String) },
    durationMs: expect.any(Number),
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  }));
  const answer = await fetch(`${stub.url}/__admin/requests`);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ requests: expected });
  expect(stub.requests()).toHaveLength(2);
});

it('answers GET /__admin/coverage with the report docs/coverage-and-warnings.md shows', async () => {
  const answer = await fetch(`${stub.url}/__admin/coverage`);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual(await documentedJson('coverage-and-warnings.md'));
});
