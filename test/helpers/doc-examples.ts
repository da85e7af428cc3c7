// Examples read out of docs/*.md, so the pages' examples are what the tests run: fenced code
// blocks, and the fixture files a page prints (blocks whose first line is `# fixtures/NAME`).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The fenced blocks of `docs/<page>`, in order, with their info string (`yaml`, `sh`, ''); a block
 * indented inside a list item (webhooks.md's fixture) is read without its indent.
 */
export async function codeBlocks(page: string): Promise<Array<{ lang: string; text: string }>> {
  const markdown = await readFile(join(ROOT, 'docs', page), 'utf8');
  return [...markdown.matchAll(/^( *)```(\S*)\n([\s\S]*?)^\1```$/gm)].map(([, indent, lang, text]) => ({
    lang,
    text: indent === '' ? text : text.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n'),
  }));
}

/** Writes each `# fixtures/NAME` block of the page into `dir` as NAME; returns the names. */
export async function writeFixtureBlocks(page: string, dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const { text } of await codeBlocks(page)) {
    const name = /^# fixtures\/(\S+)\n/.exec(text)?.[1];
    if (name === undefined) continue;
    await writeFile(join(dir, name), text);
    written.push(name);
  }
  return written;
}
