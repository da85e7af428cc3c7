// YAML (and so JSON) text from a file the user gave us, parsed with errors that name the file,
// the line and the column: the one way the spec and the fixtures are read. js-yaml, because it
// parses large specs several times faster than the alternatives, which is start-up time.
import { load, YAMLException } from 'js-yaml';
import { ConfigError } from './config-error.js';

export function parseYamlFile(file: string, text: string): unknown {
  // JSON is YAML, but js-yaml took 1.2 s on GitHub's 13 MB JSON document and JSON.parse 0.1 s.
  // Text that is not valid JSON goes through js-yaml, for its errors with line and column. (A
  // key written twice in one JSON object keeps its last value, as JSON.parse does.)
  if (/^\s*[{[]/.test(text.slice(0, 64))) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON: YAML's flow style, or an error js-yaml will locate
    }
  }
  try {
    // Aliases are capped so a hostile document cannot expand into gigabytes ("billion laughs").
    return load(text, { filename: file, maxDepth: 1000, maxAliases: 10_000 });
  } catch (error) {
    if (error instanceof YAMLException) {
      const where = error.mark ? ` at line ${error.mark.line + 1}, column ${error.mark.column + 1}` : '';
      throw new ConfigError(file, `invalid YAML${where}: ${error.reason}`);
    }
    throw new ConfigError(file, `invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

