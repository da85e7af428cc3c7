// The Express app behind createStubApp (and behind /__admin of the default server): it serves
// /__admin and hands every other request to the same adapter the default server uses.
import express, { type Express } from 'express';
import type { ResolvedOptions } from '../config/options.js';
import { Stub } from '../stub/stub.js';
import { adminRouter } from './admin-router.js';
import { InFlight } from './in-flight.js';
import { adminGuard } from './admin-guard.js';
import { serveRequest, toOriginForm, type ServeSettings } from './serve-request.js';

/** The app serving /__admin and every other request; stub-app.ts hands it out as a StubApp. */
export function buildApp(stub: Stub, options: ResolvedOptions, inFlight: InFlight): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const settings: ServeSettings = { maxBodyBytes: options.maxBodyBytes, cors: options.cors, inFlight };
  // An absolute-form target (a client behind a proxy setting) becomes a path, its authority the
  // Host, before anything routes it: as the default server does.
  app.use((req, _res, next) => {
    toOriginForm(req);
    next();
  });
  if (options.adminApi) app.use('/__admin', adminGuard(options), adminRouter(stub.admin, options.adminToken));
  app.use((req, res) => serveRequest(stub, req, res, settings));
  return app;
}
