// The plain values every layer passes around. Nothing here knows about Express or node:http:
// adapters turn a transport request into a PlainRequest (the engine's answer is engine/engine-response.ts).

/** A request as the engine sees it. Header names are lower-case. */
export interface PlainRequest {
  method: string;
  /** Path without the query string, still percent-encoded as received. */
  path: string;
  /** Raw query string without the leading `?` ('' when absent). */
  rawQuery: string;
  /** Where the host mounted the stub (`/mock` of an Express app, the fetch handler's base path); absent or '' at the root. */
  mountPath?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body bytes (a Buffer from node:http); empty when the request had none. */
  body: Uint8Array;
  /** Set by the adapter when the body passed the size limit: the rest was never read (413). */
  bodyLimitExceeded?: number;
  /** Set by the adapter for a `multipart/form-data` body: its parts, or why they could not be read. */
  multipart?: { parts: FormPart[] } | { error: string };
}

/** One field of a form body; a file's content is its text (the body is bounded by --max-body). */
export interface FormPart {
  name: string;
  value: string;
  filename?: string;
  contentType?: string;
}

/** A JSON body parsed so that numbers keep their exact text where a double would change them. */
export interface ExactJson {
  /** The parsed value; numbers are doubles (possibly rounded for huge ones). */
  value: unknown;
  /** The same value with LosslessNumber leaves where `rawNumbers` has entries; undefined when `value` is already exact. */
  exact: unknown;
  /** JSON pointer -> raw number text, for every number whose text a double does not round-trip. */
  rawNumbers: ReadonlyMap<string, string>;
  /** The body was a form (urlencoded, multipart) read into an object: stateful mode stores it, nothing echoes it. */
  form?: true;
}

/** `text` percent-decoded, or as it came when it is not valid percent-encoding (`100%`). */
export function decodePercentOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
