// Most documents and fixtures are JSON, which JSON.parse reads many times faster than a YAML
// parser (0.1 s against js-yaml's 1.2 s on GitHub's 13 MB document). Apart from parse-yaml.ts so
// that the fetch entry can read JSON text without downloading the YAML parser.

/** The value of text that is valid JSON (an object or array), else undefined (YAML, or an error a parser will locate). */
export function parsedIfJson(text: string): unknown {
  if (!/^\s*[{[]/.test(text.slice(0, 64))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // YAML's flow style, or an error the YAML or JSON parser will locate
  }
}
