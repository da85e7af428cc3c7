// YAML (and so JSON) text from a file the user gave us, parsed with errors that name the file,
// the line and the column: the one way the spec and the fixtures are read (a `.json` file by
// parse-json.ts, so that its errors are JSON's). js-yaml, because it
// parses large specs several times faster than the alternatives, which is start-up time.
import { load, YAMLException } from 'js-yaml';
import { ConfigError } from './config-error.js';
import { parseJsonFile } from './parse-json.js';
import { parsedIfJson } from './json-first.js';

/**
 * The most values a file may hold once its YAML aliases are expanded. An alias is a reference to
 * the anchored value, so parsing stays cheap; but everything after the parser (bundling, the
 * validation copy, Ajv, the generator) walks the expanded tree. Ten levels of ten aliases (a
 * "billion laughs", well under the alias cap) froze the server for 37 s at 950 MB. GitHub's
 * whole document holds about 1.5 million values.
 */
export const MAX_EXPANDED_VALUES = 5_000_000;

/** An anchor (`&name`) somewhere in the text: only then can aliases expand anything. */
const MAY_HOLD_ANCHORS = /(?:^|[\s[{,:-])&[^\s,[\]{}]/;

export function parseYamlFile(file: string, text: string): unknown {
  if (/\.json$/i.test(file)) return parseJsonFile(file, text);
  // JSON is YAML, but has no aliases to expand and parses far faster (json-first.ts). Text that is
  // not valid JSON goes through js-yaml, for its errors with line and column. (A key written twice
  // in one JSON object keeps its last value.)
  const json = parsedIfJson(text);
  if (json !== undefined) return json;
  let value: unknown;
  try {
    // Aliases are capped so a hostile document cannot expand into gigabytes ("billion laughs").
    value = load(text, { filename: file, maxDepth: 1000, maxAliases: 10_000 });
  } catch (error) {
    if (error instanceof YAMLException) {
      const where = error.mark ? ` at line ${error.mark.line + 1}, column ${error.mark.column + 1}` : '';
      throw new ConfigError(file, `invalid YAML${where}: ${error.reason}`);
    }
    throw new ConfigError(file, `invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (MAY_HOLD_ANCHORS.test(text) && expandsBeyond(value, MAX_EXPANDED_VALUES)) {
    throw new ConfigError(file, `its YAML aliases (\`*name\`) expand it to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values ("billion laughs"); write the repeated parts once and refer to them with $ref`);
  }
  return value;
}

/** Whether `value`, each alias counted as a copy, holds more than `limit` values; stops counting there. */
function expandsBeyond(value: unknown, limit: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return true;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else for (const key in node) stack.push((node as Record<string, unknown>)[key]);
  }
  return false;
}
