// The one place that says what a media type is: JSON, XML, text or a form. Compiling, validating
// a request body, negotiating Accept and serializing an answer all ask here, so they agree.

/** `Application/JSON; charset=utf-8` -> `application/json`. */
export function baseMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

/** JSON and its suffix types (`application/problem+json`); the wildcards `*\/*` and `application/*` are served as JSON too. */
export function isJsonMediaType(type: string): boolean {
  const base = baseMediaType(type);
  return base === 'application/json' || base.endsWith('+json') || base === '*/*' || base === 'application/*';
}

export function isXmlMediaType(type: string): boolean {
  const base = baseMediaType(type);
  return base === 'application/xml' || base === 'text/xml' || base.endsWith('+xml');
}

export function isTextMediaType(type: string): boolean {
  return type.toLowerCase().startsWith('text/');
}

export type FormKind = 'urlencoded' | 'multipart';

/** The form a body of this media type is, or null for a type that is not a form. */
export function formKind(type: string): FormKind | null {
  const base = baseMediaType(type);
  return base === 'application/x-www-form-urlencoded' ? 'urlencoded' : base === 'multipart/form-data' ? 'multipart' : null;
}
