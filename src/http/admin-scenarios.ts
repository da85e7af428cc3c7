// /__admin's scenarios: how to call an operation, the fixture schema for editors, scenarios listed,
// added and taken away, and the sticky scenario (each per session with `?session=NAME`).
import express, { type Router } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { sessionAsked } from './admin-query.js';

export function addScenarioRoutes(router: Router, stub: StubAdmin): void {
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
}
