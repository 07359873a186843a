/**
 * Health-aware routing (docs/connectors.md "Health-aware routing"): the per-connector circuit breaker
 * of shared/processor-call/circuit-breaker.ts, driven through the local gateway against DynamoDB Local with
 * the loopback Stripe stand-in (test/helpers/stripe-stand-in.ts) as the failing processor and the
 * sandbox as the fallback (USD cards: stripe, then sandbox).
 *
 * The circuits live in this process (the gateway runs the handlers in-process, as one Lambda
 * container would): each test starts from closed circuits (`resetCircuits`) with a threshold of 3
 * consecutive technical failures and a half-open delay of 20 s, set through the environment. The
 * half-open delay is passed by moving `Date.now` forward (cockatiel and routing read it), never by
 * sleeping: a slow run cannot make a probe due early.
 */

import { ConnectorTechnicalError } from '../../shared/connectors/connector';
import { CLAIM_LEASE_MS } from '../../shared/domain/pending-operation';
import { createPayment } from '../../shared/operations/payments/create-payment';
import { ConnectorUnavailableError, routeCandidates } from '../../shared/operations/routing/route-candidates';
import { circuitFor } from '../../shared/processor-call/circuit-breaker';
import { existingCircuit, resetCircuits } from '../../shared/processor-call/circuit-registry';
import { callWithinBudget, MIN_BUDGET_FOR_HEALTH_MS } from '../../shared/processor-call/connector-call';
import { createPaymentBodySchema } from '../../shared/schemas/payment-schemas';
import { findApiKey } from '../../shared/storage/api-keys-repository';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn, stripeEnv } from '../helpers/stripe-stand-in';

const THRESHOLD = 3;
const HALF_OPEN_AFTER_MS = 20_000;

const USD_CARD_TWO_CONNECTORS = [
  { currency: 'USD', payment_method: 'card', connectors: ['stripe', 'sandbox'] },
  { connectors: ['sandbox'] },
];
const USD_CARD_STRIPE_ONLY = [{ currency: 'USD', payment_method: 'card', connectors: ['stripe'] }, { connectors: ['sandbox'] }];

let api: LocalApi;
let stripe: StripeStandIn;
const env = scopedEnv();

beforeAll(async () => {
  stripe = await startStripeStandIn();
  env.set({
    ...stripeEnv(stripe, { timeoutMs: 400 }),
    ROUTING_RULES: JSON.stringify(USD_CARD_TWO_CONNECTORS),
    CIRCUIT_FAILURE_THRESHOLD: String(THRESHOLD),
    CIRCUIT_HALF_OPEN_AFTER_MS: String(HALF_OPEN_AFTER_MS),
  });
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
  await stripe.close();
  env.restore();
  resetCircuits();
});
let clockOffset = 0;
const realNow = Date.now.bind(Date);
/** Moves the clock past the half-open delay (Date.now only; timers are untouched). */
function passHalfOpenDelay(): void {
  clockOffset += HALF_OPEN_AFTER_MS + 1_000;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset);
}
afterEach(() => {
  jest.restoreAllMocks();
  clockOffset = 0;
});
beforeEach(() => {
  resetCircuits();
  stripe.reset();
  process.env.ROUTING_RULES = JSON.stringify(USD_CARD_TWO_CONNECTORS);
});

type Attempt = { connector: string; status: string; error_code: string | null; connector_transaction_id: string | null };
const summary = (attempts: Attempt[]) => attempts.map((a) => [a.connector, a.status, a.error_code]);

/** Creates and confirms a USD card payment in one request. */
async function pay(amount: number, pan = '4242424242424242') {
  const res = await api.request('POST', '/payments', {
    body: { amount, currency: 'USD', confirm: true, payment_method_data: card(pan) },
  });
  return res;
}

/** `n` confirms whose Stripe PaymentMethod call answers 500 (a technical failure, nothing sent): each falls back to the sandbox. */
async function failAtStripe(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
    const p = await pay(1000 + i);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox' });
    expect(summary(p.body.attempts)).toEqual([
      ['stripe', 'Failed', 'connector_unreachable'],
      ['sandbox', 'Succeeded', null],
    ]);
  }
}

