// Compiles each operation's security requirement (its own `security`, else the document's) once
// into a check; a request passes when any alternative is fully met. Bearer tokens are compared in
// constant time against the configured list, if there is one.
import { bytesOfBase64, utf8Text } from '../common/bytes.js';
import type { PlainRequest } from '../common/plain-http.js';

export interface AuthFailure {
  /** Value for WWW-Authenticate, when the failing scheme defines one. */
  challenge: string | null;
  message: string;
}

/** Returns null when the request is allowed. */
export type SecurityCheck = (request: PlainRequest, query: URLSearchParams) => AuthFailure | null;

type SchemeCheck = (request: PlainRequest, query: URLSearchParams) => AuthFailure | null;

interface SecurityScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

const ALLOW_ALL: SecurityCheck = () => null;

/**
 * WWW-Authenticate as Prism sends it (the compat policy's `refusals: 'prism'`): its own value per
 * scheme, and every failed alternative's, comma-separated. Prism's wire values, as clients see them.
 */
const PRISM_CHALLENGES: Record<string, string> = { basic: 'Basic realm="*"', digest: 'Digest realm="*", nonce="abc123"', oauth2: 'OAuth2', bearer: 'Bearer' };

/**
 * Compiles a security requirement list. `tokens` (may be empty: any non-empty token) limits the
 * accepted bearer tokens; `challenges`: whose WWW-Authenticate values to send, the stub's or Prism's.
 */
