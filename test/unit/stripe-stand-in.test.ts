/**
 * Self-test of the Stripe stand-in (test/helpers/stripe-stand-in.ts), driven
 * through the real StripeConnector: the ledger records what the "processor"
 * really did, idempotency keys are honoured, and each injected fault produces
 * the failure the adapter is meant to see.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorRequestError, ConnectorTechnicalError, type AuthorizeRequest, type SyncRequest } from '../../shared/connectors/connector';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { startStripeStandIn, stripeEnv, STAND_IN_SECRET_KEY, type StripeStandIn } from '../helpers/stripe-stand-in';

const FIXTURES = join(__dirname, '..', 'connectors', 'fixtures', 'stripe');
const fixtureKeys = (name: string): string[] => Object.keys(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as object).sort();

const PAN = '4242424242424242';
const DECLINED_PAN = '4000000000000002';
const CVC = '737';
const TIMEOUT_MS = 300;

let standIn: StripeStandIn;
let seq = 0;

beforeAll(async () => {
  standIn = await startStripeStandIn();
});
afterEach(() => standIn.reset());
afterAll(async () => {
  await standIn.close();
});

const stripe = (over: Partial<ConstructorParameters<typeof StripeConnector>[0]> = {}) =>
  new StripeConnector({ baseUrl: standIn.url, secretKey: standIn.secretKey, webhookSecret: standIn.webhookSecret, timeoutMs: TIMEOUT_MS, ...over });

const newPaymentId = () => `pay_standin_${Date.now()}_${(seq += 1)}`;

const authorizeRequest = (paymentId: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  paymentId,
  amount: 150000,
  currency: 'NGN',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  card: { card_number: PAN, card_exp_month: '07', card_exp_year: '31', card_cvc: CVC },
  email: null,
  phone: null,
  publicBaseUrl: 'https://api.switchyard.test',
  returnUrl: 'https://shop.example.com/return',
  ...over,
});

const syncRequest = (paymentId: string, connectorTransactionId: string | null): SyncRequest => ({
  paymentId,
  connectorTransactionId,
  amount: 150000,
  currency: 'NGN',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  createdAt: new Date().toISOString(),
});

const rawGet = async (path: string, key: string | null = standIn.secretKey) => {
  const res = await fetch(`${standIn.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** Authorizes a manual-capture payment and returns its PaymentIntent id. */
const authorizeManual = async (paymentId: string, amount = 150000): Promise<string> => {
  const result = await stripe().authorize(authorizeRequest(paymentId, { captureMethod: 'manual', amount }));
  expect(result.status).toBe('RequiresCapture');
  return result.connectorTransactionId!;
};

