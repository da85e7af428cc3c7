// --proxy and --record as the stub holds them: the upstream, whether invalid requests are
// refused, and the recorder; made once at start from the resolved options.
import type { ResolvedOptions } from '../config/options.js';
import type { Secrets } from '../openapi/secrets.js';
import { FixtureRecorder } from './record-fixtures.js';
import { Upstream } from './upstream.js';

export interface ProxySetup {
  upstream: Upstream;
  refuseInvalid: boolean;
  /** --record: null without it. */
  recorder: FixtureRecorder | null;
  /** Writes what --record still holds and lets go of the upstream's connections. */
  close(): void;
}

/** Null without --proxy. `secrets`: the loaded document's credentials (it may be reloaded). */
export function createProxy(options: ResolvedOptions, secrets: () => Secrets, warn: (line: string) => void): ProxySetup | null {
  if (options.proxy === null) return null;
  const upstream = new Upstream(options.proxy, options.proxyTimeoutMs);
  const recorder = options.record === undefined ? null : new FixtureRecorder(options.record, secrets, warn, options.recordRedact);
  return {
    upstream,
    refuseInvalid: options.proxyErrors,
    recorder,
    close: () => {
      recorder?.flush();
      upstream.close();
    },
  };
}
