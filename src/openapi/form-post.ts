// RPC-style APIs (Slack's Web API) document their read methods as `GET` whose request is a form:
// a form request body, or Swagger 2.0's `consumes: application/x-www-form-urlencoded`, which the
// conversion to OpenAPI 3.0 drops (swagger-consumes.ts keeps it as `x-stub-consumes`). Their official
// clients send every call as a form `POST`, which the real API accepts. Such a GET also answers a
// form POST to its path (where the path documents no POST); the form's fields that name its query
// parameters are read as its query (engine/form-post-as-get.ts).
import type { LoadedDocument } from './open-document.js';
import { deref, isSchema, type Schema } from './schema-view.js';
import { formKind } from './media-types.js';
import { CONSUMES_EXTENSION } from './swagger-consumes.js';

export interface FormPost {
  /** The query parameters the GET documents: a form field so named is read as one. */
  queryNames: ReadonlySet<string>;
  /** Whether the GET documents a form request body (the other fields are its body); else every field is query. */
  takesBody: boolean;
}

/** What a form POST to `operation` (a GET of `pathItem`) is read as; null where the GET's request is no form, or the path has a POST. */
export function formPostOf(spec: LoadedDocument, method: string, pathItem: Schema, operation: Schema): FormPost | null {
  if (method !== 'GET' || isSchema(pathItem.post)) return null;
  const body = deref(spec, operation.requestBody);
  const bodyForm = isSchema(body.content) && Object.keys(body.content).some((type) => formKind(type) !== null);
  const consumes = operation[CONSUMES_EXTENSION];
  const consumesForm = Array.isArray(consumes) && consumes.some((type) => typeof type === 'string' && formKind(type) !== null);
  if (!bodyForm && !consumesForm) return null;
  const parameters = [pathItem.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : [])).map((parameter) => deref(spec, parameter));
  const queryNames = new Set(parameters.filter((parameter) => parameter.in === 'query' && typeof parameter.name === 'string').map((parameter) => String(parameter.name)));
  return { queryNames, takesBody: bodyForm };
}
