// /__admin: the stub's own control surface (health, journal, coverage, scenarios, the page that
// shows them, and its live event stream). An Express router; it never runs on the API's hot path.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { StubAdmin } from '../stub/admin-facade.js';
import { stringifyExact } from '../common/exact-json.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { addResourceRoutes } from './admin-resources.js';
import { isWebhookUrl } from '../config/options.js';
import { METRICS_CONTENT_TYPE } from '../record/metrics.js';
import type { JournalEntry } from '../record/journal.js';

/** The session an admin request names (`?session=NAME`); undefined for the default one; null when it names two. */
function sessionAsked(req: Request): string | undefined | null {
  if (Array.isArray(req.query.session)) return null;
  const session = typeof req.query.session === 'string' ? req.query.session.trim() : '';
  return session === '' ? undefined : session;
}

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

  router.get('/events', (req, res) => streamJournal(stub, req, res));

  router.get('/requests', async (req, res) => {
    // A filter that cannot be applied is refused, never silently dropped (`?method=GET&method=POST`
    // would otherwise list everything, `?status=` nothing).
    for (const name of ['method', 'path', 'status', 'session', 'limit', 'offset']) {
      if (typeof req.query[name] === 'object') return sendProblem(res, adminRefusals.filterGivenTwice(name));
    }
    const status = req.query.status === undefined ? undefined : String(req.query.status);
    if (status !== undefined && !/^\d+$/.test(status)) return sendProblem(res, adminRefusals.statusNotAWholeNumber());
    // A page of what the filter keeps: the newest `limit`, after skipping the newest `offset`.
    const [limit, offset] = [pageQuery(req.query.limit, 1), pageQuery(req.query.offset, 0)];
    if (limit === null) return sendProblem(res, adminRefusals.badJournalPage('limit', String(req.query.limit)));
    if (offset === null) return sendProblem(res, adminRefusals.badJournalPage('offset', String(req.query.offset)));
    const filter = { method: text(req.query.method), path: text(req.query.path), status: status === undefined ? undefined : Number(status), session: text(req.query.session), limit, offset };
    // Journaled bodies keep their exact numbers (an int64 id above 2^53 stays as sent); with
    // --workers, every worker's entries.
    res.type('application/json').send(await stub.wholeJournal(filter));
  });
  router.delete('/requests', async (_req, res) => {
    await stub.changeEverywhere({ kind: 'reset' });
    res.status(204).end();
  });
  // What stub.reset() does, in every process: the journal, coverage, and what scripted answers
  // remember (sticky scenarios, sequence positions, counts, added scenarios); `?state=true` also
  // puts the store back to its seeded start. `?session=NAME`: that session's scripts only.
  router.post('/reset', async (req, res) => {
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    if (session === undefined) await stub.changeEverywhere({ kind: 'reset' });
    // A session's reset forgets its own store; the shared store is put back only by a reset of all.
    await stub.changeEverywhere({ kind: 'scripts', session });
    if (req.query.state === 'true' && session === undefined) await stub.resetState();
    res.status(204).end();
  });
  router.get('/metrics', async (_req, res) => {
    res.type(METRICS_CONTENT_TYPE).send(await stub.metrics());
  });
  router.get('/warnings', (_req, res) => {
    res.json({ warnings: stub.warnings() });
  });
  router.get('/coverage', async (_req, res) => {
    res.json(await stub.wholeCoverage());
  });
  router.get('/drift', async (_req, res) => {
    res.json(await stub.wholeDrift());
  });
  router.get('/try', (req, res) => {
    const key = typeof req.query.operation === 'string' ? req.query.operation : '';
    const described = stub.tryRequest(key);
    if (!described) return sendProblem(res, adminRefusals.unknownOperation(key));
    res.json(described);
  });
  // For editors: `# yaml-language-server: $schema=http://127.0.0.1:4010/__admin/fixture-schema`.
  router.get('/fixture-schema', (_req, res) => {
    res.type('application/schema+json').send(JSON.stringify(stub.fixtureSchema(), null, 2));
  });
  router.get('/scenarios', (req, res) => {
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    res.json(stub.scenarios(session));
  });
  // An answer added from a test or the page, checked as a fixture's scenario is.
  router.post('/scenarios', express.json({ limit: '1mb' }), async (req, res) => {
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    const definition = session !== undefined && typeof req.body === 'object' && req.body !== null ? { session, ...req.body } : req.body;
    const added = await stub.addScenario(definition);
    if ('violations' in added) return sendProblem(res, adminRefusals.scenarioDoesNotFit(added.violations));
    res.status(201).json(added);
  });
  router.delete('/scenarios/:name', async (req, res) => {
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    if (!stub.scenarios(session).operations.some((op) => op.scenarios.some((scenario) => scenario.added && scenario.name === req.params.name))) {
      return sendProblem(res, adminRefusals.unknownAddedScenario(req.params.name));
    }
    await stub.changeEverywhere({ kind: 'unuse', name: req.params.name, session });
    res.status(204).end();
  });
  router.put('/scenario', express.json({ limit: '16kb' }), async (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    if (typeof name !== 'string' || name === '') return sendProblem(res, adminRefusals.scenarioNameMissing());
    if (!stub.scenarioNames(session).includes(name)) {
      return sendProblem(res, adminRefusals.unknownScenario(name, stub.scenarioNames(session)));
    }
    await stub.changeEverywhere({ kind: 'sticky', name, session });
    res.json({ sticky: name, ...(session === undefined ? {} : { session }) });
  });
  router.delete('/scenario', async (req, res) => {
    const session = sessionAsked(req);
    if (session === null) return sendProblem(res, adminRefusals.filterGivenTwice('session'));
    await stub.changeEverywhere({ kind: 'sticky', name: null, session });
    res.status(204).end();
  });
  router.get('/state', async (_req, res) => {
    const state = await stub.stateJson();
    if (state === null) return statefulOff(res);
    res.type('application/json').send(state);
  });
  // Read up to what --max-state keeps (a large demo is set up in one request), so the parser is made per request.
  router.put('/state', (req, res, next) => express.text({ type: () => true, limit: stub.stateDocumentLimit() })(req, res, next), async (req, res) => {
    if (!stub.stateful) return statefulOff(res);
    const violations = await stub.replaceState(typeof req.body === 'string' ? req.body : '');
    if (violations.length > 0) return sendProblem(res, adminRefusals.stateDoesNotFit(violations));
    res.type('application/json').send(await stub.stateJson());
  });
  router.delete('/state', async (_req, res) => {
    if (!stub.stateful) return statefulOff(res);
    await stub.clearState();
    res.status(204).end();
  });
  router.get('/resources', (_req, res) => {
    const report = stub.resourcesReport();
    if (report === null) return statefulOff(res);
    res.json(report);
  });
  addResourceRoutes(router, stub);
  router.get('/webhooks', (_req, res) => {
    res.json(stub.webhooks());
  });
  // NAME is the webhook's key as the document writes it, percent-encoded (`%2Fplant%2Fwebhook`).
  router.put('/webhooks/:name', express.json({ limit: '16kb' }), async (req, res) => {
    const { name } = req.params;
    if (!stub.hasWebhook(name)) return unknownWebhook(stub, res, name);
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (url !== null && (typeof url !== 'string' || !isWebhookUrl(url))) return sendProblem(res, adminRefusals.webhookUrlMissing());
    await stub.changeEverywhere({ kind: 'webhook', name, url });
    res.json({ name, target: url });
  });
  router.post('/webhooks/:name/fire', express.text({ type: () => true, limit: '1mb' }), (req, res) => {
    const { name } = req.params;
    if (!stub.hasWebhook(name)) return unknownWebhook(stub, res, name);
    const target = stub.webhookTarget(name);
    if (target === null) return sendProblem(res, adminRefusals.webhookWithoutTarget(name));
    const violations = stub.fireWebhook(name, typeof req.body === 'string' ? req.body : '');
    if (violations.length > 0) return sendProblem(res, adminRefusals.payloadDoesNotFit(violations));
    res.status(202).json({ queued: name, target });
  });
  router.post('/reload', async (_req, res) => {
    const ok = await stub.changeEverywhere({ kind: 'reload' });
    if (ok) res.json({ reloaded: true });
    else sendProblem(res, adminRefusals.reloadRefused());
  });
  router.use((req, res) => sendProblem(res, adminRefusals.noEndpoint(req.method, `${req.baseUrl}${req.path}`)));
  // Express's error handler would print a stack trace; a malformed admin request is a 400.
  router.use((error: { status?: number; type?: string; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    // Not the request's fault: the store or the other workers did not answer (a Redis server
    // that is down, a worker that died mid-question). Retrying later may work.
    if (error.status === undefined && error.type === undefined) return sendProblem(res, adminRefusals.sharedStateSilent(error.message));
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
    sendProblem(res, adminRefusals.unreadableBody(status, error.message));
  });
  return router;
}

