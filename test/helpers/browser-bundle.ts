// Bundles an entry for a browser as an application's bundler would (esbuild, platform browser,
// no shims for Node), keeping what a test needs to check: the code, its gzipped size, and every
// import that names a Node built-in.
import { gzipSync } from 'node:zlib';
import { builtinModules } from 'node:module';
import { build, type Message } from 'esbuild';

export interface BrowserBundle {
  code: string;
  minifiedBytes: number;
  gzippedBytes: number;
  /** Imports of Node built-ins (`node:fs`, `fs`) found on the way, with the file importing each. */
  nodeImports: string[];
  /** esbuild's errors, as text; empty when it built. */
  errors: string[];
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

export async function bundleForBrowser(entry: string, minify = true): Promise<BrowserBundle> {
  try {
    const result = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', minify, metafile: true, write: false, logLevel: 'silent' });
    const code = result.outputFiles[0].text;
    const nodeImports = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((imported) => BUILTINS.has(imported.path) || imported.path.startsWith('node:')).map((imported) => `${file} imports ${imported.path}`));
    const bytes = result.outputFiles[0].contents;
    return { code, minifiedBytes: bytes.length, gzippedBytes: gzipSync(bytes, { level: 9 }).length, nodeImports, errors: [] };
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors ?? [];
    return { code: '', minifiedBytes: 0, gzippedBytes: 0, nodeImports: [], errors: messages.map((m) => `${m.location?.file ?? ''}: ${m.text}`) };
  }
}
