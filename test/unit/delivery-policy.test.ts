// Where deliveries may go, decided alone (the HTTP tests in hostile-callbacks.test.ts cover a stub
// on loopback; a stub exposed on another address cannot be started by a test, which listens on
// 127.0.0.1 only). The decision for each target, as a table.
import { describe, expect, it } from 'vitest';
import { DeliveryPolicy, type DeliveryPolicyOptions } from '../../src/outbound/delivery-policy.js';
import type { Delivery } from '../../src/engine/plan-deliveries.js';

const callback: Delivery = { kind: 'callback', name: 'onEvent', url: null, method: 'POST', headers: {}, body: '' };
const webhook: Delivery = { ...callback, kind: 'webhook', name: 'newPlant' };
const WEBHOOK_TARGETS = ['https://hooks.example.com/plants'];
const loopback: DeliveryPolicyOptions = { callbackHosts: null, loopbackOnly: true };
const exposed: DeliveryPolicyOptions = { callbackHosts: null, loopbackOnly: false };
const DEFAULT_EXPOSED = 'is not a host callbacks may reach (allowed by default when exposed: the webhook targets\' hosts); see --callback-hosts';

describe('the delivery policy', () => {
  const cases: Array<[string, DeliveryPolicyOptions, Delivery, string, string | null]> = [
    ['on loopback, a callback to this machine goes', loopback, callback, 'http://localhost:9000/x', null],
    ['on loopback, a callback to [::1] goes', loopback, callback, 'http://[::1]:9000/x', null],
    ['a callback to a webhook target\'s host goes', exposed, callback, 'https://HOOKS.example.com/other', null],
    ['exposed, a callback to this machine is refused', exposed, callback, 'http://127.0.0.1:6379/', `refused: 127.0.0.1 ${DEFAULT_EXPOSED}`],
    ['exposed, a callback into the network is refused', exposed, callback, 'http://10.0.0.5/admin', `refused: 10.0.0.5 ${DEFAULT_EXPOSED}`],
    ['a webhook goes to its target whatever the host', exposed, webhook, 'http://10.0.0.5/hook', null],
    ['a webhook of another scheme is refused', loopback, webhook, 'file:///etc/passwd', 'refused: only http: and https: URLs are followed, not file:'],
    ['a listed IPv6 host matches with or without brackets', { callbackHosts: ['[fd00::1]'], loopbackOnly: false }, callback, 'http://[fd00::1]/x', null],
    ['a relative URL is refused', loopback, callback, '/events', 'refused: the URL is not an absolute URL'],
  ];
  it.each(cases)('%s', (_name, options, delivery, target, refusal) => {
    expect(new DeliveryPolicy(options).refusal(delivery, target, WEBHOOK_TARGETS)).toBe(refusal);
  });
});
