// docs/architecture.md says why each dependency is there: every package package.json names
// (dependencies, devDependencies, peerDependencies) is in one of its tables or lines, in backticks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
const architecture = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('names every dependency of package.json with its reason', () => {
    const named = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !architecture.includes(`\`${name}\``))).toEqual([]);
  });
});
