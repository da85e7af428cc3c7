// Small files with one purpose (the team's standard; issue 22): a source file of src/ over 300
// lines says why at its top, in a comment of its first 15 lines that names its length ("Longer
// than 300 lines on purpose: …"), so a long file is a decision a reader can see, not a drift.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const LIMIT = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.(ts|js)$/.test(entry.name) ? [join(dir, entry.name)] : []);
}

describe('src/ files', () => {
  it(`over ${LIMIT} lines each say why in their first lines`, () => {
    const unexplained = sourceFiles(SRC).flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      const length = lines.length - (lines.at(-1) === '' ? 1 : 0);
      const explained = lines.slice(0, 15).some((line) => /^\s*(\/\/|\*).*\b300 lines\b/.test(line));
      return length > LIMIT && !explained ? [`${relative(SRC, file)}: ${length} lines`] : [];
    });
    expect(unexplained).toEqual([]);
  });
});
