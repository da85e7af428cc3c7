// createStubApp: the stub as a handler users mount in their own Express app
// (`app.use('/api', await createStubApp())`) next to routes of their own. Its public type is
// declared here, apart from the Express app that implements it, so a consumer's type-check never
// needs Express's type packages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveOptions, type StubOptions } from '../config/options.js';
import { Stub } from '../stub/stub.js';
import { controlOf, type StubControl } from '../stub/stub-control.js';
import { InFlight } from './in-flight.js';

/** A request handler for Express (or any node:http server), with the stub behind it. */
export interface StubApp {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** The stub behind the app: journal, coverage, sticky scenario, what is served. */
  stub: StubControl;
}

/**
 * Builds the stub as a mountable app. Mount it before any body parser (it reads raw bodies to keep
 * int64 numbers exact). Mounted under a path, its admin API is under that path too
 * (`/api/__admin/requests`).
 * @example
 *   const app = express();
 *   app.use('/api', await createStubApp({ spec: 'openapi.yaml' }));
 */
export async function createStubApp(options: StubOptions = {}): Promise<StubApp> {
  const resolved = resolveOptions(options);
  const stub = await Stub.create(resolved);
  const { buildApp } = await import('./express-app.js');
  const app = buildApp(stub, resolved, new InFlight());
  return Object.assign(app, { stub: controlOf(stub) });
}
