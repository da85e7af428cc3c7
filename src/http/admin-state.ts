// /__admin's view of stateful mode: the whole store (shown, replaced, emptied), the resources
// inferred from the document, and one resource's items (admin-resources.ts).
import express, { type Response, type Router } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { addResourceRoutes } from './admin-resources.js';

export function addStateRoutes(router: Router, stub: StubAdmin): void {
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
}

function statefulOff(res: Response): void {
  sendProblem(res, adminRefusals.statefulOff());
}
