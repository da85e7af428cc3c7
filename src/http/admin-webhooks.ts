// /__admin/webhooks: each webhook of the document with its target and last deliveries; a target
// set, a webhook sent now.
import express, { type Response, type Router } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { isWebhookUrl } from '../config/options.js';

export function addWebhookRoutes(router: Router, stub: StubAdmin): void {
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
}

function unknownWebhook(stub: StubAdmin, res: Response, name: string): void {
  sendProblem(res, adminRefusals.unknownWebhook(name, stub.webhookNames()));
}