function unknownWebhook(stub: StubAdmin, res: Response, name: string): void {
  sendProblem(res, adminRefusals.unknownWebhook(name, stub.webhookNames()));
}

function statefulOff(res: Response): void {
  sendProblem(res, adminRefusals.statefulOff());
}

/** The admin page's static files: shipped in the package beside dist/ (dist/http -> src/http/admin-page). */
const PAGE_DIR = fileURLToPath(new URL('../../src/http/admin-page/', import.meta.url));

/** How often an idle event stream gets a comment line, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 15_000;
/**
 * How far behind an event stream's reader may fall (bytes written but not yet taken by its
 * socket) before it is dropped: what it has not read would otherwise be held for it without bound
 * (200 readers that never read held 600 MB). A page that keeps up is never that far behind, and
 * a page's EventSource reconnects by itself.
 */
export const MAX_EVENTS_BEHIND_BYTES = 256 * 1024;

/**
 * Server-sent events: one `request` event per journaled request, as the journal lists it
 * (credentials redacted, numbers exact). Ends when the client leaves, falls too far behind, or
 * the stub shuts down.
 */
function streamJournal(stub: StubAdmin, req: Request, res: Response): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': journal stream\n\n');
  const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const unsubscribe = stub.watchJournal({
    entry: (entry) => {
      if (res.destroyed) return;
      if (res.writableLength > MAX_EVENTS_BEHIND_BYTES) return void res.destroy();
      res.write(eventText(entry));
    },
    end: () => res.end(),
  });
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}

/** The last entry's event, written once for every open stream (each gets the same entry object). */
let lastEvent: { entry: JournalEntry; text: string } | null = null;

function eventText(entry: JournalEntry): string {
  if (lastEvent?.entry !== entry) lastEvent = { entry, text: `event: request\ndata: ${stringifyExact(entry, true)}\n\n` };
  return lastEvent.text;
}

function requireToken(token: string) {
  const expected = createHash('sha256').update(token).digest();
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const given = /^bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
    if (timingSafeEqual(createHash('sha256').update(given).digest(), expected)) return next();
    sendProblem(res, adminRefusals.tokenNeeded());
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A page's `limit` or `offset`: undefined when not given, null when not a whole number from `min`. */
function pageQuery(value: unknown, min: number): number | undefined | null {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return number >= min ? number : null;
}
