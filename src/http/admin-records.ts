// /__admin's records: the journal (a page of it, the live event stream), resets, coverage, the
// drift report, metrics and the document's warnings.
import type { Router } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { METRICS_CONTENT_TYPE } from '../record/metrics.js';
import { pageQuery, sessionAsked, text } from './admin-query.js';
import { streamJournal } from './admin-events.js';

export function addRecordRoutes(router: Router, stub: StubAdmin): void {
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
}
