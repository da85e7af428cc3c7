// Turns an answer's body value into the bytes its media type calls for: JSON media types get JSON
// (numbers kept exact); XML media types get XML written from the value along the schema's `xml`
// hints, unless the value is XML text already (a documented example); every other media type gets
// the value as its text, so a `text/plain` example `pong` is sent as `pong`, not `"pong"`.
import { isJsonMediaType } from '../openapi/media-types.js';
import type { XmlWriter } from '../openapi/compile-xml.js';
import { stringifyExact } from '../common/exact-json.js';

export function serializeBody(body: unknown, exact: boolean, contentType: string | null, writeXml: XmlWriter | null): string {
  if (contentType === null || isJsonMediaType(contentType)) return stringifyExact(body, exact);
  if (writeXml !== null && !(typeof body === 'string' && body.trimStart().startsWith('<'))) return writeXml(body);
  return asText(body, exact);
}

/**
 * A value as the text of a non-JSON body. Strings, numbers and booleans are their own text; an
 * object or array has no text form of its own, so it is sent as JSON (Prism answers 500 there:
 * a stub should still answer, and the self-check has already said the document is odd).
 */
function asText(body: unknown, exact: boolean): string {
  if (typeof body === 'string') return body;
  if (body === null) return '';
  if (typeof body === 'object') return stringifyExact(body, exact);
  return String(body);
}
