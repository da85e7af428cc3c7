// Stage 8 (adjust): the links an answer's headers hold stay on the stub. A documented `Link` or `Location`
// sample names the real API's host (`<https://api.github.com/resource?page=2>; rel="next"`): a
// client following it would leave the stub, so an origin among the document's servers becomes
// the stub's own (a redirect to another host, a download server, is left as documented). Where the answer
// documents a `Link` header (RFC 8288), the pagination links are built for this request's page
// instead, and stop after a few pages (in stateful mode, the pages the store fills), so a client
// that follows `next` until it is gone ends. URL-valued fields of the body on those servers are
// answered on the stub too.
import type { PlainRequest } from '../common/plain-http.js';
import type { BuiltResponse } from './engine-types.js';
import { checkBody } from './check-body.js';
import { escapePointerToken } from '../common/json-pointer.js';
import { escapedPath } from '../common/uri-path.js';

/** How many pages a paginated list has in the stateless mode. */
export const STATELESS_PAGES = 3;

const ABSOLUTE_URL = /\bhttps?:\/\/[^/\s<>;,"]+/gi;

export function keepLinksOnStub(answer: BuiltResponse, request: PlainRequest, query: URLSearchParams, serverOrigins: readonly string[]): BuiltResponse {
  const plan = answer.plan;
  if (plan === null || answer.choiceKind === 'scenario') return answer;
  const documentsLink = plan.headers.some((header) => header.name === 'link');
  const link = answer.headers.link;
  const location = answer.headers.location;
  // What a client sent (an echo, an item stored in stateful mode) is answered as sent.
  const bodyLinks = serverOrigins.length > 0 && answer.choiceKind !== 'echo' && answer.choiceKind !== 'state';
  // Most answers have no link to keep: the Host header is read (a regular expression per request,
  // 0.7 µs in perf's on-CPU samples of POST /plants) only for one that has.
  if (!bodyLinks && !documentsLink && link === undefined && location === undefined) return answer;
  const origin = stubOrigin(request);
  if (origin === null) return answer;
  const onStub = (value: string) => value.replace(ABSOLUTE_URL, (found) => (serverOrigins.includes(found.toLowerCase()) ? origin : found));
  const inBody = bodyLinks ? urlsOnStub(answer, serverOrigins, origin) : answer;
  if (!documentsLink && link === undefined && location === undefined) return inBody;
  const headers = { ...answer.headers };
  if (documentsLink && answer.status >= 200 && answer.status < 300 && request.method === 'GET') headers.link = pageLinks(origin, request.path, query, answer.pages ?? STATELESS_PAGES);
  else if (link !== undefined) headers.link = onStub(link);
  if (location !== undefined) headers.location = onStub(location);
  return { ...inBody, headers };
}

/**
 * URL-valued fields of the body (`"url": "https://api.github.com/repos/o/r/issues/1"`) on one of
 * the document's servers, answered on the stub's origin and mount path instead: a client that
 * follows them stays on the stub. An echo or an item stored in stateful mode keeps what the client sent; a rewrite is kept only when
 * the body still fits its schema (a pattern naming the real host).
 */
function urlsOnStub(answer: BuiltResponse, serverOrigins: readonly string[], origin: string): BuiltResponse {
  // Each rewritten value's place (its parent, copied, and key) and what it was, to put back the
  // ones the schema refuses (the violations name their pointers).
  const rewritten: Array<{ pointer: string; parent: Record<string, unknown> | unknown[]; key: string | number; was: string }> = [];
  const rewrite = (value: unknown, pointer: string): unknown => {
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      value.forEach((item, i) => {
        const made = rewrite(item, `${pointer}/${i}`);
        if (made !== item) remember((copy ??= [...value]), i, made, item, `${pointer}/${i}`);
      });
      return copy ?? value;
    }
    if (typeof value === 'string') {
      const found = /^https?:\/\/[^/?#\s]+/i.exec(value)?.[0];
      return found === undefined || !serverOrigins.includes(found.toLowerCase()) ? value : origin + value.slice(found.length);
    }
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
    let copy: Record<string, unknown> | null = null;
    for (const [key, inner] of Object.entries(value)) {
      const at = `${pointer}/${escapePointerToken(key)}`;
      const made = rewrite(inner, at);
      if (made !== inner) remember((copy ??= { ...(value as Record<string, unknown>) }), key, made, inner, at);
    }
    return copy ?? value;
  };
  const remember = (parent: Record<string, unknown> | unknown[], key: string | number, made: unknown, was: unknown, pointer: string) => {
    (parent as Record<string | number, unknown>)[key] = made;
    if (typeof was === 'string') rewritten.push({ pointer, parent, key, was });
  };
  const body = rewrite(answer.body, '');
  if (body === answer.body) return answer;
  const result = { ...answer, body };
  if (!answer.plan?.validateBody) return result;
  // A value the schema pins to the real host (a pattern, an enum) is put back, then the whole checked again.
  const refused = checkBody(result).map((violation) => violation.slice(0, violation.indexOf(':')));
  if (refused.length === 0) return result;
  for (const { pointer, parent, key, was } of rewritten) {
    if (refused.some((at) => at === pointer || at.startsWith(`${pointer}/`) || pointer.startsWith(`${at}/`) || at === '')) (parent as Record<string | number, unknown>)[key] = was;
  }
  return checkBody(result).length === 0 ? result : answer;
}

/** `http://<Host>` and the mount path, as the client reached the stub; null when the request named no host. */
export function stubOrigin(request: PlainRequest): string | null {
  const host = request.headers.host;
  if (typeof host !== 'string' || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return null;
  const mount = request.mountPath ?? '';
  return `http://${host}${/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/.test(mount) ? mount : ''}`;
}

/** The page a request asks for (`?page=2`); 1 when it names none (or no whole number above 0). */
export function pageAsked(query: URLSearchParams, name = 'page'): number {
  const asked = query.get(name);
  return asked !== null && /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : 1;
}

/**
 * `first`, `prev`, `next` and `last` for the page asked for (`?page=`, 1 when absent) of `pages`,
 * keeping the request's other query parameters (`per_page`): the last page has no `next`.
 */
function pageLinks(origin: string, path: string, query: URLSearchParams, pages: number): string {
  const page = pageAsked(query);
  const to = (n: number) => {
    const params = new URLSearchParams(query);
    params.set('page', String(n));
    return `<${origin}${escapedPath(path)}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (page < pages) links.push(`${to(page + 1)}; rel="next"`, `${to(pages)}; rel="last"`);
  if (page > 1) links.push(`${to(1)}; rel="first"`, `${to(Math.min(page - 1, pages))}; rel="prev"`);
  return links.join(', ');
}

/**
 * A stateful create's `Location` (where the answer documents one) names the created item on the
 * stub: its item path with its id and the parent's path values, not the example's other item or
 * random text. `itemPath` is the resource's (`/plants/{id}`), `idParam` its id's parameter.
 */
export function locateCreated(answer: BuiltResponse, request: PlainRequest, itemPath: string, idParam: string, id: string, pathParams: Record<string, string>): BuiltResponse {
  if (!answer.plan?.headers.some((header) => header.name === 'location')) return answer;
  const origin = stubOrigin(request);
  if (origin === null) return answer;
  const path = itemPath.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(name === idParam ? id : pathParams[name] ?? ''));
  return { ...answer, headers: { ...answer.headers, location: `${origin}${path}` } };
}
