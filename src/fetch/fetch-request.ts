// The fetch adapter's way in: a standard Request read into the engine's plain PlainRequest, as
// serve-request.ts reads a node:http request: the path under the base URL, the raw query, lower-case
// headers, the body bytes (bounded), a multipart body split into its parts.
import type { FormPart, PlainRequest } from '../common/plain-http.js';
import type { BaseUrl } from './fetch-options.js';
import { readCapped } from '../common/read-capped.js';

/** Where a request goes, read from its URL alone (its body is not touched). */
export interface Target {
  path: string;
  rawQuery: string;
}

/** The request's path under the base URL and its raw query; null outside the base URL (another origin or path). */
export function locate(request: Request, base: BaseUrl): Target | null {
  const url = new URL(request.url);
  const path = pathUnder(url, base);
  return path === null ? null : { path, rawQuery: url.search.slice(1) };
}

/** The request as the engine sees it. */
export async function toPlainRequest(request: Request, { path, rawQuery }: Target, maxBodyBytes: number, mountPath = ''): Promise<PlainRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const { bytes: body, exceeded } = await readCapped(request.body, maxBodyBytes);
  const plainRequest: PlainRequest = { method: request.method, path, rawQuery, mountPath, headers, body };
  if (exceeded) plainRequest.bodyLimitExceeded = maxBodyBytes;
  else if (body.length > 0 && /^\s*multipart\/form-data\s*(;|$)/i.test(headers['content-type'] ?? '')) plainRequest.multipart = await readParts(body, headers['content-type']);
  return plainRequest;
}

/** The request's path with the base URL's path taken off, at a segment boundary; null outside it. */
function pathUnder(url: URL, base: BaseUrl): string | null {
  if (base.origin !== null && url.origin !== base.origin) return null;
  if (base.path === '') return url.pathname;
  if (url.pathname === base.path) return '/';
  return url.pathname.startsWith(base.path + '/') ? url.pathname.slice(base.path.length) : null;
}

/** Parts beyond this are refused, as the server's busboy limit does. */
const MAX_PARTS = 1000;

/**
 * A multipart body split by the runtime's own parser (`Response#formData`, in browsers and Node
 * alike); a file part's content is kept as its text. Its error messages are the runtime's, so
 * they differ from the server's busboy messages for the same broken body.
 */
async function readParts(body: Uint8Array, contentType: string): Promise<PlainRequest['multipart']> {
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const parts: FormPart[] = [];
  for (const [name, value] of form) {
    if (parts.length === MAX_PARTS) return { error: `more than ${MAX_PARTS} parts` };
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, value: await value.text(), filename: value.name, contentType: value.type });
  }
  return { parts };
}
