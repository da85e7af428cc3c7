// Which request headers and query parameters carry credentials: the usual ones, plus the names
// the document's apiKey schemes declare. The journal shows them redacted.

const ALWAYS_REDACTED = ['authorization', 'proxy-authorization', 'cookie', 'x-admin-token'];

/** Header (lower-case) and query names whose values are credentials. */
export interface Secrets {
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
}

export const NO_SECRETS: Secrets = { headers: new Set(ALWAYS_REDACTED), query: new Set() };

/** The credentials of a document: the always-redacted headers plus its apiKey header and query names. */
export function secretsOf(securitySchemes: Record<string, { type?: string; in?: string; name?: string }>): Secrets {
  const headers = new Set(ALWAYS_REDACTED);
  const query = new Set<string>();
  for (const scheme of Object.values(securitySchemes)) {
    if (scheme?.type !== 'apiKey' || typeof scheme.name !== 'string') continue;
    if (scheme.in === 'header') headers.add(scheme.name.toLowerCase());
    if (scheme.in === 'query') query.add(scheme.name);
  }
  return { headers, query };
}
