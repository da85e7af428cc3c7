// The fetch and MSW entry points bundle for a browser without shims: no file of theirs, nor of
// their dependencies, imports a Node built-in. The Node entry is bundled the same way to show
// that the check fails where Node is needed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser } from './helpers/browser-bundle.js';

const SRC = join(import.meta.dirname, '..', 'src');

describe('a browser bundle (esbuild, platform browser)', () => {
  it.each(['fetch.ts', 'msw.ts'])('of src/%s builds with no import of a Node built-in', async (entry) => {
    const bundle = await bundleForBrowser(join(SRC, entry));
    expect(bundle.errors).toEqual([]);
    expect(bundle.nodeImports).toEqual([]);
    expect(bundle.code).toContain('x-mock-scenario');
  }, 60_000);

  it('of the Node entry (src/index.ts) is refused, naming the Node built-ins it needs', async () => {
    const bundle = await bundleForBrowser(join(SRC, 'index.ts'));
    expect(bundle.errors.join('\n')).toMatch(/"node:(fs|http|path|url)/);
  }, 60_000);
});
