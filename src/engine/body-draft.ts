// A built answer while stage 8 adjusts it (agree-with-request.ts, links-on-stub.ts,
// cursor-pages.ts): each adjustment proposes patches, a field with the values to try in turn, and
// the body is checked against its schema once, when they are all in, instead of once per
// tentative change. A violation about a patched field moves that field to its next value (or
// back to what it was); a violation no patch explains (an object's `oneOf`, a property its parent
// requires) has the patches tried one at a time, each kept only where the body still fits, so
// the answer is the same either way. The built body is never changed (it may be the document's
// own example): the objects on a patched field's path are copied once, the rest shared.
import { escapePointerToken } from '../common/json-pointer.js';
import type { BuiltResponse } from './engine-types.js';
import { checkBody } from './check-body.js';

/** Where a field's holder is in the body: the keys from the top (`['data', 0]`). */
export type BodyPath = readonly (string | number)[];

/** A value that takes the field out of the body. */
export const LEFT_OUT = Symbol('left out');

type Holder = Record<string | number, unknown>;

interface Patch {
  /** The fields it sets: their holders' paths and keys, and their pointers for matching violations. */
  fields: ReadonlyArray<{ path: BodyPath; key: string | number; pointer: string }>;
  /** Each alternative's value for every field, tried in order. */
  alternatives: ReadonlyArray<readonly unknown[]>;
  /** What the fields held before (LEFT_OUT where absent). */
  before: readonly unknown[];
  /** The alternative in place; -1 when the fields are back as they were. */
  at: number;
}

export class BodyDraft {
  /** The body as it stands, the proposed values in place. */
  body: unknown;
  /** The headers as they stand (copied on the first change). */
  headers: Record<string, string>;
  /** The objects copied so far, made at the first write (most answers have none). */
  private copies: WeakSet<object> | null = null;
  private readonly patches: Patch[] = [];

  constructor(readonly built: BuiltResponse) {
    this.body = built.body;
    this.headers = built.headers;
  }

  /** Sets a header (undefined removes it); headers are not checked against the schema here. */
  setHeader(name: string, value: string | undefined): void {
    if (this.headers === this.built.headers) this.headers = { ...this.headers };
    if (value === undefined) delete this.headers[name];
    else this.headers[name] = value;
  }

  /** `path` + `key` set to the first of `values` that keeps the body valid, else left as it was. */
  propose(path: BodyPath, key: string | number, values: readonly unknown[]): void {
    if (values.length > 0) this.add([{ path, key }], values.map((value) => [value]));
  }

  /** Several fields set together, kept or left together (a list's ids made distinct). */
  proposeTogether(changes: ReadonlyArray<{ path: BodyPath; key: string | number; value: unknown }>): void {
    if (changes.length > 0) this.add(changes, [changes.map((change) => change.value)]);
  }

  /** The adjusted answer: the patches that fit kept, the body checked once when any was proposed. */
  settle(): BuiltResponse {
    if (this.patches.length === 0) return this.headers === this.built.headers ? this.built : { ...this.built, headers: this.headers };
    let violations = this.check();
    while (violations.length > 0) {
      const implicated = this.implicated(violations);
      if (implicated === null) return this.oneByOne();
      for (const patch of implicated) this.put(patch, patch.at + 1 < patch.alternatives.length ? patch.at + 1 : -1);
      violations = this.check();
    }
    return this.adjusted();
  }

  private add(fields: ReadonlyArray<{ path: BodyPath; key: string | number }>, alternatives: ReadonlyArray<readonly unknown[]>): void {
    const before = fields.map(({ path, key }) => {
      const holder = this.read(path);
      return Object.hasOwn(holder, key) ? holder[key] : LEFT_OUT;
    });
    const patch: Patch = { fields: fields.map(({ path, key }) => ({ path, key, pointer: pointerOf(path, key) })), alternatives, before, at: -1 };
    this.patches.push(patch);
    this.put(patch, 0);
  }

  private put(patch: Patch, at: number): void {
    patch.at = at;
    patch.fields.forEach(({ path, key }, i) => {
      const holder = this.writable(path);
      const value = at < 0 ? patch.before[i] : patch.alternatives[at][i];
      if (value === LEFT_OUT) delete holder[key];
      else holder[key] = value;
    });
  }

  /** The patches in place that the violations are about; null when one of them is about none. */
  private implicated(violations: readonly string[]): Set<Patch> | null {
    const found = new Set<Patch>();
    for (const violation of violations) {
      const at = violation.slice(0, violation.indexOf(': '));
      const about = this.patches.filter((patch) => patch.at >= 0 && patch.fields.some(({ pointer }) => at === pointer || at.startsWith(`${pointer}/`)));
      if (about.length === 0) return null;
      for (const patch of about) found.add(patch);
    }
    return found;
  }

  /** Every patch back, then each tried in order, each value kept only where the body still fits. */
  private oneByOne(): BuiltResponse {
    for (let i = this.patches.length - 1; i >= 0; i--) this.put(this.patches[i], -1);
    for (const patch of this.patches) {
      let at = 0;
      for (; at < patch.alternatives.length; at++) {
        this.put(patch, at);
        if (this.check().length === 0) break;
      }
      if (at === patch.alternatives.length) this.put(patch, -1);
    }
    return this.adjusted();
  }

  private adjusted(): BuiltResponse {
    if (!this.patches.some((patch) => patch.at >= 0)) return { ...this.built, headers: this.headers };
    return { ...this.built, body: this.body, headers: this.headers, bodyViolations: [] };
  }

  private check(): string[] {
    return checkBody({ ...this.built, body: this.body });
  }

  private read(path: BodyPath): Holder {
    let holder = this.body as Holder;
    for (const key of path) holder = holder[key] as Holder;
    return holder;
  }

  /** The holder at `path`, it and every object above it copied the first time one of them is written. */
  private writable(path: BodyPath): Holder {
    const copies = (this.copies ??= new WeakSet());
    if (!copies.has(this.body as object)) this.body = copied(this.body as Holder, copies);
    let holder = this.body as Holder;
    for (const key of path) {
      const inner = holder[key] as Holder;
      holder = copies.has(inner) ? inner : (holder[key] = copied(inner, copies)) as Holder;
    }
    return holder;
  }
}

/** A shallow copy of an object or array, remembered among `copies`. */
function copied(value: Holder, copies: WeakSet<object>): Holder {
  const copy = Array.isArray(value) ? [...value] as unknown as Holder : { ...value };
  copies.add(copy);
  return copy;
}

/** The JSON pointer of `path` + `key`, as violations name it. */
function pointerOf(path: BodyPath, key: string | number): string {
  let pointer = '';
  for (const part of path) pointer += `/${escapePointerToken(String(part))}`;
  return `${pointer}/${escapePointerToken(String(key))}`;
}