export function compileSecurity(
  requirements: Array<Record<string, unknown>> | undefined,
  schemes: Record<string, SecurityScheme>,
  tokens: readonly string[],
  warn: (problem: string) => void,
  challenges: 'stub' | 'prism' = 'stub',
): SecurityCheck {
  // No requirement, or an empty alternative (`- {}`), means anonymous access is allowed.
  if (!requirements || requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return ALLOW_ALL;
  const isAllowedToken = tokenMatcher(tokens);
  const alternatives = requirements.map((requirement) =>
    Object.keys(requirement).map((name) => {
      // A requirement naming no scheme cannot be checked; like the document's other flaws it is a
      // warning (--strict refuses it), and that part of the requirement is not enforced.
      if (!schemes[name]) {
        warn(`"${name}" is not a security scheme of components.securitySchemes; it is not checked`);
        return ALLOW_ALL;
      }
      // A client certificate is shown in the TLS handshake, which a stub serving plain HTTP never
      // sees: the request is let through rather than asked for a bearer token the real API would
      // not want. Not a warning: the document is right, and --strict must not refuse it.
      if (schemes[name].type === 'mutualTLS') return ALLOW_ALL;
      return compileScheme(schemes[name], isAllowedToken, challenges === 'prism' ? prismChallenge(schemes[name]) : undefined);
    }),
  );
  return (request, query) => {
    // Made only once an alternative has failed: most requests pass the first.
    let failures: AuthFailure[] | null = null;
    for (const checks of alternatives) {
      const failure = challenges === 'prism' ? everyFailureOf(checks, request, query) : firstFailureOf(checks, request, query);
      if (!failure) return null;
      (failures ??= []).push(failure);
    }
    return eitherOf(failures ?? [], challenges === 'prism');
  };
}

function prismChallenge(scheme: SecurityScheme): string | null {
  const key = scheme.type === 'http' ? scheme.scheme?.toLowerCase() ?? '' : scheme.type ?? '';
  return PRISM_CHALLENGES[key] ?? null;
}

/**
 * Every alternative failed: one refusal that names what each would have needed (an API key, or a
 * bearer token), so a client is not told to send the first when the second is what it has. The
 * challenge is the first alternative's that has one.
 */
function eitherOf(failures: AuthFailure[], everyChallenge: boolean): AuthFailure {
  const messages = [...new Set(failures.map((failure) => failure.message))];
  const challenges = failures.flatMap((failure) => (failure.challenge === null ? [] : [failure.challenge]));
  return {
    challenge: everyChallenge ? challenges.join(',') || null : challenges[0] ?? null,
    message: messages.length === 1 ? messages[0] : `one of these is needed: ${messages.join('; or ')}`,
  };
}

/** Prism checks every scheme of an alternative and challenges for each that failed. */
function everyFailureOf(checks: SchemeCheck[], request: PlainRequest, query: URLSearchParams): AuthFailure | null {
  const failures = checks.map((check) => check(request, query)).filter((failure): failure is AuthFailure => failure !== null);
  return failures.length === 0 ? null : { message: failures[0].message, challenge: failures.flatMap((f) => (f.challenge === null ? [] : [f.challenge])).join(',') || null };
}

function firstFailureOf(checks: SchemeCheck[], request: PlainRequest, query: URLSearchParams): AuthFailure | null {
  for (const check of checks) {
    const failure = check(request, query);
    if (failure) return failure;
  }
  return null;
}

/**
 * `challenge`: Prism's WWW-Authenticate value for the scheme (null: none), sent only when the
 * request did not use the scheme at all (Prism sends none for wrong credentials); undefined: the
 * stub's, the scheme's name, always.
 */
function compileScheme(scheme: SecurityScheme | undefined, isAllowedToken: (token: string) => boolean, challenge?: string | null): SchemeCheck {
  const type = scheme?.type;
  const httpScheme = scheme?.scheme?.toLowerCase();
  if (type === 'http' && httpScheme === 'basic') return httpCheck('Basic', isUserPassword, 'credentials are not base64 of user:password', challenge);
  if (type === 'http' && httpScheme && httpScheme !== 'bearer') return httpCheck(capitalise(httpScheme), () => true, undefined, challenge);
  if (type === 'apiKey' && scheme?.name) return apiKeyCheck(scheme.in ?? 'header', scheme.name);
  // http bearer, oauth2 and openIdConnect all present a bearer token; an unknown scheme does too.
  return httpCheck('Bearer', isAllowedToken, undefined, challenge);
}

function httpCheck(scheme: string, isAllowed: (credentials: string) => boolean, refused = 'token is not accepted', prismChallenge?: string | null): SchemeCheck {
  const prefix = scheme.toLowerCase() + ' ';
  const failure = (message: string, used = false): AuthFailure => ({ challenge: prismChallenge === undefined ? scheme : used ? null : prismChallenge, message });
  return (request) => {
    const header = request.headers.authorization;
    if (typeof header !== 'string' || header === '') return failure(`the Authorization header is missing; send "Authorization: ${scheme} <credentials>"`);
    // Node trims header values, so "Bearer " arrives as "Bearer": a scheme without credentials.
    if (header.trim().toLowerCase() === prefix.trim()) return failure(`the ${scheme} credentials are empty`, true);
    // RFC 7235: the scheme name is case-insensitive.
    if (header.length < prefix.length || header.slice(0, prefix.length).toLowerCase() !== prefix) {
      return failure(`the Authorization header must use the ${scheme} scheme`);
    }
    const credentials = header.slice(prefix.length).trim();
    if (credentials === '') return failure(`the ${scheme} credentials are empty`, true);
    if (!isAllowed(credentials)) return failure(`the ${scheme} ${refused}`, true);
    return null;
  };
}

function apiKeyCheck(location: string, name: string): SchemeCheck {
  const lower = name.toLowerCase();
  const cookie = new RegExp(`(?:^|;\\s*)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=[^;]`);
  return (request, query) => {
    const present =
      location === 'query' ? Boolean(query.get(name))
      : location === 'cookie' ? cookie.test(String(request.headers.cookie ?? ''))
      : Boolean(request.headers[lower]);
    return present ? null : { challenge: null, message: `the API key "${name}" (${location}) is missing` };
  };
}

/**
 * Basic credentials are base64 of `user:password` (RFC 7617): `Basic abc123` is not, and a real
 * server refuses it. Any user and password are accepted.
 */
function isUserPassword(credentials: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials) || credentials.length % 4 === 1) return false;
  return utf8Text(bytesOfBase64(credentials)).includes(':');
}

/** Any non-empty token when no list is configured; otherwise a constant-time membership test. */
function tokenMatcher(tokens: readonly string[]): (token: string) => boolean {
  if (tokens.length === 0) return () => true;
  const known = tokens.map((token) => UTF8.encode(token));
  return (token) => {
    const candidate = UTF8.encode(token);
    let found = false;
    for (const secret of known) found = sameBytes(secret, candidate) || found;
    return found;
  };
}

const UTF8 = new TextEncoder();

/**
 * Looks at every byte of the candidate whatever matched, so the time taken says nothing of a
 * known token, only the candidate's own length. Written out because node:crypto's
 * timingSafeEqual is not in browsers, and Web Crypto's digest is asynchronous, which a check on
 * the request path cannot wait for. `secret` is never empty (tokens are checked up front).
 */
function sameBytes(secret: Uint8Array, candidate: Uint8Array): boolean {
  let difference = secret.length ^ candidate.length;
  for (let i = 0; i < candidate.length; i++) difference |= candidate[i] ^ secret[i % secret.length];
  return difference === 0;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