describe('Stripe stand-in', () => {
  test('authorize creates one succeeded PaymentIntent with the full documented shape', async () => {
    const paymentId = newPaymentId();
    const result = await stripe().authorize(authorizeRequest(paymentId));
    expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: expect.stringMatching(/^pi_[A-Za-z0-9]{24}$/), amountCaptured: 150000 });
    expect(standIn.ledger()).toEqual({
      [paymentId]: {
        paymentId,
        paymentIntentId: result.connectorTransactionId,
        paymentIntentIds: [result.connectorTransactionId],
        status: 'succeeded',
        currency: 'ngn',
        amount: 150000,
        amountCapturable: 0,
        amountCaptured: 150000,
        amountRefunded: 0,
        refunds: [],
        charges: 1,
        declines: 0,
      },
    });
    const intent = await rawGet(`/v1/payment_intents/${result.connectorTransactionId}`);
    expect(intent.status).toBe(200);
    expect(Object.keys(intent.body).sort()).toEqual(fixtureKeys('payment_intent.succeeded'));
    expect(intent.body).toMatchObject({ object: 'payment_intent', amount: 150000, amount_received: 150000, currency: 'ngn', capture_method: 'automatic', metadata: { payment_id: paymentId } });
    // The record keeps what was asked, without the PAN or CVC.
    const [post] = standIn.requests;
    expect(post).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: `${paymentId}:authorize`, stripeVersion: null, outcome: 'answered', status: 200 });
    expect(post!.form['payment_method_data[card][number]']).toBe('****4242');
    expect(post!.form['payment_method_data[card][cvc]']).toBe('***');
    expect(post!.form['metadata[payment_id]']).toBe(paymentId);
    expect(JSON.stringify(standIn.requests)).not.toContain(PAN);
    expect(JSON.stringify(standIn.requests)).not.toContain(CVC);
  });

  test('a retry with the same idempotency key replays the first answer and creates nothing', async () => {
    const paymentId = newPaymentId();
    const first = await stripe().authorize(authorizeRequest(paymentId));
    const again = await stripe().authorize(authorizeRequest(paymentId));
    expect(again).toEqual(first);
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 1, paymentIntentIds: [first.connectorTransactionId] });
    expect(standIn.requests.map((r) => r.outcome)).toEqual(['answered', 'replayed']);
    // Other parameters under the same key: Stripe's idempotency_error, nothing created.
    await expect(stripe().authorize(authorizeRequest(paymentId, { amount: 1000 }))).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'idempotency_error' });
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('manual capture: authorize → requires_capture, partial capture updates the ledger', async () => {
    const paymentId = newPaymentId();
    const pi = await authorizeManual(paymentId);
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'requires_capture', amountCapturable: 150000, amountCaptured: 0, charges: 1 });
    const captured = await stripe().capture({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount: 100000 });
    expect(captured).toEqual({ status: 'Succeeded', connectorTransactionId: pi, amountCaptured: 100000 });
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'succeeded', amountCapturable: 0, amountCaptured: 100000, charges: 1 });
    expect(standIn.requests.at(-1)).toMatchObject({ path: `/v1/payment_intents/${pi}/capture`, idempotencyKey: `${paymentId}:capture`, form: { amount_to_capture: '100000' } });
  });

  test('void cancels an authorization; cancelling a succeeded intent is payment_intent_unexpected_state', async () => {
    const paymentId = newPaymentId();
    const pi = await authorizeManual(paymentId);
    await expect(stripe().void({ paymentId, connectorTransactionId: pi, currency: 'NGN' })).resolves.toEqual({ status: 'Cancelled', connectorTransactionId: pi, amountCaptured: 0 });
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'canceled', amountCapturable: 0, amountCaptured: 0 });

    const paid = newPaymentId();
    const auto = await stripe().authorize(authorizeRequest(paid));
    const err = await stripe()
      .void({ paymentId: paid, connectorTransactionId: auto.connectorTransactionId!, currency: 'NGN' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ code: 'payment_intent_unexpected_state' });
    expect(standIn.ledger()[paid]).toMatchObject({ status: 'succeeded', amountCaptured: 150000 });
  });

  test('refunds update the ledger, refuse amounts above what is left, and are listable by payment_intent', async () => {
    const paymentId = newPaymentId();
    const pi = (await stripe().authorize(authorizeRequest(paymentId))).connectorTransactionId!;
    const ref = (refundId: string, amount: number) => stripe().refund({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount, refundId });
    const r1 = await ref('ref_a', 50000);
    const r2 = await ref('ref_b', 70000);
    expect(r1).toEqual({ status: 'Succeeded', connectorRefundId: expect.stringMatching(/^re_/) });
    await expect(ref('ref_c', 30001)).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'amount_too_large' });
    await ref('ref_d', 30000);
    await expect(ref('ref_e', 1)).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'charge_already_refunded' });
    const entry = standIn.ledger()[paymentId]!;
    expect(entry.amountRefunded).toBe(150000);
    expect(entry.refunds.map((r) => [r.amount, r.status, r.metadata])).toEqual([
      [50000, 'succeeded', { refund_id: 'ref_a', payment_id: paymentId }],
      [70000, 'succeeded', { refund_id: 'ref_b', payment_id: paymentId }],
      [30000, 'succeeded', { refund_id: 'ref_d', payment_id: paymentId }],
    ]);
    await expect(stripe().syncRefund({ refundId: 'ref_a', connectorRefundId: r1.connectorRefundId!, currency: 'NGN' })).resolves.toEqual(r1);

    const page1 = await rawGet(`/v1/refunds?payment_intent=${pi}&limit=2`);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/refunds' });
    expect(Object.keys(page1.body.data[0]).sort()).toEqual(fixtureKeys('refund.succeeded'));
    const newestFirst = (page1.body.data as Array<{ id: string }>).map((r) => r.id);
    expect(newestFirst[1]).toBe(r2.connectorRefundId);
    const page2 = await rawGet(`/v1/refunds?payment_intent=${pi}&limit=2&starting_after=${newestFirst[1]}`);
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: r1.connectorRefundId, amount: 50000, payment_intent: pi }] });
    expect((await rawGet('/v1/refunds?payment_intent=pi_other')).body).toMatchObject({ object: 'list', data: [], has_more: false });
  });

  test('hang_after_work: the adapter times out, yet the ledger has the charge and sync (search) finds it; the retry replays', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
    const err = await stripe()
      .authorize(authorizeRequest(paymentId))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.requests[0]).toMatchObject({ fault: 'hang_after_work', outcome: 'hung', status: 200 });
    const truth = standIn.ledger()[paymentId];
    expect(truth).toMatchObject({ status: 'succeeded', amountCaptured: 150000, charges: 1 });

    const synced = await stripe().sync(syncRequest(paymentId, null));
    expect(synced).toEqual({ status: 'Succeeded', connectorTransactionId: truth!.paymentIntentId, amountCaptured: 150000 });
    expect(standIn.requests[1]).toMatchObject({ method: 'GET', path: '/v1/payment_intents/search', fault: null });

    const retried = await stripe().authorize(authorizeRequest(paymentId));
    expect(retried.connectorTransactionId).toBe(truth!.paymentIntentId);
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
    expect(standIn.pendingFaults()).toEqual([]);
  });

  test('hang_after_work on a refund: the refund exists at the processor once, the retry replays it', async () => {
    const paymentId = newPaymentId();
    const pi = (await stripe().authorize(authorizeRequest(paymentId))).connectorTransactionId!;
    standIn.failNext({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
    const refund = () => stripe().refund({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount: 40000, refundId: 'ref_hang' });
    await expect(refund()).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()[paymentId]).toMatchObject({ amountRefunded: 40000, refunds: [{ amount: 40000, metadata: { refund_id: 'ref_hang' } }] });
    // The adapter's lookup by our reference (GET /v1/refunds?payment_intent=…) finds it.
    const found = await stripe().findRefund({ refundId: 'ref_hang', paymentId, connectorTransactionId: pi, amount: 40000, currency: 'NGN', createdAt: new Date().toISOString() });
    expect(found).toEqual({ status: 'Succeeded', connectorRefundId: standIn.ledger()[paymentId]!.refunds[0]!.id });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/refunds', form: { payment_intent: pi } });
    const retried = await refund();
    expect(retried.connectorRefundId).toBe(standIn.ledger()[paymentId]!.refunds[0]!.id);
    expect(standIn.ledger()[paymentId]!.refunds).toHaveLength(1);
  });

  test('hang_before_work: the adapter times out and nothing happened; search finds nothing yet', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_before_work');
    await expect(stripe().authorize(authorizeRequest(paymentId))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()).toEqual({});
    await expect(stripe().sync(syncRequest(paymentId, null))).resolves.toEqual({ status: 'Processing', connectorTransactionId: null, amountCaptured: 0 });
    // The key was never taken: the retry does the work.
    await expect(stripe().authorize(authorizeRequest(paymentId))).resolves.toMatchObject({ status: 'Succeeded' });
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('error_500_after_work: work done, 500 answered and saved, so the same key replays the 500', async () => {
    const paymentId = newPaymentId();
    const pi = await authorizeManual(paymentId);
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents/' }, 'error_500_after_work');
    const capture = () => stripe().capture({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount: 150000 });
    await expect(capture()).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'succeeded', amountCaptured: 150000 });
    await expect(capture()).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.requests.slice(-2).map((r) => [r.status, r.outcome])).toEqual([
      [500, 'answered'],
      [500, 'replayed'],
    ]);
    await expect(stripe().sync(syncRequest(paymentId, pi))).resolves.toEqual({ status: 'Succeeded', connectorTransactionId: pi, amountCaptured: 150000 });
  });

  test('error_500_before_work applies `times` requests, matched by method and path prefix, and does nothing', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'error_500_before_work', { times: 2 });
    await expect(stripe().authorize(authorizeRequest(paymentId))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    // A GET does not match a POST fault.
    await expect(stripe().sync(syncRequest(paymentId, null))).resolves.toMatchObject({ status: 'Processing' });
    await expect(stripe().authorize(authorizeRequest(paymentId))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()).toEqual({});
    await expect(stripe().authorize(authorizeRequest(paymentId))).resolves.toMatchObject({ status: 'Succeeded' });
    expect(standIn.requests.map((r) => r.fault)).toEqual(['error_500_before_work', null, 'error_500_before_work', null]);
  });

  test("'down' resets every connection: technical error, nothing in the ledger; back up, it works", async () => {
    const paymentId = newPaymentId();
    standIn.setDown(true);
    const err = await stripe()
      .authorize(authorizeRequest(paymentId))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as Error).message).toMatch(/could not be reached/);
    expect(standIn.ledger()).toEqual({});
    expect(standIn.requests.every((r) => r.outcome === 'reset' && r.fault === 'down')).toBe(true);
    standIn.setDown(false);
    await expect(stripe().authorize(authorizeRequest(paymentId))).resolves.toMatchObject({ status: 'Succeeded' });
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('reset_after_work / reset_before_work: the connection drops after or before the work', async () => {
    const paid = newPaymentId();
    standIn.failNext({ path: '/v1/payment_intents' }, 'reset_after_work');
    await expect(stripe().authorize(authorizeRequest(paid))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()[paid]).toMatchObject({ status: 'succeeded', charges: 1 });

    const notPaid = newPaymentId();
    standIn.failNext({ path: '/v1/payment_intents' }, 'reset_before_work');
    await expect(stripe().authorize(authorizeRequest(notPaid))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.ledger()[notPaid]).toBeUndefined();
    expect(standIn.requests.map((r) => [r.fault, r.outcome])).toEqual([
      ['reset_after_work', 'reset'],
      ['reset_before_work', 'reset'],
    ]);
  });

  test('a concurrent request with a key still in use gets 409 idempotency_key_in_use', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'slow', { delayMs: 150 });
    const settled = await Promise.allSettled([stripe().authorize(authorizeRequest(paymentId)), stripe().authorize(authorizeRequest(paymentId))]);
    // Whichever arrived first took the key and the delay; the other one was refused.
    expect(settled.filter((s) => s.status === 'fulfilled')).toEqual([{ status: 'fulfilled', value: expect.objectContaining({ status: 'Succeeded' }) }]);
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(rejected).toHaveLength(1);
    // The adapter reports it as a technical error (outcome unknown) carrying Stripe's code.
    const reason = rejected[0]!.reason as ConnectorTechnicalError & { code?: string };
    expect(reason).toBeInstanceOf(ConnectorTechnicalError);
    expect(`${reason.code ?? ''} ${reason.message}`).toContain('idempotency_key_in_use');
    expect(standIn.requests.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('a declined test card is a Failed result and no charge', async () => {
    const paymentId = newPaymentId();
    const result = await stripe().authorize(authorizeRequest(paymentId, { card: { card_number: DECLINED_PAN, card_exp_month: '12', card_exp_year: '2030', card_cvc: CVC } }));
    expect(result).toEqual({ status: 'Failed', connectorTransactionId: expect.stringMatching(/^pi_/), amountCaptured: 0, errorCode: 'generic_decline', errorMessage: 'Your card was declined.' });
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'requires_payment_method', charges: 0, declines: 1, amountCaptured: 0 });
    expect(standIn.requests[0]).toMatchObject({ status: 402 });
    expect(JSON.stringify(standIn.requests)).not.toContain(DECLINED_PAN);
  });

  test('authentication, unknown objects and unknown paths answer Stripe error shapes', async () => {
    expect(await rawGet('/v1/payment_intents/pi_nope', null)).toMatchObject({ status: 401, body: { error: { type: 'invalid_request_error' } } });
    const wrongKey = await rawGet('/v1/payment_intents/pi_nope', 'sk_test_wrongwrongwrongwrong1234');
    expect(wrongKey).toMatchObject({ status: 401, body: { error: { message: expect.stringContaining('Invalid API Key provided') } } });
    expect(JSON.stringify(wrongKey.body)).not.toContain('sk_test_wrongwrongwrongwrong1234');
    await expect(stripe().sync(syncRequest('pay_x', 'pi_nope'))).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'resource_missing' });
    expect(await rawGet('/v1/charges')).toMatchObject({ status: 404, body: { error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL') } } });
    await expect(stripe({ secretKey: 'sk_test_notTheStandInKey0000' }).authorize(authorizeRequest(newPaymentId()))).rejects.toBeInstanceOf(ConnectorRequestError);
    expect(standIn.ledger()).toEqual({});
  });

  test('stripeEnv gives the registry fake keys and the stand-in URL; the registry builds a working connector from it', async () => {
    const env = stripeEnv(standIn, { timeoutMs: 250 });
    expect(env).toEqual({ STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY, STRIPE_BASE_URL: standIn.url, STRIPE_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/), CONNECTOR_TIMEOUT_MS: '250' });
    expect(env.STRIPE_SECRET_KEY).toMatch(/^sk_test_\w*StandInFakeKeyNotARealStripeKey/);
    expect(stripeEnv(standIn)).not.toHaveProperty('CONNECTOR_TIMEOUT_MS');

    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      const { configuredConnector } = await import('../../shared/connectors/registry');
      const connector = await configuredConnector('stripe');
      expect(connector).toBeInstanceOf(StripeConnector);
      const paymentId = newPaymentId();
      await expect(connector!.authorize(authorizeRequest(paymentId))).resolves.toMatchObject({ status: 'Succeeded' });
      expect(standIn.ledger()[paymentId]!.charges).toBe(1);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
