// The one place that says what a media type is: JSON, XML, text or a form. Compiling, validating
// a request body, negotiating Accept and serializing an answer all ask here, so they agree.

/** `Application/JSON; charset=utf-8` -> `application/json`. */
export function baseMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

/** JSON and its suffix types (`application/problem+json`); the wildcards `*\/*` and `application/*` are served as JSON too. */
export function isJsonMediaType(type: string): boolean {
  let json = jsonByType.get(type);
  if (json === undefined) {
    const base = baseMediaType(type);
    json = base === 'application/json' || base.endsWith('+json') || base === '*/*' || base === 'application/*';
    // Bounded: the types asked about on the hot path (serializing every answer) are the document's few.
    if (jsonByType.size < MEMO_LIMIT) jsonByType.set(type, json);
  }
  return json;
}

const MEMO_LIMIT = 1000;
const jsonByType = new Map<string, boolean>();

export function isXmlMediaType(type: string): boolean {
  const base = baseMediaType(type);
  return base === 'application/xml' || base === 'text/xml' || base.endsWith('+xml');
}

export function isTextMediaType(type: string): boolean {
  return type.toLowerCase().startsWith('text/');
}

export type FormKind = 'urlencoded' | 'multipart';

// Tested without taking the type apart: formKind runs on every request with a body (is it
// multipart?), where splitting and lower-casing the header cost more than the rest of the check.
const URLENCODED = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;
const MULTIPART = /^\s*multipart\/form-data\s*(;|$)/i;

/** The form a body of this media type is, or null for a type that is not a form. */
export function formKind(type: string): FormKind | null {
  return MULTIPART.test(type) ? 'multipart' : URLENCODED.test(type) ? 'urlencoded' : null;
}
