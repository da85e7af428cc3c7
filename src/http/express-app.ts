// The Express app behind createStubApp (and behind /__admin of the default server): it serves
// /__admin and hands every other request to the same adapter the default server uses.
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { problem } from '../openapi/error-renderer.js';
import type { ResolvedOptions } from '../config/options.js';
import type { StubApp } from './stub-app.js';
import { Stub } from '../stub/stub.js';
import { adminRouter } from './admin-router.js';
import { InFlight } from './in-flight.js';
import { answerPreflight, applyCors, isLoopbackHost, isLoopbackOrigin, isPreflight } from './cors.js';
import { originForm, serveRequest, type ServeSettings } from './serve-request.js';

/**
 * Without an admin token, /__admin trusts only the machine it runs on: a web page from elsewhere
 * must not read the journal or switch scenarios through the developer's browser. So CORS is
 * granted to loopback origins only, and a Host that is not a loopback name (DNS rebinding) is
 * refused. With a token, the token is the guard and any origin may present it.
 */
function adminGuard(options: ResolvedOptions) {
  const open = options.adminToken !== undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    // Health says only that the stub is up (title, operation count): load balancers and
    // orchestrators probe it by the machine's address, so it is open to any Host.
    if (!open && !isLoopbackHost(req.headers.host) && req.path !== '/health') {
      const { contentType, body } = problem(403, 'the admin API answers only requests addressed to this machine (Host: localhost or 127.0.0.1)');
      res.status(403).type(contentType).send(JSON.stringify(body));
      return;
    }
    const trusted = options.cors && (open || isLoopbackOrigin(req.headers.origin));
    if (trusted && isPreflight(req)) return answerPreflight(req, res);
    if (trusted) applyCors(req, res);
    next();
  };
}

export function buildApp(stub: Stub, options: ResolvedOptions, inFlight: InFlight): Express & StubApp {
  const app = express() as Express & StubApp;
  app.disable('x-powered-by');
  app.set('etag', false);
  const settings: ServeSettings = { maxBodyBytes: options.maxBodyBytes, cors: options.cors, inFlight };
  // An absolute-form target (a client behind a proxy setting) becomes a path before anything routes it.
  app.use((req, _res, next) => {
    req.url = originForm(req.url);
    next();
  });
  app.use('/__admin', adminGuard(options), adminRouter(stub, options.adminToken));
  app.use((req, res) => serveRequest(stub, req, res, settings));
  app.stub = stub;
  return app;
}
