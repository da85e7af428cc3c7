// /__admin: the stub's own control surface. An Express router; it never runs on the API's hot path.
// Here the probes (health, ready), the page, the admin token and what every endpoint shares (the
// fallbacks); each group of endpoints lives in its own file: the records (admin-records.ts), the
// scenarios (admin-scenarios.ts), stateful mode's store (admin-state.ts), the webhooks
// (admin-webhooks.ts).
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { StubAdmin } from '../stub/admin-facade.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { addRecordRoutes } from './admin-records.js';
import { addScenarioRoutes } from './admin-scenarios.js';
import { addStateRoutes } from './admin-state.js';
import { addWebhookRoutes } from './admin-webhooks.js';
import { StoreUnavailable } from '../stub/store-unavailable.js';

export function adminRouter(stub: StubAdmin, adminToken: string | undefined): Router {
  const router = express.Router();
  // Both open to any Host and without the admin token (admin-guard.ts): probes call them by address.
  router.get('/health', async (_req, res) => {
    const health = await stub.health();
    res.status(health.status === 'ok' ? 200 : 503).json(health);
  });
  router.get('/ready', (_req, res) => {
    const ready = stub.ready();
    res.status(ready.status === 'ready' ? 200 : 503).json(ready);
  });
  // The page itself holds no data (it asks for the admin token when it needs one), so it is served
  // before the token check; everything it reads goes through the guarded endpoints below.
  router.get('/', (req, res, next) => {
    // `/__admin` without its slash: the page's relative links need the folder form.
    const [path, query = ''] = req.originalUrl.split('?');
    if (!path.endsWith('/')) return res.redirect(301, `${path}/${query ? `?${query}` : ''}`);
    next();
  });
  router.use(express.static(PAGE_DIR, { index: 'index.html', etag: false, maxAge: 0 }));
  if (adminToken !== undefined) router.use(requireToken(adminToken));

  addRecordRoutes(router, stub);
  addScenarioRoutes(router, stub);
  addStateRoutes(router, stub);
  addWebhookRoutes(router, stub);

  router.post('/reload', async (_req, res) => {
    const ok = await stub.changeEverywhere({ kind: 'reload' });
    if (ok) res.json({ reloaded: true });
    else sendProblem(res, adminRefusals.reloadRefused());
  });
  router.use((req, res) => sendProblem(res, adminRefusals.noEndpoint(req.method, `${req.baseUrl}${req.path}`)));
  // Express's error handler would print a stack trace; a malformed admin request is a 400.
  router.use((error: { status?: number; type?: string; message?: string }, req: Request, res: Response, _next: NextFunction) => {
    // Not the request's fault: the store or the other workers did not answer (a Redis server
    // that is down, a worker that died mid-question), said in plain words. Retrying later may work.
    if (error instanceof StoreUnavailable) return sendProblem(res, adminRefusals.sharedStateSilent(error.message));
    // A bug of ours: nothing of it in the answer (its message may hold internals), its stack in the log.
    if (error.status === undefined && error.type === undefined) {
      process.stderr.write(`internal error on ${req.method} ${req.originalUrl}: ${(error as Error).stack ?? String(error)}\n`);
      return sendProblem(res, adminRefusals.adminFailed());
    }
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
    sendProblem(res, adminRefusals.unreadableBody(status, error.message));
  });
  return router;
}

/** The admin page's static files: shipped in the package beside dist/ (dist/http -> src/http/admin-page). */
const PAGE_DIR = fileURLToPath(new URL('../../src/http/admin-page/', import.meta.url));

function requireToken(token: string) {
  const expected = createHash('sha256').update(token).digest();
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const given = /^bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
    if (timingSafeEqual(createHash('sha256').update(given).digest(), expected)) return next();
    sendProblem(res, adminRefusals.tokenNeeded());
  };
}

