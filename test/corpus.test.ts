// Real documents, served: the stub started on each document of @readme/oas-examples (one feature
// each), on GitHub's whole document (@octokit/openapi) and on the public documents kept in
// ../shared/realworld/ (read from there, never copied; skipped with one line when the folder is
// absent), with one valid request per operation built from the document. Every answer must come
// without a 5xx, and at least MIN_DOCUMENTED of them with a documented status and a body valid
// for its schema. The figures per document are printed.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCorpusDocument, type CorpusOutcome } from './helpers/corpus.js';

const require = createRequire(import.meta.url);
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const REALWORLD = join(ROOT, '..', 'shared', 'realworld');

/**
 * The share of valid requests answered with a documented status and a valid body, over all
 * documents, on the documents a clone has and with ../shared/realworld beside it alike. Requests
 * the helper cannot make valid (an ambiguous oneOf, an allOf of string and integer, two
 * credentials in one Authorization header: see 'no valid request' in helpers/corpus.ts) are
 * counted apart, not judged. The floor sits just under what the stub reaches (docs/benchmark.md
 * has the last figures), so a regression fails.
 */
const MIN_DOCUMENTED = 0.995;

function oasExamples(): string[] {
  const base = dirname(require.resolve('@readme/oas-examples/package.json'));
  return ['3.0', '3.1'].flatMap((version) => {
    const folder = join(base, version, 'json');
    return readdirSync(folder).filter((name) => name.endsWith('.json')).map((name) => join(folder, name));
  });
}

function realworld(): string[] {
  if (!existsSync(REALWORLD)) return [];
  const files = readdirSync(REALWORLD).filter((name) => /\.(json|ya?ml)$/.test(name)).map((name) => join(REALWORLD, name));
  const digitalocean = join(REALWORLD, 'digitalocean', 'specification', 'DigitalOcean-public.v2.yaml');
  return existsSync(digitalocean) ? [...files, digitalocean] : files;
}

const github = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
// CORPUS_ONLY=discord (a part of the file name) runs only the matching documents, while fixing one.
const documents = [...oasExamples(), github, ...realworld()].filter((file) => !process.env.CORPUS_ONLY || file.includes(process.env.CORPUS_ONLY));
const outcomes: CorpusOutcome[] = [];

/** The cases that can be judged: an operation that documents no final response has no documented answer to give. */
const judged = () => outcomes.flatMap((outcome) => outcome.cases).filter((c) => c.verdict !== 'nothing documented' && c.verdict !== 'no valid request');

const label = (file: string) => file.replace(/.*node_modules\//, '').replace(REALWORLD, 'realworld');

// A user's clone has nothing beside it (and their CI sets CI=true too): one line, not a failure.
if (!existsSync(REALWORLD)) console.log(`corpus: ${REALWORLD} is absent, so its documents are not tried (floor ${MIN_DOCUMENTED * 100}% on the bundled documents)`);

describe('the stub on real documents', () => {
  it.each(documents.map((file) => ({ file, name: label(file) })))('$name: every operation answered without a 5xx', async ({ file, name }) => {
    const outcome = await runCorpusDocument(file, name);
    outcomes.push(outcome);
    expect(outcome.cases.filter((c) => c.verdict === '5xx' || c.verdict === 'no answer')).toEqual([]);
  }, 600_000);

  it(`answers at least ${MIN_DOCUMENTED * 100}% of all valid requests with a documented status and a valid body`, () => {
    const all = judged();
    const documented = all.filter((c) => c.verdict === 'documented').length;
    expect(all.length).toBeGreaterThan(0);
    expect(documented / all.length).toBeGreaterThanOrEqual(MIN_DOCUMENTED);
  });
});

afterAll(() => {
  const lines = outcomes.map((outcome) => {
    const counts = new Map<string, number>();
    for (const c of outcome.cases) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
    const ok = counts.get('documented') ?? 0;
    const rest = [...counts].filter(([verdict]) => verdict !== 'documented').map(([verdict, n]) => `${n} ${verdict}`).join(', ');
    return `${outcome.document}: ${ok}/${outcome.cases.length} documented${rest ? ` (${rest})` : ''}`;
  });
  const all = judged();
  const failures = outcomes.flatMap((outcome) => outcome.cases.filter((c) => c.verdict !== 'documented').map((c) => `  ${outcome.document} ${c.operation}: ${c.verdict}: ${c.detail}\n    sent: ${c.sent}`));
  const documented = all.filter((c) => c.verdict === 'documented').length;
  const count = (verdict: string) => outcomes.flatMap((outcome) => outcome.cases).filter((c) => c.verdict === verdict).length;
  process.stdout.write(`\ncorpus: ${documented}/${all.length} documented answers (${((100 * documented) / Math.max(all.length, 1)).toFixed(1)}%; not judged: ${count('nothing documented')} operations document no final response, ${count('no valid request')} have no request their document accepts)\n${lines.join('\n')}\n`);
  if (process.env.CORPUS_DETAILS) process.stdout.write(`${failures.join('\n')}\n`);
});
