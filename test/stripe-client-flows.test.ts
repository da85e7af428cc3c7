// Stripe's official npm client pointed at the stub serving Stripe's own public document
// (../shared/realworld/sdk/, read from there, never copied; skipped with one line when absent),
// in stateful mode, doing what a team's code does every day: create a customer with metadata and
// an address (bracketed form fields), retrieve it, update it by POST, list customers, delete it,
// and get the client's own error class for a customer that is gone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type RunningStub } from '../src/index.js';

const STRIPE_DOCUMENT = join(import.meta.dirname, '..', '..', 'shared', 'realworld', 'sdk', 'stripe-spec3-3.0.json');
const present = existsSync(STRIPE_DOCUMENT);
if (!present) console.log(`stripe client flows: ${STRIPE_DOCUMENT} is absent, so they are not tried`);

describe.skipIf(!present)('the stripe client against the stub on Stripe\'s document', () => {
  let stub: RunningStub;
  let stripe: Stripe;
  beforeAll(async () => {
    stub = await startStub({ spec: STRIPE_DOCUMENT, fixtures: join(import.meta.dirname, 'specs', 'no-fixtures'), port: 0, watch: false, log: () => {}, warn: () => {}, stateful: true });
    const { port } = new URL(stub.url);
    stripe = new Stripe('sk_test_stub', { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
  }, 120_000);
  afterAll(async () => {
    await stub?.close();
  });

  let id: string;

  it('creates a customer with metadata[...] and address[...] fields, and retrieves what it created', async () => {
    const created = await stripe.customers.create({ name: 'Ada Lovelace', email: 'ada@example.com', metadata: { order_id: '42' }, address: { line1: '1 Main St', city: 'London' } });
    expect(created).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', metadata: { order_id: '42' }, address: { line1: '1 Main St', city: 'London' } });
    expect(typeof created.id).toBe('string');
    expect(created.id).not.toBe('');
    id = created.id;
    const read = await stripe.customers.retrieve(id);
    expect(read).toMatchObject({ id, name: 'Ada Lovelace', metadata: { order_id: '42' } });
  });

  it('updates it by POST, and the next retrieve has the change', async () => {
    const updated = await stripe.customers.update(id, { name: 'Augusta Ada King', metadata: { plan: 'gold' } });
    expect(updated).toMatchObject({ id, name: 'Augusta Ada King', email: 'ada@example.com' });
    expect(await stripe.customers.retrieve(id)).toMatchObject({ id, name: 'Augusta Ada King' });
  });

  it('lists it', async () => {
    const listed = await stripe.customers.list({ limit: 10 });
    expect(listed.data.map((customer) => customer.id)).toContain(id);
  });

  it('deletes it, and a retrieve then fails with the client\'s own error class', async () => {
    const deleted = await stripe.customers.del(id);
    expect(deleted).toMatchObject({ id, deleted: true });
    const error = await stripe.customers.retrieve(id).then(() => null, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Stripe.errors.StripeError);
    expect((error as InstanceType<typeof Stripe.errors.StripeError>).statusCode).toBe(404);
  });
});
