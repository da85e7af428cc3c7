// The README's map of src/ holds: each folder imports only folders below it in this order, so the
// dependencies stay one-way. A new folder must be placed here (and in the README) to pass.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
/** Top to bottom; folders on one line are peers and may not import each other. */
const LAYERS = [['http'], ['stub'], ['record', 'scenarios', 'deliver'], ['engine'], ['openapi'], ['generate'], ['config'], ['common']];
const rank = new Map(LAYERS.flatMap((peers, i) => peers.map((folder) => [folder, i] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
}

function folderOf(file: string): string {
  return relative(SRC, file).split('/')[0];
}

const imports = sourceFiles(SRC).filter((file) => relative(SRC, file).includes('/')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map(([, target]) => ({
    file: relative(SRC, file),
    from: folderOf(file),
    to: folderOf(join(dirname(file), target)),
  })));

describe('src/ folders', () => {
  it('are each placed in the layer map', () => {
    const folders = new Set(sourceFiles(SRC).filter((file) => relative(SRC, file).includes('/')).map(folderOf));
    expect([...folders].filter((folder) => !rank.has(folder))).toEqual([]);
  });

  it('import only folders below them (no cycles, no peers)', () => {
    const upward = imports.filter(({ from, to }) => from !== to && rank.get(to)! <= rank.get(from)!);
    expect(upward.map(({ file, to }) => `${file} imports ${to}/`)).toEqual([]);
  });
});
