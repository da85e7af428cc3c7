// A request's path written into a URL the stub makes (a `Link` target, a next-page URI): the path
// arrives as the client sent it, and a character that is not allowed in a URI path (`<`, `>`,
// `"`, a space) would end the `Link` target early and let the client write links of its own.

/** The path with every character a URI path may not hold percent-encoded, and a leading `//` (which would name a host) broken up. */
export function escapedPath(path: string): string {
  const escaped = path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%/]/gu, escapeOne);
  return escaped.replace(/^\/{2,}/, '/');
}

/** A lone surrogate cannot be written as UTF-8: it is written as the replacement character. */
function escapeOne(char: string): string {
  return /^[\uD800-\uDFFF]$/.test(char) ? '%EF%BF%BD' : encodeURIComponent(char);
}
