// Swagger 2.0's `consumes` of a GET, which the conversion to OpenAPI 3.0 keeps only where the GET
// has `formData` parameters (as a request body): kept on the converted operation where it names a
// form, for form-post.ts (an RPC-style GET that also answers a form POST).
import { isObject } from '../common/json-value.js';
import { formKind } from './media-types.js';

/** Where Swagger 2.0's `consumes` of a GET is kept through the conversion. */
export const CONSUMES_EXTENSION = 'x-stub-consumes';

/** Each GET's `consumes` (its own, else the document's) set on `converted`'s GET under CONSUMES_EXTENSION, where it names a form. */
export function keepFormConsumes(swagger: object, converted: object): void {
  const paths = isObject((swagger as Record<string, unknown>).paths) ? (swagger as Record<string, Record<string, unknown>>).paths : {};
  const convertedPaths = (converted as Record<string, unknown>).paths;
  if (!isObject(convertedPaths)) return;
  for (const [path, item] of Object.entries(paths)) {
    const get = isObject(item) ? item.get : undefined;
    const into = convertedPaths[path];
    const target = isObject(into) ? into.get : undefined;
    if (!isObject(get) || !isObject(target)) continue;
    const consumes = Array.isArray(get.consumes) ? get.consumes : (swagger as Record<string, unknown>).consumes;
    if (Array.isArray(consumes) && consumes.some((type) => typeof type === 'string' && formKind(type) !== null)) target[CONSUMES_EXTENSION] = consumes;
  }
}
