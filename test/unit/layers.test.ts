// The layout map of src/ holds: each folder imports only folders below it in this
// order, so the dependencies stay one-way; and no file reaches itself through its imports, inside a
// folder either (type-only imports count: a loop of types is a loop a reader has to untangle). A
// new folder must be placed here (and in the map) to pass.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
/** Top to bottom; folders on one line are peers and may not import each other. */
const LAYERS = [['http', 'fetch'], ['stub'], ['record', 'scenarios', 'outbound', 'proxy'], ['engine'], ['openapi'], ['generate'], ['config'], ['common']];
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

/** File -> the files it imports (relative specifiers only; packages are outside the graph). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)]
      .map(([, target]) => resolve(dirname(file), target).replace(/\.js$/, '.ts'))
      .filter((target) => existsSync(target));
    graph.set(relative(SRC, file), targets.map((target) => relative(SRC, target)));
  }
  return graph;
}

/** Every import loop, each as the files of one strongly connected component (Tarjan's algorithm). */
function importLoops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) loops.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

describe('src/ files', () => {
  it('import each other without a loop, inside a folder too', () => {
    expect(importLoops(importGraph())).toEqual([]);
  });

  it('are found by the loop finder when there is one', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(importLoops(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
