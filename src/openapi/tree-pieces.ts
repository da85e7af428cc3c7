// A large plain tree (a parsed document, its validation copy) handed from a worker thread to the
// main thread in pieces. The worker serializes each subtree down to a fixed depth on its own (v8's
// structured clone, so dates, shared values and cycles inside a piece survive as they would in a
// postMessage), all in one transferred buffer; the main thread rebuilds the tree piece by piece,
// in slices. Measured on a 4,000-operation document: deserializing it whole held the main thread
// for 135 to 260 ms; piece by piece, the longest piece took under 14 ms (a GC included).
import { deserialize, serialize } from 'node:v8';
import { isObject, setOwn, type Json } from '../common/json-value.js';
import type { Steps } from '../common/slices.js';

/** How deep the tree is cut: `/components/schemas/Plant` and `/paths/~1plants/post` are pieces. */
const DEPTH = 3;

/** A tree in pieces, ready for postMessage (transfer `bytes`). */
export interface TreePieces {
  /** Each piece's place in the tree: its keys from the root, in the tree's key order. */
  places: string[][];
  /** Where each piece's bytes end in `bytes`. */
  ends: number[];
  bytes: ArrayBuffer;
}

/** Cuts `tree` into serialized pieces (in the worker). */
export function cutIntoPieces(tree: unknown): TreePieces {
  const places: string[][] = [];
  const buffers: Buffer[] = [];
  const cut = (node: unknown, place: string[]) => {
    const keys = isObject(node) ? Object.keys(node) : [];
    if (place.length >= DEPTH || keys.length === 0) {
      places.push(place);
      buffers.push(serialize(node));
      return;
    }
    for (const key of keys) cut((node as Json)[key], [...place, key]);
  };
  cut(tree, []);
  const ends: number[] = [];
  let end = 0;
  for (const buffer of buffers) ends.push((end += buffer.length));
  // One buffer of its own (not Node's shared pool), so it can be transferred rather than copied.
  const bytes = new ArrayBuffer(end);
  const view = new Uint8Array(bytes);
  buffers.forEach((buffer, i) => view.set(buffer, i === 0 ? 0 : ends[i - 1]));
  return { places, ends, bytes };
}

/** Rebuilds the tree (on the main thread), one piece per step. */
export function* gatherPieces({ places, ends, bytes }: TreePieces): Steps<unknown> {
  let root: unknown = undefined;
  for (let i = 0; i < places.length; i++) {
    const start = i === 0 ? 0 : ends[i - 1];
    const value = deserialize(Buffer.from(bytes, start, ends[i] - start));
    const place = places[i];
    if (place.length === 0) {
      root = value;
    } else {
      if (root === undefined) root = {};
      let node = root as Json;
      for (const key of place.slice(0, -1)) {
        if (!Object.hasOwn(node, key)) setOwn(node, key, {});
        node = node[key] as Json;
      }
      setOwn(node, place.at(-1)!, value);
    }
    yield;
  }
  return root;
}
