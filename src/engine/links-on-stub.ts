// Stage 8 (adjust): the links an answer's headers hold stay on the stub. A documented `Link` or `Location`
// sample names the real API's host (`<https://api.github.com/resource?page=2>; rel="next"`): a
// client following it would leave the stub, so an origin among the document's servers becomes
// the stub's own (a redirect to another host, a download server, is left as documented). Where the answer
// documents a `Link` header (RFC 8288), the pagination links are built for this request's page
// instead, and stop after a few pages (in stateful mode, the pages the store fills), so a client
// that follows `next` until it is gone ends. URL-valued fields of the body on those servers are
// answered on the stub too.
import type { PlainRequest } from '../common/plain-http.js';
import type { BodyDraft, BodyPath } from './body-draft.js';
import { escapedPath } from '../common/uri-path.js';

/** How many pages a paginated list has in the stateless mode. */
export const STATELESS_PAGES = 3;

const ABSOLUTE_URL = /\bhttps?:\/\/[^/\s<>;,"]+/gi;

export function keepLinksOnStub(draft: BodyDraft, request: PlainRequest, query: URLSearchParams, serverOrigins: readonly string[]): void {
  const answer = draft.built;
  const plan = answer.plan;
  if (plan === null || answer.choiceKind === 'scenario') return;
  const documentsLink = plan.headers.some((header) => header.name === 'link');
  const link = answer.headers.link;
  const location = answer.headers.location;
  // What a client sent (an echo, an item stored in stateful mode) is answered as sent.
  const bodyLinks = serverOrigins.length > 0 && answer.choiceKind !== 'echo' && answer.choiceKind !== 'state';
  // Most answers have no link to keep: the Host header is read (a regular expression per request)
  // only for one that has.
  if (!bodyLinks && !documentsLink && link === undefined && location === undefined) return;
  const origin = stubOrigin(request);
  if (origin === null) return;
  const onStub = (value: string) => value.replace(ABSOLUTE_URL, (found) => (serverOrigins.includes(found.toLowerCase()) ? origin : found));
  if (bodyLinks) urlsOnStub(draft, answer.body, [], serverOrigins, origin);
  if (documentsLink && answer.status >= 200 && answer.status < 300 && request.method === 'GET') draft.setHeader('link', pageLinks(origin, request.path, query, answer.pages ?? STATELESS_PAGES));
  else if (link !== undefined) draft.setHeader('link', onStub(link));
  if (location !== undefined) draft.setHeader('location', onStub(location));
}

/**
 * URL-valued fields of the body (`"url": "https://api.github.com/repos/o/r/issues/1"`) on one of
 * the document's servers, answered on the stub's origin and mount path instead: a client that
 * follows them stays on the stub. An echo or an item stored in stateful mode keeps what the client
 * sent; each rewrite is a patch on the draft, kept only where the body still fits its schema (a
 * pattern naming the real host).
 */
function urlsOnStub(draft: BodyDraft, value: unknown, path: BodyPath, serverOrigins: readonly string[], origin: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => visit(draft, path, i, item, serverOrigins, origin));
  } else if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, inner] of Object.entries(value)) visit(draft, path, key, inner, serverOrigins, origin);
  }
}

/** One field of the body: a URL on a server of the document proposed on the stub, an object or array walked. */
function visit(draft: BodyDraft, path: BodyPath, key: string | number, value: unknown, serverOrigins: readonly string[], origin: string): void {
  if (typeof value !== 'string') {
    if (typeof value === 'object' && value !== null) urlsOnStub(draft, value, [...path, key], serverOrigins, origin);
    return;
  }
  const found = /^https?:\/\/[^/?#\s]+/i.exec(value)?.[0];
  if (found !== undefined && serverOrigins.includes(found.toLowerCase())) draft.propose(path, key, [origin + value.slice(found.length)]);
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
export function locateCreated(draft: BodyDraft, request: PlainRequest, itemPath: string, idParam: string, id: string, pathParams: Record<string, string>): void {
  if (!draft.built.plan?.headers.some((header) => header.name === 'location')) return;
  const origin = stubOrigin(request);
  if (origin === null) return;
  const path = itemPath.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(name === idParam ? id : pathParams[name] ?? ''));
  draft.setHeader('location', `${origin}${path}`);
}
