// GitHub's own client (@octokit/rest) pointed at the stub serving GitHub's document
// (@octokit/openapi), as a frontend team would: what it reads answers the numbers, refs and paths
// it asked for, `paginate` follows the Link header and ends on the stub, a conditional request
// with the ETag it was given is a 304; in stateful mode it finds the documented example issue,
// creates, reads, updates and pages through the issues it made.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';

const require = createRequire(import.meta.url);
const GITHUB = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
const REPO = { owner: 'octo', repo: 'hello' };
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function clientOf(stub: RunningStub): Octokit {
  return new Octokit({ baseUrl: stub.url, auth: 'test-token', log: QUIET });
}

/** The paths of the GETs the stub answered, from its journal. */
async function answeredGets(stub: RunningStub): Promise<Array<{ path: string; query: Record<string, string> }>> {
  const journal = await (await fetch(`${stub.url}/__admin/requests?method=GET`)).json();
  return journal.requests;
}

describe('@octokit/rest against the default (stateless) stub', () => {
  let stub: RunningStub;
  let octokit: Octokit;
  beforeAll(async () => {
    stub = await startStub({ spec: GITHUB, fixtures: '/nonexistent-octokit-fixtures', port: 0, watch: false, log: () => {}, seed: 1 });
    octokit = clientOf(stub);
  }, 60_000);
  afterAll(async () => { await stub?.close(); });

  const CASES: Array<{ call: string; read: (client: Octokit) => Promise<{ status: number; data: any }>; field: string; expected: unknown }> = [
    { call: 'issues.get({issue_number: 42})', read: (c) => c.rest.issues.get({ ...REPO, issue_number: 42 }), field: 'number', expected: 42 },
    { call: 'issues.update({issue_number: 42})', read: (c) => c.rest.issues.update({ ...REPO, issue_number: 42, title: 'Renamed' }), field: 'number', expected: 42 },
    { call: 'pulls.get({pull_number: 7})', read: (c) => c.rest.pulls.get({ ...REPO, pull_number: 7 }), field: 'number', expected: 7 },
    { call: "git.getRef({ref: 'heads/main'})", read: (c) => c.rest.git.getRef({ ...REPO, ref: 'heads/main' }), field: 'ref', expected: 'refs/heads/main' },
    { call: "repos.getContent({path: 'src/lib/index.ts'})", read: (c) => c.rest.repos.getContent({ ...REPO, path: 'src/lib/index.ts' }), field: 'path', expected: 'src/lib/index.ts' },
  ];

  it.each(CASES)('$call answers $field $expected', async ({ read, field, expected }) => {
    const answer = await read(octokit);
    expect(answer.status).toBe(200);
    expect(answer.data[field]).toEqual(expected);
  });

  it('paginate follows next links on the stub to the last page and sees each issue once', async () => {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { ...REPO, per_page: 2 });
    const numbers = issues.map((issue) => issue.number);
    expect(numbers.length).toBeGreaterThanOrEqual(3);
    expect(new Set(numbers).size).toBe(numbers.length);
    const pages = (await answeredGets(stub)).filter((entry) => entry.path === `/repos/${REPO.owner}/${REPO.repo}/issues`);
    expect(pages.map((entry) => entry.query.page ?? '1')).toEqual(['1', '2', '3']);
  });

  it('answers 304 to If-None-Match with the ETag it gave, and 200 with the body to another', async () => {
    const first = await octokit.rest.issues.get({ ...REPO, issue_number: 5 });
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const again = await octokit.rest.issues.get({ ...REPO, issue_number: 5, headers: { 'if-none-match': first.headers.etag } }).catch((error) => error);
    expect(again.status).toBe(304);
    const other = await octokit.rest.issues.get({ ...REPO, issue_number: 5, headers: { 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
    expect(other.data.number).toBe(5);
  });
});

describe('@octokit/rest against the stateful stub', () => {
  let stub: RunningStub;
  let octokit: Octokit;
  beforeAll(async () => {
    stub = await startStub({ spec: GITHUB, fixtures: '/nonexistent-octokit-fixtures', port: 0, watch: false, log: () => {}, seed: 1, stateful: true });
    octokit = clientOf(stub);
  }, 60_000);
  afterAll(async () => { await stub?.close(); });

  it('starts with the documented example issue, creates issues with new numbers, reads and updates them by number, and pages through them all', async () => {
    const milk = await octokit.rest.issues.create({ ...REPO, title: 'Buy milk' });
    const dog = await octokit.rest.issues.create({ ...REPO, title: 'Walk the dog' });
    const bread = await octokit.rest.issues.create({ ...REPO, title: 'Bake bread' });
    expect(milk.status).toBe(201);
    expect(new Set([milk.data.number, dog.data.number, bread.data.number]).size).toBe(3);

    const read = await octokit.rest.issues.get({ ...REPO, issue_number: milk.data.number });
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ number: milk.data.number, title: 'Buy milk' });

    const updated = await octokit.rest.issues.update({ ...REPO, issue_number: milk.data.number, title: 'Buy oat milk' });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ number: milk.data.number, title: 'Buy oat milk' });

    const listed = await octokit.paginate(octokit.rest.issues.listForRepo, { ...REPO, per_page: 2 });
    expect(listed.map((issue) => [issue.number, issue.title])).toEqual([
      [1347, 'Found a bug'], [milk.data.number, 'Buy oat milk'], [dog.data.number, 'Walk the dog'], [bread.data.number, 'Bake bread'],
    ]);
  });

  it('answers 304 to a conditional read of an unchanged issue, and the new body once it changed', async () => {
    const created = await octokit.rest.issues.create({ ...REPO, title: 'Water plants' });
    const first = await octokit.rest.issues.get({ ...REPO, issue_number: created.data.number });
    const unchanged = await octokit.rest.issues.get({ ...REPO, issue_number: created.data.number, headers: { 'if-none-match': first.headers.etag } }).catch((error) => error);
    expect(unchanged.status).toBe(304);
    await octokit.rest.issues.update({ ...REPO, issue_number: created.data.number, title: 'Water the ferns' });
    const changed = await octokit.rest.issues.get({ ...REPO, issue_number: created.data.number, headers: { 'if-none-match': first.headers.etag } });
    expect(changed.status).toBe(200);
    expect(changed.data.title).toBe('Water the ferns');
  });
});
