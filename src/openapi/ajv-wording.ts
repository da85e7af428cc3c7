// The wording of schema violations under the compat policy's `wording: 'ajv'` (Prism mode): Ajv's
// own message and keyword, which are what Prism's `validation` items carry (`code`, `message`), in
// the stub's one-line form `<pointer>: <message> [<keyword>]`. The keyword rides at the end of the
// line, where a reader of the log sees it too, so violations stay text everywhere (journal, log,
// error bodies) and only Prism's renderer reads the parts back (readViolation).
import type { ErrorObject } from 'ajv';

export function ajvWording(error: ErrorObject, prefix: string): string {
  const params = error.params as Record<string, unknown>;
  // Prism names what Ajv's sentence leaves out: an enum's values, the property not allowed.
  let named = '';
  if (Array.isArray(params.allowedValues)) named += `: ${params.allowedValues.map(String).join(', ')}`;
  if ('additionalProperty' in params) named += `; found '${String(params.additionalProperty)}'`;
  if ('unevaluatedProperty' in params) named += `: '${String(params.unevaluatedProperty)}'`;
  const where = prefix + error.instancePath;
  return `${where === '' ? '/' : where}: ${error.message ?? 'is invalid'}${named} [${keywordOf(error)}]`;
}

/** Draft-04's `exclusiveMinimum: true` fails as `minimum` with `>`: Prism (draft-07 rules) calls it `exclusiveMinimum`. */
function keywordOf(error: ErrorObject): string {
  const comparison = (error.params as { comparison?: unknown }).comparison;
  if (error.keyword === 'minimum' && comparison === '>') return 'exclusiveMinimum';
  if (error.keyword === 'maximum' && comparison === '<') return 'exclusiveMaximum';
  return error.keyword;
}

export interface ViolationParts {
  /** The pointer's tokens: `/query/limit` -> ['query', 'limit']; [] for the root. */
  path: string[];
  message: string;
  /** The schema keyword that failed; absent for the stub's own checks (a missing body, a charset). */
  code?: string;
}

/** `/query/limit: must be integer [type]` -> its parts; a line of another form is one message at the root. */
export function readViolation(text: string): ViolationParts {
  const match = /^(\/[^ ]*): (.*?)(?: \[([A-Za-z$]+)\])?$/s.exec(text);
  if (!match) return { path: [], message: text };
  const path = match[1].split('/').slice(1).filter((token) => token !== '').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  return match[3] === undefined ? { path, message: match[2] } : { path, message: match[2], code: match[3] };
}
