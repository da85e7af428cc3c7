// RE2 (re2js) runs the document's `pattern`s in linear time (see schema-compiler.ts). Loaded on
// first use, so that a page whose document has no pattern never downloads it (147 KB minified,
// the largest part of the page's script after faker): in Node it is required then; elsewhere the
// fetch entry imports it ahead for a document with patterns.
import type { RE2JS } from 're2js';
import { requireInNode } from '../common/require-in-node.js';

type Re2Library = typeof import('re2js');

let library: Re2Library | null = null;

/** Imports re2js now, for runtimes where it cannot be required when first needed. */
export async function importRe2(): Promise<void> {
  library ??= await import('re2js');
}

export function re2(): typeof RE2JS {
  library ??= requireInNode<Re2Library>('re2js');
  if (!library) throw new Error('re2js was not imported; await importRe2() before compiling a document with patterns');
  return library.RE2JS;
}
