// Where the stub may send what it sends out. A callback's URL comes from the client's request, so a
// stub exposed as a public demo would otherwise make requests for anyone into the network it runs
// in: callbacks go only to http(s) URLs on the allowed hosts (--callback-hosts), and anything else
// is refused before a connection is made, with the reason recorded. Webhook targets are set by
// whoever runs the stub (a flag, the guarded admin API), so only their scheme is checked.
import { isLoopbackName } from '../common/loopback.js';
import type { Delivery } from '../engine/plan-deliveries.js';

export interface DeliveryPolicyOptions {
  /** Hosts callbacks may reach, `*` for any; null for the default (see `allowedHosts`). */
  callbackHosts: readonly string[] | null;
  /** Whether the stub listens on this machine only: then this machine's names are allowed by default. */
  loopbackOnly: boolean;
}

export class DeliveryPolicy {
  private readonly listed: Set<string> | null;

  constructor(private readonly options: DeliveryPolicyOptions) {
    this.listed = options.callbackHosts === null ? null : new Set(options.callbackHosts.map(bare));
  }

  /** Why `target` must not be sent to, or null when it may. `webhookTargets` are the registered ones now. */
  refusal(delivery: Delivery, target: string, webhookTargets: Iterable<string>): string | null {
    if (delivery.chained) return 'not sent: the request that triggered it was itself a delivery (it carried X-Mock-Delivery), so the chain ends here';
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return 'refused: the URL is not an absolute URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `refused: only http: and https: URLs are followed, not ${url.protocol}`;
    if (delivery.kind === 'webhook' || this.allows(bare(url.hostname), webhookTargets)) return null;
    return `refused: ${url.hostname} is not a host callbacks may reach (${this.describeAllowed()}); see --callback-hosts`;
  }

  private allows(host: string, webhookTargets: Iterable<string>): boolean {
    if (this.listed) return this.listed.has('*') || this.listed.has(host);
    if (this.options.loopbackOnly && isLoopbackName(host)) return true;
    for (const target of webhookTargets) if (hostOf(target) === host) return true;
    return false;
  }

  private describeAllowed(): string {
    if (this.listed) return `allowed: ${[...this.listed].join(', ') || 'none'}`;
    return this.options.loopbackOnly ? 'allowed by default: this machine and the webhook targets\' hosts' : 'allowed by default when exposed: the webhook targets\' hosts';
  }
}

/** A host name as compared: lower case, an IPv6 address without its brackets. */
function bare(host: string): string {
  return host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

function hostOf(target: string): string | null {
  try {
    return bare(new URL(target).hostname);
  } catch {
    return null;
  }
}
