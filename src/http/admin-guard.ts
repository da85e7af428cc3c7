// Who may use /__admin. With an admin token, the token is the guard (a browser cannot attach it
// to a cross-site request). Without one, /__admin trusts only this machine: requests addressed to
// it (one well-formed loopback Host, against DNS rebinding), CORS for loopback pages only, and no
// state change from a page of another site (a simple cross-site form POST carries no token, so
// only its Origin and Sec-Fetch-Site give it away).
import type { NextFunction, Request, Response } from 'express';
import type { ResolvedOptions } from '../config/options.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { answerPreflight, applyCors, isLoopbackHost, isLoopbackOrigin, isPreflight } from './cors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A Host header is a name or address and an optional port: nothing else (RFC 9110 §7.2). */
const WELL_FORMED_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

export function adminGuard(options: ResolvedOptions) {
  const tokenGuards = options.adminToken !== undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    const refusal = tokenGuards ? null : untrusted(req);
    if (refusal) return sendProblem(res, adminRefusals.untrusted(refusal));
    const trusted = options.cors && (tokenGuards || isLoopbackOrigin(req.headers.origin));
    if (trusted && isPreflight(req)) return answerPreflight(req, res);
    if (trusted) applyCors(req, res);
    next();
  };
}

/** Why a request without an admin token is refused, or null when it comes from this machine. */
function untrusted(req: Request): string | null {
  // Health and readiness say only whether the stub is up and ready (title, operation count, a
  // plain reason): load balancers and orchestrators probe them by the machine's address, so they
  // are open to any Host.
  if ((req.path === '/health' || req.path === '/ready') && req.method === 'GET') return null;
  // Absent means an HTTP/1.0 client on this machine; two, or one that is not a host, is refused.
  const host = req.headers.host;
  if (hostLines(req) > 1 || (host !== undefined && !WELL_FORMED_HOST.test(host))) return 'the admin API needs exactly one well-formed Host header';
  if (!isLoopbackHost(host)) return 'the admin API answers only requests addressed to this machine (Host: localhost or 127.0.0.1)';
  if (SAFE_METHODS.has(req.method)) return null;
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const foreignOrigin = origin !== undefined && !isLoopbackOrigin(origin);
  const foreignSite = site === 'cross-site' && !isLoopbackOrigin(origin);
  return foreignOrigin || foreignSite ? 'the admin API takes no state change from a page of another site' : null;
}

/** How many Host header lines were sent (Node keeps only the first in `headers`). */
function hostLines(req: Request): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'host') count++;
  return count;
}
