// A property whose schema says `format: uri` while the document's own examples give it a path
// relative to the API's host (Twilio's `next_page_uri: "/2010-04-01/Accounts/AC…/Calls.json?Page=1"`)
// means a URI reference: the official clients prefix their own host to it. Read as `format: uri`,
// every such example and every relative link the stub builds for it (so a client that follows it
// stays on the stub) would break the schema. The examples are the evidence: the validation copy
// reads such a property as `uri-reference`, and says so as a warning.
import { isObject } from '../common/json-value.js';

/** A path on the same host (`/a/b?c=1`): not a network-path reference (`//host/…`), no blanks. */
const RELATIVE_PATH = /^\/(?!\/)[^\s]*$/;

/** Collects, from example data, the property names that hold relative paths, and the `format: uri` properties seen. */
export class RelativeUris {
  private readonly relativeNames = new Set<string>();
  private readonly uriProperties: Array<{ name: string; copy: Record<string, unknown>; at: string }> = [];

  /** Walks example data (`example`, `examples`) for object keys whose value is a relative path. */
  readExamples(value: unknown, depth = 0): void {
    if (depth > 64) return;
    if (Array.isArray(value)) {
      for (const item of value) this.readExamples(item, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    for (const key in value) {
      const inner = value[key];
      if (typeof inner === 'string') {
        if (RELATIVE_PATH.test(inner)) this.relativeNames.add(key);
      } else if (typeof inner === 'object' && inner !== null) this.readExamples(inner, depth + 1);
    }
  }

  /** Notes the copy of a property's schema that asks for `format: uri` (`name` its key under `properties`, `at` its pointer). */
  noteProperty(name: string, copy: Record<string, unknown>, at: string): void {
    this.uriProperties.push({ name, copy, at });
  }

  /** Once the whole document is read: each noted property the examples give relative paths reads as `uri-reference`. */
  apply(warn: (at: string, name: string) => void): void {
    for (const { name, copy, at } of this.uriProperties) {
      if (!this.relativeNames.has(name)) continue;
      copy.format = 'uri-reference';
      warn(at, name);
    }
  }
}
