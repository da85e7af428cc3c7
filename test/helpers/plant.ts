// The Plant Store API as the tests call it: credentials, headers and media types they share, the
// usual POST /plants, and the pattern of a generated uuid.
import { post, type TestResponse } from './http.js';

/** A bearer token the stub accepts when it is started without a token list (the tests' default). */
export const AUTH_HEADERS: Readonly<Record<string, string>> = { authorization: 'Bearer test-token' };
/** What a well-behaved client sends with a JSON body. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { ...AUTH_HEADERS, 'content-type': 'application/json' };

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

/** A uuid as `format: uuid` generates it (any version, either case). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST `${url}/plants` with JSON_HEADERS, `headers` added or overriding them; the body is sent as
 * `post` sends it (objects JSON-encoded, strings and Buffers as-is).
 *
 * @example await createPlant(stub.url, '{"id":1,"name":"Fern"}', { 'x-mock-scenario': 'duplicate-id' })
 */
export function createPlant(url: string, body: string | Buffer | object, headers: Record<string, string> = {}): Promise<TestResponse> {
  return post(`${url}/plants`, body, { ...JSON_HEADERS, ...headers });
}
