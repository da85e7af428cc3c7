// A fixture scenario's `match`, checked at start like the rest of the fixture: it may name only
// parameters the operation has, with values written as the URL or header carries them, each
// valid for its schema once read as the stub reads requests (`id: "abc"` for an integer path
// parameter could never match, so it is an error, not a scenario that silently never answers).
import { ConfigError } from '../config/config-error.js';
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { ScenarioMatch } from '../engine/scenario.js';
import { leafCount } from '../engine/match-scenario.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { isObject } from '../common/json-value.js';

const MATCH_KEYS = ['path', 'query', 'headers', 'body'];
/** A `match` section's name -> the parameter location it names, as the violations spell it. */
const LOCATION = { path: 'path', query: 'query', headers: 'header' } as const;

/** `at`: the scenario's JSON pointer in `file`. */
export function checkMatch(file: string, at: string, operation: CompiledOperation, raw: unknown): ScenarioMatch {
  const problem = (pointer: string, message: string) => new ConfigError(file, `${at}/match${pointer}: ${message}`);
  if (!isObject(raw)) throw problem('', 'must be a mapping of path, query, headers and body');
  const unknown = Object.keys(raw).find((key) => !MATCH_KEYS.includes(key));
  if (unknown !== undefined) throw problem(`/${escapePointerToken(unknown)}`, `unknown field; allowed: ${MATCH_KEYS.join(', ')}`);

  const path = texts(raw.path, '/path', problem, false) as Record<string, string>;
  const query = texts(raw.query, '/query', problem, true);
  const headers = Object.fromEntries(Object.entries(texts(raw.headers, '/headers', problem, false)).map(([name, value]) => [name.toLowerCase(), value as string]));
  for (const [section, names] of [['path', Object.keys(path)], ['query', Object.keys(query)], ['headers', Object.keys(headers)]] as const) {
    const location = LOCATION[section];
    const declared = operation.validateParameters.declared.filter((p) => p.location === location).map((p) => p.name);
    const undeclared = names.find((name) => !declared.includes(name));
    if (undeclared !== undefined) {
      throw problem(`/${section}/${escapePointerToken(undeclared)}`, `${operation.key} has no ${location} parameter "${undeclared}" (declared: ${declared.join(', ') || 'none'})`);
    }
  }
  // The values are read and validated exactly as a request's would be; only violations about the
  // parameters named here count (a required parameter the match leaves out is not one).
  const sent = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const one of [value].flat()) sent.append(name, one);
  const sections = [['path', path], ['query', query], ['headers', headers]] as const;
  const violations = operation.validateParameters(path, sent, headers).flatMap((violation) => {
    for (const [section, values] of sections) {
      const prefix = `/${LOCATION[section]}/`;
      const rest = violation.slice(prefix.length);
      const isNamed = violation.startsWith(prefix) && Object.keys(values).some((name) => /^[:/]/.test(rest.slice(escapePointerToken(name).length)) && rest.startsWith(escapePointerToken(name)));
      if (isNamed) return [`${at}/match/${section}/${rest}`];
    }
    return [];
  });
  if (violations.length > 0) throw new ConfigError(file, `${violations.join('; ')} (the value as a request would carry it, read by ${operation.key}'s parameter schemas)`);

  const body = raw.body;
  if (body !== undefined && !operation.body?.media.some((media) => media.json)) throw problem('/body', `${operation.key} takes no JSON request body to match`);
  const specificity = Object.keys(path).length + Object.keys(query).length + Object.keys(headers).length + (body === undefined ? 0 : leafCount(body));
  if (specificity === 0) throw problem('', 'names nothing to match; name path, query, headers or body values (or remove it)');
  return { path, query, headers, body, specificity };
}

/** A mapping of names to text (a list of texts where `lists`); absent means empty. */
function texts(raw: unknown, pointer: string, problem: (pointer: string, message: string) => Error, lists: boolean): Record<string, string | string[]> {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw problem(pointer, 'must be a mapping of names to values');
  for (const [name, value] of Object.entries(raw)) {
    const ok = typeof value === 'string' || (lists && Array.isArray(value) && value.every((v) => typeof v === 'string'));
    // `id: 404` is YAML's number; the URL carries text, and writing it as text keeps `007` and `1e3` what they are.
    if (!ok) throw problem(`${pointer}/${escapePointerToken(name)}`, `must be text as the request carries it (e.g. "${String(value)}")${lists ? ', or a list of texts for a repeated parameter' : ''}`);
  }
  return raw as Record<string, string | string[]>;
}
