// Stage 10 (finish): what the stub sends out after a successful answer (stateless: the engine only plans,
// outbound/ sends). The webhooks a fixture names for this operation or for the scenario
// that answered, and the operation's callbacks to the URL their runtime expression reads from the
// request. Each payload is valid for its schema: the request's own body when it fits, else the
// documented example, else generated data.
import type { CompiledOperation } from '../openapi/compiled-model.js';
import type { OutboundPlan } from '../openapi/compile-outbound.js';
import { stringifyExact } from '../common/exact-json.js';
import { valueAtPointer } from '../common/json-pointer.js';
import type { ExactJson, PlainRequest } from '../common/plain-http.js';
import { latin1Text } from '../common/bytes.js';

/**
 * The header every delivery carries. A request that carries it was sent by a stub (this one, or
 * another in the demo), so what it triggers is not sent: a callback aimed at the stub's own
 * subscription operation would otherwise call itself back without end.
 */
export const DELIVERY_HEADER = 'x-mock-delivery';

/** One request the stub will make. */
export interface Delivery {
  kind: 'webhook' | 'callback';
  name: string;
  /** A callback's URL, read from the request; null for a webhook, whose target is registered apart. */
  url: string | null;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** Triggered by a request that was itself a delivery (it carried DELIVERY_HEADER): recorded, never sent. */
  chained?: true;
}

export function planDeliveries(
  webhooks: ReadonlyMap<string, OutboundPlan>,
  names: readonly string[],
  operation: CompiledOperation,
  request: PlainRequest,
  body: ExactJson | null,
  pathParams: Record<string, string>,
  query: URLSearchParams,
): Delivery[] {
  const deliveries: Delivery[] = [];
  for (const name of names) {
    const plan = webhooks.get(name);
    if (plan) deliveries.push({ kind: 'webhook', name, url: null, ...requestFor(plan, request, body) });
  }
  for (const callback of operation.callbacks) {
    const url = resolveExpression(callback.expression, request, body, pathParams, query);
    if (url !== null) deliveries.push({ kind: 'callback', name: callback.name, url, ...requestFor(callback, request, body) });
  }
  // Planned all the same, so the refusal is recorded with what would have gone out.
  if (request.headers[DELIVERY_HEADER] !== undefined) for (const delivery of deliveries) delivery.chained = true;
  return deliveries;
}

/** The request for a webhook or callback; `sent`, when given, is the payload a client asked for (checked by the caller). */
export function requestFor(plan: OutboundPlan, request: PlainRequest | null, body: ExactJson | null): Pick<Delivery, 'method' | 'headers' | 'body'> {
  const headers: Record<string, string> = { ...plan.headers, [DELIVERY_HEADER]: `plant-store-stub ${plan.name}` };
  if (plan.contentType) headers['content-type'] = plan.contentType;
  return { method: plan.method, headers, body: payload(plan, request, body) };
}

function payload(plan: OutboundPlan, request: PlainRequest | null, body: ExactJson | null): string {
  if (plan.contentType === null) return '';
  if (body !== null && (plan.validate === null || plan.validate(body.value, body.rawNumbers).length === 0)) {
    return stringifyExact(body.exact ?? body.value, body.exact !== undefined);
  }
  if (plan.example !== undefined) return JSON.stringify(plan.example);
  const generated = plan.generate(request ? `${plan.name} ${request.method} ${request.path} ${latin1Text(request.body)}` : plan.name);
  return generated === undefined ? '' : JSON.stringify(generated);
}

/**
 * An OpenAPI runtime expression (`{$request.body#/callbackUrl}`, `http://x/{$request.query.id}`)
 * with its values from the request; null when one of them is missing.
 */
export function resolveExpression(expression: string, request: PlainRequest, body: ExactJson | null, pathParams: Record<string, string>, query: URLSearchParams): string | null {
  const whole = expression.startsWith('$') ? `{${expression}}` : expression;
  let missing = false;
  const url = whole.replace(/\{(\$[^}]+)\}/g, (_match, inner: string) => {
    const value = expressionValue(inner, request, body, pathParams, query);
    if (value === null) missing = true;
    return value ?? '';
  });
  return missing ? null : url;
}

function expressionValue(expression: string, request: PlainRequest, body: ExactJson | null, pathParams: Record<string, string>, query: URLSearchParams): string | null {
  if (expression === '$method') return request.method;
  if (expression === '$url') return request.path + (request.rawQuery ? `?${request.rawQuery}` : '');
  const match = /^\$request\.(body|query|header|path)(?:[.#](.*))?$/.exec(expression);
  if (!match) return null;
  const [, source, rest = ''] = match;
  if (source === 'query') return query.get(rest);
  if (source === 'path') return pathParams[rest] ?? null;
  if (source === 'header') {
    const value = request.headers[rest.toLowerCase()];
    return typeof value === 'string' ? value : null;
  }
  const node = valueAtPointer(body?.value, rest)?.value;
  return typeof node === 'string' || typeof node === 'number' ? String(node) : null;
}