describe('circuit breaker per connector', () => {
  test('after the threshold of technical failures the circuit opens: confirm skips stripe (attempts show it), stripe gets no call', async () => {
    // Created (not confirmed) while the circuit is closed: routed to stripe.
    const created = await api.request('POST', '/payments', { body: { amount: 2600, currency: 'USD', payment_method: 'card' } });
    expect(created.body.connector).toBe('stripe');
    await failAtStripe(THRESHOLD - 1);
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('closed');
    await failAtStripe(1);
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('open');

    const callsBefore = stripe.requests.length;
    // create + confirm in one request…
    const p = await pay(2500);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox', pending_operation: null });
    expect(summary(p.body.attempts)).toEqual([
      ['stripe', 'Failed', 'circuit_open'],
      ['sandbox', 'Succeeded', null],
    ]);
    expect(p.body.attempts[0].connector_transaction_id).toBeNull();
    // …and a confirm of the payment created earlier for stripe
    const confirmed = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(confirmed.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox' });
    expect(summary(confirmed.body.attempts)).toEqual([
      ['stripe', 'Failed', 'circuit_open'],
      ['sandbox', 'Succeeded', null],
    ]);
    // The failing processor received nothing while open.
    expect(stripe.requests.length).toBe(callsBefore);
    expect(Object.keys(stripe.ledger())).toEqual([]);
  });

  test('routing reads circuits without making them: an account never called in this container is closed, and its first call makes its circuit', async () => {
    const routed = await routeCandidates('USD', 'card', undefined, USD_CARD_TWO_CONNECTORS as never);
    expect(routed.map((c) => c.name)).toEqual(['stripe', 'sandbox']);
    expect(routed.skipped).toEqual([]);
    expect(existingCircuit('stripe')).toBeUndefined();
    await failAtStripe(1);
    const made = existingCircuit('stripe');
    expect(made).toBe(circuitFor('stripe'));
    expect(made?.routingView(Date.now(), false)).toBe('closed');
    await failAtStripe(THRESHOLD - 1);
    expect(existingCircuit('stripe')?.routingView(Date.now(), false)).toBe('open');
  });

  test('after the half-open delay one probe goes through; its success closes the circuit', async () => {
    await failAtStripe(THRESHOLD);
    expect((await pay(3000)).body.connector).toBe('sandbox');
    passHalfOpenDelay();
    const callsBefore = stripe.requests.length;
    const probe = await pay(3100);
    expect(probe.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
    expect(summary(probe.body.attempts)).toEqual([['stripe', 'Succeeded', null]]);
    expect(stripe.requests.length).toBeGreaterThan(callsBefore);
    expect(stripe.ledger()[probe.body.payment_id]).toMatchObject({ charges: 1 });
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('closed');
    // Closed again: the next payment goes to stripe too.
    expect((await pay(3200)).body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
  });

  test('a probe that fails technically opens the circuit again for another period', async () => {
    await failAtStripe(THRESHOLD);
    passHalfOpenDelay();
    stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
    const probe = await pay(4000);
    expect(summary(probe.body.attempts)).toEqual([
      ['stripe', 'Failed', 'connector_unreachable'],
      ['sandbox', 'Succeeded', null],
    ]);
    const callsBefore = stripe.requests.length;
    const next = await pay(4100);
    expect(summary(next.body.attempts)).toEqual([
      ['stripe', 'Failed', 'circuit_open'],
      ['sandbox', 'Succeeded', null],
    ]);
    expect(stripe.requests.length).toBe(callsBefore);
  });

  test('a run of declines (the processor answers) never opens the circuit', async () => {
    for (let i = 0; i < THRESHOLD * 2; i += 1) {
      const p = await pay(5000 + i, '4000000000000002');
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ status: 'Failed', connector: 'stripe' });
      expect(p.body.attempts.map((a: Attempt) => a.connector)).toEqual(['stripe']);
    }
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('closed');
    expect((await pay(5100)).body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
  });

  test('declines between technical failures reset the count: only consecutive failures open it', async () => {
    await failAtStripe(THRESHOLD - 1);
    expect((await pay(5200, '4000000000000002')).body).toMatchObject({ status: 'Failed', connector: 'stripe' });
    await failAtStripe(THRESHOLD - 1);
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('closed');
  });

  test('timeouts after sending count for health, and each payment keeps its unknown-outcome handling', async () => {
    // The PaymentIntent call hangs (the stand-in never answers): outcome unknown, the payment stays with stripe.
    for (let i = 0; i < THRESHOLD; i += 1) {
      stripe.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_before_work');
      const p = await pay(6000 + i);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ status: 'Processing', connector: 'stripe', error_code: 'connector_unreachable' });
      expect(p.body.pending_operation).toMatchObject({ operation: 'authorize', connector: 'stripe' });
      expect(summary(p.body.attempts)).toEqual([['stripe', 'Processing', 'connector_unreachable']]);
    }
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('open');
    const skipped = await pay(6100);
    expect(summary(skipped.body.attempts)).toEqual([
      ['stripe', 'Failed', 'circuit_open'],
      ['sandbox', 'Succeeded', null],
    ]);
  });

  test('timeouts after the processor did the work open the circuit; with it open each payment is still settled from the processor and matches its ledger', async () => {
    // Stripe alone (with a fallback the lookup after the timeout would settle each payment at once).
    process.env.ROUTING_RULES = JSON.stringify(USD_CARD_STRIPE_ONLY);
    const ids: string[] = [];
    for (let i = 0; i < THRESHOLD; i += 1) {
      // Stripe charges, then never answers: the request times out with the money taken there.
      stripe.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
      const p = await pay(6200 + i);
      expect(p.body).toMatchObject({ status: 'Processing', connector: 'stripe', error_code: 'connector_unreachable' });
      ids.push(p.body.payment_id);
    }
    expect(circuitFor('stripe').routingView(Date.now(), false)).toBe('open');
    // Past the claims' lease: a force_sync asks Stripe by our reference. Calls on a payment are never
    // blocked by its connector's circuit (only routing is), so each settles to what Stripe holds.
    clockOffset += CLAIM_LEASE_MS + 1_000;
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset);
    for (const id of ids) {
      const synced = await api.request('GET', `/payments/${id}?force_sync=true`);
      expect(synced.body).toMatchObject({ status: 'Succeeded', pending_operation: null });
      expect(synced.body.amount_captured).toBe(stripe.ledger()[id]?.amountCaptured);
      expect(stripe.ledger()[id]?.charges).toBe(1);
    }
  });

  test('the only connector open and no probe due → 503 connector_unavailable, nothing created or sent', async () => {
    process.env.ROUTING_RULES = JSON.stringify(USD_CARD_STRIPE_ONLY);
    for (let i = 0; i < THRESHOLD; i += 1) {
      stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
      const p = await pay(7000 + i);
      // Nothing was sent and there is no next connector: the payment keeps today's handling (reconciled later).
      expect(p.body).toMatchObject({ connector: 'stripe', error_code: 'connector_unreachable' });
    }
    const key = await api.newMerchantKey();
    const callsBefore = stripe.requests.length;
    const refused = await api.request('POST', '/payments', {
      key,
      body: { amount: 7100, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const error = expectError(refused, 503, 'connector_unavailable');
    expect(error.type).toBe('connector_error');
    expect(error.message).toMatch(/stripe/);
    expect(error.message).toMatch(/Nothing was changed/);
    const retryAfterHeader = Number(refused.headers.get('retry-after'));
    expect(retryAfterHeader).toBeGreaterThan(HALF_OPEN_AFTER_MS / 1000 - 10);
    expect(retryAfterHeader).toBeLessThanOrEqual(HALF_OPEN_AFTER_MS / 1000);
    expect((await api.request('GET', '/payments', { key })).body.data).toEqual([]);
    expect(stripe.requests.length).toBe(callsBefore);

    // A create without confirm calls no processor: it is taken; its confirm is refused the same way
    // and leaves it as it was.
    const created = await api.request('POST', '/payments', { key, body: { amount: 7150, currency: 'USD' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'RequiresConfirmation', connector: 'stripe' });
    const confirm = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      key,
      body: { payment_method_data: card('4242424242424242') },
    });
    expectError(confirm, 503, 'connector_unavailable');
    expect((await api.request('GET', `/payments/${created.body.payment_id}`, { key })).body).toMatchObject({
      status: 'RequiresConfirmation',
      pending_operation: null,
    });
    expect(stripe.requests.length).toBe(callsBefore);

    // The refusal carries its Retry-After (seconds until the probe is due) for the HTTP layer.
    const err = await routeCandidates('USD', 'card', undefined, USD_CARD_STRIPE_ONLY as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorUnavailableError);
    const retryAfter = (err as ConnectorUnavailableError).retryAfterSeconds;
    expect(retryAfter).toBeGreaterThan(HALF_OPEN_AFTER_MS / 1000 - 10);
    expect(retryAfter).toBeLessThanOrEqual(HALF_OPEN_AFTER_MS / 1000);
    expect((err as ConnectorUnavailableError).headers).toEqual({ 'Retry-After': String(retryAfter) });
    expect((err as ConnectorUnavailableError).transient).toBe(true);

    // Once the half-open delay has passed, the next payment is the probe and goes through.
    passHalfOpenDelay();
    const probe = await api.request('POST', '/payments', {
      key,
      body: { amount: 7200, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(probe.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
  });

  test('a retried create (same Idempotency-Key) whose payment exists is answered from it while every circuit is open, never refused as "nothing was changed"', async () => {
    process.env.ROUTING_RULES = JSON.stringify(USD_CARD_STRIPE_ONLY);
    const key = await api.newMerchantKey();
    const merchantId = (await findApiKey(key))?.merchant_id as string;
    const raw = { amount: 7300, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') };
    const first = await api.request('POST', '/payments', { key, body: raw, headers: { 'Idempotency-Key': 'retry-after-unknown' } });
    expect(first.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
    await failAtStripeOnly(THRESHOLD);
    const callsBefore = stripe.requests.length;
    // The retry as it runs when the first attempt kept no idempotency record (it answered 503
    // outcome_unknown, which releases the record): the operation itself, with the same key.
    const ctx = { merchantId, publicBaseUrl: 'http://127.0.0.1', idempotencyKey: 'retry-after-unknown', deadlineMs: Date.now() + 20_000 };
    const body = createPaymentBodySchema.parse(raw);
    const again = await createPayment(ctx, body);
    expect(again).toMatchObject({ payment_id: first.body.payment_id, status: 'Succeeded' });
    expect(stripe.requests.length).toBe(callsBefore);
    // A key with no payment behind it is refused as before: nothing exists, nothing was sent.
    await expect(createPayment({ ...ctx, idempotencyKey: 'never-used' }, body)).rejects.toBeInstanceOf(ConnectorUnavailableError);
    expect(stripe.requests.length).toBe(callsBefore);
  });

  test('a call started with less than MIN_BUDGET_FOR_HEALTH_MS of the request left is made but does not count toward the circuit', async () => {
    const fail = async () => {
      throw new ConnectorTechnicalError('budgetcheck', 'timed out');
    };
    for (let i = 0; i < THRESHOLD + 2; i += 1) {
      await expect(
        callWithinBudget({ deadlineMs: Date.now() + MIN_BUDGET_FOR_HEALTH_MS / 2 }, 'budgetcheck', 'sync', fail),
      ).rejects.toThrow('timed out');
    }
    expect(circuitFor('budgetcheck').routingView(Date.now(), false)).toBe('closed');
    for (let i = 0; i < THRESHOLD; i += 1) {
      await expect(callWithinBudget({ deadlineMs: Date.now() + 20_000 }, 'budgetcheck', 'sync', fail)).rejects.toThrow('timed out');
    }
    expect(circuitFor('budgetcheck').routingView(Date.now(), false)).toBe('open');
  });

  test('routing hands the half-open probe to one request only', async () => {
    process.env.ROUTING_RULES = JSON.stringify(USD_CARD_STRIPE_ONLY);
    await failAtStripeOnly(THRESHOLD);
    passHalfOpenDelay();
    const first = await routeCandidates('USD', 'card', undefined, USD_CARD_STRIPE_ONLY as never);
    expect(first.map((c) => c.name)).toEqual(['stripe']);
    expect(first.skipped).toEqual([]);
    await expect(routeCandidates('USD', 'card', undefined, USD_CARD_STRIPE_ONLY as never)).rejects.toBeInstanceOf(
      ConnectorUnavailableError,
    );
    // A routing that calls no processor ignores the circuits.
    const plain = await routeCandidates('USD', 'card', undefined, USD_CARD_STRIPE_ONLY as never, { respectCircuits: false });
    expect(plain.map((c) => c.name)).toEqual(['stripe']);
  });
});

/** `n` technical failures at stripe with no fallback (stripe the only connector). */
async function failAtStripeOnly(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
    await pay(8000 + i);
  }
}
