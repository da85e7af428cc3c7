// The Express face of the stub: an app users mount in their own (`app.use('/api', stubApp)`) or
// extend with routes of their own. It serves /__admin and hands every other request to the same
// adapter the default server uses.
import express, { type Express } from 'express';
import { resolveOptions, type ResolvedOptions, type StubOptions } from '../config/options.js';
import { Stub } from '../engine/stub.js';
import { adminRouter } from './admin-router.js';
import { InFlight } from './in-flight.js';
import { answerPreflight, applyCors, isPreflight } from './cors.js';
import { serveRequest, type ServeSettings } from './serve-request.js';

export type StubApp = Express & { stub: Stub };

/**
 * Builds the stub as an Express app. Mount it before any body parser (it reads raw bodies to keep
 * int64 numbers exact).
 * @example
 *   const app = express();
 *   app.use('/api', await createStubApp({ spec: 'openapi.yaml' }));
 */
export async function createStubApp(options: StubOptions = {}): Promise<StubApp> {
  const resolved = resolveOptions(options);
  const stub = await Stub.create(resolved);
  return buildApp(stub, resolved, new InFlight());
}

export function buildApp(stub: Stub, options: ResolvedOptions, inFlight: InFlight): StubApp {
  const app = express() as StubApp;
  app.disable('x-powered-by');
  app.set('etag', false);
  const settings: ServeSettings = { maxBodyBytes: options.maxBodyBytes, cors: options.cors, inFlight };
  if (options.cors) {
    app.use('/__admin', (req, res, next) => (isPreflight(req) ? answerPreflight(req, res) : (applyCors(req, res), next())));
  }
  app.use('/__admin', adminRouter(stub, options.adminToken));
  app.use((req, res) => serveRequest(stub, req, res, settings));
  app.stub = stub;
  return app;
}
