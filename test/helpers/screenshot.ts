// Screenshots for the docs, taken by the tests that drive the page, so the docs show the page as
// it is. A fresh screenshot replaces the one in docs/images/ only when it looks different: the
// same page drawn twice gives PNGs whose bytes differ a little, and rewriting the file on every
// run would leave every checkout with a change to commit.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

/** The share of pixels that may differ (anti-aliasing, a blinking caret) before it counts as a new look. */
const UNCHANGED = 0.002;

/** Writes `png` to `file` unless the file already shows the same picture; true when it was written. */
export function keepScreenshot(file: string, png: Buffer): boolean {
  if (existsSync(file) && samePicture(PNG.sync.read(readFileSync(file)), PNG.sync.read(png))) return false;
  writeFileSync(file, png);
  return true;
}

function samePicture(a: PNG, b: PNG): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) differing++;
  }
  return differing / (a.width * a.height) <= UNCHANGED;
}
