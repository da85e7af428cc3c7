// Stage 1 (route): a form POST routed to an operation documented only as GET with a form request
// (openapi/form-post.ts) is answered as that GET: the form's fields that name its query parameters
// (all of them where the GET documents no body) join the query, the rest stay its body. The
// request as sent is what the journal keeps; the engine answers the GET.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { PlainRequest } from '../common/plain-http.js';
import { formKind } from '../openapi/media-types.js';
import { utf8Text } from '../common/bytes.js';

const NO_BODY = new Uint8Array(0);

export function formPostAsGet(operation: CompiledOperation, request: PlainRequest): PlainRequest {
  const formPost = operation.formPost;
  if (formPost === null || request.method !== 'POST' || operation.method !== 'GET') return request;
  const contentType = String(request.headers['content-type'] ?? '');
  if (request.body.length > 0 && formKind(contentType) !== 'urlencoded') return request;
  const query = new URLSearchParams(request.rawQuery);
  const rest = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(utf8Text(request.body))) {
    // A bracketed field (`filter[status]`) is its parameter's (`filter`, deepObject).
    const parameter = name.replace(/\[.*$/s, '');
    if (!formPost.takesBody || formPost.queryNames.has(parameter)) query.append(name, value);
    else rest.append(name, value);
  }
  const rested = rest.toString();
  const body = rested === '' ? NO_BODY : new TextEncoder().encode(rested);
  const headers = { ...request.headers };
  if (body.length === 0) delete headers['content-type'];
  delete headers['content-length'];
  return { ...request, method: 'GET', rawQuery: query.toString(), body, headers };
}
