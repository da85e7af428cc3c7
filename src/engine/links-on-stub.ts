// Stage 5c: the links an answer's headers hold stay on the stub. A documented `Link` or `Location`
// sample names the real API's host (`<https://api.github.com/resource?page=2>; rel="next"`): a
// client following it would leave the stub, so an origin among the document's servers becomes
// the stub's own (a redirect to another host, a download server, is left as documented). Where the answer
// documents a `Link` header (RFC 8288), the pagination links are built for this request's page
// instead, and stop after a few pages (in stateful mode, the pages the store fills), so a client
// that follows `next` until it is gone ends.
import type { PlainRequest } from '../common/plain-http.js';
import type { BuiltResponse } from './engine-types.js';

/** How many pages a paginated list has in the stateless mode. */
export const STATELESS_PAGES = 3;

const ABSOLUTE_URL = /\bhttps?:\/\/[^/\s<>;,"]+/gi;

export function keepLinksOnStub(answer: BuiltResponse, request: PlainRequest, query: URLSearchParams, serverOrigins: readonly string[]): BuiltResponse {
  const plan = answer.plan;
  if (plan === null || answer.choiceKind === 'scenario') return answer;
  const documentsLink = plan.headers.some((header) => header.name === 'link');
  const link = answer.headers.link;
  const location = answer.headers.location;
  // Most answers have no link to keep: the Host header is read (a regular expression per request,
  // 0.7 µs in perf's on-CPU samples of POST /plants) only for one that has.
  if (!documentsLink && link === undefined && location === undefined) return answer;
  const origin = stubOrigin(request);
  if (origin === null) return answer;
  const headers = { ...answer.headers };
  const onStub = (value: string) => value.replace(ABSOLUTE_URL, (found) => (serverOrigins.includes(found.toLowerCase()) ? origin : found));
  if (documentsLink && answer.status >= 200 && answer.status < 300 && request.method === 'GET') headers.link = pageLinks(origin, request.path, query, answer.pages ?? STATELESS_PAGES);
  else if (link !== undefined) headers.link = onStub(link);
  if (location !== undefined) headers.location = onStub(location);
  return { ...answer, headers };
}

/** `http://<Host>` as the client reached the stub; null when the request named no host. */
function stubOrigin(request: PlainRequest): string | null {
  const host = request.headers.host;
  if (typeof host !== 'string' || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return null;
  return `http://${host}`;
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
    return `<${origin}${path}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (page < pages) links.push(`${to(page + 1)}; rel="next"`, `${to(pages)}; rel="last"`);
  if (page > 1) links.push(`${to(1)}; rel="first"`, `${to(Math.min(page - 1, pages))}; rel="prev"`);
  return links.join(', ');
}
