// /__admin/resources/{name}/…: stateful mode's stored items, one resource at a time, for the admin
// page and for tests: a page of them (newest first), one put as sent (checked against the item's
// schema first), one deleted, the resource put back to its first data.
import express, { type Request, type Response, type Router } from 'express';
import type { StubAdmin } from '../stub/admin-facade.js';
import type { Resource } from '../openapi/compile-resources.js';
import { sendProblem } from './send-problem.js';
import { adminRefusals } from './http-refusals.js';
import { pageQuery } from './admin-query.js';

/** The items a page holds unless `limit` says otherwise, and the most it may hold. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** One item as JSON text, at most (a whole state document may take up to --max-state). */
const ITEM_BODY_LIMIT = 1024 * 1024;

export function addResourceRoutes(router: Router, stub: StubAdmin): void {
  router.get('/resources/:name/items', async (req, res) => {
    const resource = resourceOf(stub, req, res);
    if (!resource) return;
    const offset = wholeQuery(req, res, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = offset === null ? null : wholeQuery(req, res, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
    if (offset === null || limit === null) return;
    const page = await stub.itemsPage(resource, offset, limit);
    // Written from the stored texts, so int64 ids keep every digit.
    res.type('application/json').send(`{"items":[${page.items.join(',')}],"total":${page.total},"offset":${offset},"limit":${limit},"bytes":${page.bytes},"maxBytes":${Number.isFinite(page.maxBytes) ? page.maxBytes : null}}`);
  });
  router.put('/resources/:name/items/:id', express.text({ type: () => true, limit: ITEM_BODY_LIMIT }), async (req, res) => {
    const resource = resourceOf(stub, req, res);
    if (!resource) return;
    const id = String(req.params.id);
    const violations = await stub.putItem(resource, id, typeof req.body === 'string' ? req.body : '');
    if (violations.length > 0) return sendProblem(res, adminRefusals.itemDoesNotFit(violations));
    res.type('application/json').send(req.body);
  });
  router.delete('/resources/:name/items/:id', async (req, res) => {
    const resource = resourceOf(stub, req, res);
    if (!resource) return;
    const id = String(req.params.id);
    if (!(await stub.deleteItem(resource, id))) return sendProblem(res, adminRefusals.unknownItem(resource.name, id));
    res.status(204).end();
  });
  router.post('/resources/:name/reset', async (req, res) => {
    const resource = resourceOf(stub, req, res);
    if (!resource) return;
    await stub.resetResource(resource);
    res.status(204).end();
  });
}

/** The resource the path names, or a refusal sent (stateful mode off, or no such name). */
function resourceOf(stub: StubAdmin, req: Request, res: Response): Resource | null {
  if (!stub.stateful) {
    sendProblem(res, adminRefusals.statefulOff());
    return null;
  }
  const resource = stub.resourceNamed(String(req.params.name));
  if (!resource) sendProblem(res, adminRefusals.unknownResource(String(req.params.name), stub.resourceNameList()));
  return resource;
}

/** A whole-number query parameter within [min, max], its default when absent; null once a refusal is sent. */
function wholeQuery(req: Request, res: Response, name: string, fallback: number, min: number, max: number): number | null {
  const value = pageQuery(req.query[name], min);
  if (value === undefined) return fallback;
  if (value !== null && value <= max) return value;
  sendProblem(res, adminRefusals.badItemsPage(name, String(req.query[name])));
  return null;
}
