// A small HTTP client for tests: one request, everything a test asserts on read up front.
// Bodies (string or Buffer) are sent exactly as given, so tests can send malformed bytes. Note that
// fetch adds `content-type: text/plain;charset=UTF-8` to a string body sent without one; send a
// Buffer to leave the header out.

export interface TestResponse {
  status: number;
  headers: Headers;
  /** The body as text (UTF-8). */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: any;
}

export interface TestRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the request (say `AbortSignal.timeout(5_000)`), which then rejects. */
  signal?: AbortSignal;
}

export async function request(url: string, { method = 'GET', headers = {}, body, signal }: TestRequest = {}): Promise<TestResponse> {
  // undici sends a Buffer as raw bytes; @types/node's BodyInit just does not list it.
  const response = await fetch(url, { method, headers, body: body as RequestInit['body'], redirect: 'manual', signal });
  const text = await response.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** POST with a body sent as-is (objects are JSON-encoded) and the given headers. */
export function post(url: string, body?: string | Buffer | object, headers: Record<string, string> = {}): Promise<TestResponse> {
  const raw = body === undefined || typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return request(url, { method: 'POST', headers, body: raw });
}
