// One request on its way through the node:http adapter: what every step of answering needs
// (serve-request.ts, and proxy-exchange.ts for --proxy), passed as one value.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Stub } from '../stub/stub.js';
import type { PlainRequest } from '../common/plain-http.js';
import type { InFlight } from './in-flight.js';

export interface ServeSettings {
  maxBodyBytes: number;
  cors: boolean;
  inFlight: InFlight;
}

export interface Exchange {
  stub: Stub;
  req: IncomingMessage;
  res: ServerResponse;
  settings: ServeSettings;
  request: PlainRequest;
  started: number;
}
