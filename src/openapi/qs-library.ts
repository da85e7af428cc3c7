// qs reads a form's bracketed fields (`metadata[order_id]`, compile-form.ts). Loaded on first
// use, so that a page whose document takes no urlencoded form never downloads it (with the
// packages it pulls in, about a tenth of the page's script): in Node it is required then;
// elsewhere the fetch entry imports it ahead for a document with such a form.
import type QsModule from 'qs';
import { requireInNode } from '../common/require-in-node.js';

type Qs = typeof QsModule;

let library: Qs | null = null;

/** Imports qs now, for runtimes where it cannot be required when first needed. */
export async function importQs(): Promise<void> {
  library ??= ((await import('qs')) as { default: Qs }).default;
}

export function qsLibrary(): Qs {
  library ??= requireInNode<Qs>('qs');
  if (!library) throw new Error('qs was not imported; await importQs() before reading a urlencoded form');
  return library;
}
