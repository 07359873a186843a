/**
 * Self-test of the Stripe stand-in (test/helpers/stripe-stand-in.ts), driven
 * through the real StripeConnector: the ledger records what the "processor"
 * really did, idempotency keys are honoured, each injected fault produces
 * the failure the adapter is meant to see, and the API-version rules (a required
 * `Stripe-Version`; `payment_method_types` refused from 2026-09-30.endive) catch a
 * regression of the adapter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AuthorizeRequest, ConnectorRequestError, ConnectorTechnicalError, type SyncRequest } from '../../shared/connectors/connector';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/transformers';
import { STAND_IN_SECRET_KEY, type StripeStandIn, startStripeStandIn, stripeEnv } from '../helpers/stripe-stand-in';

const FIXTURES = join(__dirname, '..', 'connectors', 'fixtures', 'stripe');
const fixtureKeys = (name: string): string[] =>
  Object.keys(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as object).sort();

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
  new StripeConnector({
    baseUrl: standIn.url,
    secretKey: standIn.secretKey,
    webhookSecret: standIn.webhookSecret,
    timeoutMs: TIMEOUT_MS,
    ...over,
  });

const newPaymentId = () => {
  seq += 1;
  return `pay_standin_${Date.now()}_${seq}`;
};

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

const rawGet = async (path: string, key: string | null = standIn.secretKey, version: string | null = STRIPE_API_VERSION) => {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (version) headers['stripe-version'] = version;
  const res = await fetch(`${standIn.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** A raw form POST, as a client other than our adapter could send it. */
const rawPost = async (path: string, form: Record<string, string>, version: string | null = STRIPE_API_VERSION) => {
  const headers: Record<string, string> = {
    authorization: `Bearer ${standIn.secretKey}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (version) headers['stripe-version'] = version;
  const res = await fetch(`${standIn.url}${path}`, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** The requests to one path (the adapter's PaymentMethod and PaymentIntent calls interleave). */
const requestsTo = (path: string) => standIn.requests.filter((r) => r.path === path);

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
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: expect.stringMatching(/^pi_[A-Za-z0-9]{24}$/),
      amountCaptured: 150000,
    });
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
    expect(intent.body).toMatchObject({
      object: 'payment_intent',
      amount: 150000,
      amount_received: 150000,
      currency: 'ngn',
      capture_method: 'automatic',
      metadata: { payment_id: paymentId },
    });
    // The card went to POST /v1/payment_methods only; the intent carries the PaymentMethod, never the card.
    const [pmPost, piPost] = standIn.requests;
    expect(pmPost).toMatchObject({
      method: 'POST',
      path: '/v1/payment_methods',
      idempotencyKey: `${paymentId}:payment_method`,
      stripeVersion: STRIPE_API_VERSION,
      outcome: 'answered',
      status: 200,
    });
    expect(pmPost!.form).toEqual({
      type: 'card',
      'card[number]': '****4242',
      'card[exp_month]': '7',
      'card[exp_year]': '2031',
      'card[cvc]': '***',
      'metadata[payment_id]': paymentId,
    });
    const [pm] = standIn.paymentMethods();
    expect(pm).toEqual({
      id: expect.stringMatching(/^pm_/),
      paymentId,
      brand: 'visa',
      last4: '4242',
      expMonth: 7,
      expYear: 2031,
      idempotencyKey: `${paymentId}:payment_method`,
    });
    expect(piPost).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: `${paymentId}:authorize`,
      stripeVersion: STRIPE_API_VERSION,
      outcome: 'answered',
      status: 200,
    });
    expect(piPost!.form).toMatchObject({
      payment_method: pm!.id,
      confirm: 'true',
      'allowed_payment_method_types[0]': 'card',
      'metadata[payment_id]': paymentId,
    });
    expect(Object.keys(piPost!.form).filter((k) => k.startsWith('payment_method_types') || k.includes('card]'))).toEqual([]);
    expect(intent.body.payment_method).toBe(pm!.id);
    expect(JSON.stringify(standIn.requests)).not.toContain(PAN);
    expect(JSON.stringify(standIn.requests)).not.toContain(CVC);
    expect(JSON.stringify(standIn.paymentMethods())).not.toContain(PAN);
    const pmObject = await rawGet(`/v1/payment_methods/${pm!.id}`);
    const pmTemplate = (
      JSON.parse(readFileSync(join(FIXTURES, 'openapi.fixtures3.extract.json'), 'utf8')) as { resources: { payment_method: object } }
    ).resources.payment_method;
    expect(Object.keys(pmObject.body).sort()).toEqual(Object.keys(pmTemplate).sort());
    expect(pmObject.body).toMatchObject({
      id: pm!.id,
      object: 'payment_method',
      type: 'card',
      card: { last4: '4242', exp_month: 7, exp_year: 2031 },
      metadata: { payment_id: paymentId },
    });
    expect(JSON.stringify(pmObject.body)).not.toContain(PAN);
  });

  test('a retry with the same idempotency key replays the first answer and creates nothing', async () => {
    const paymentId = newPaymentId();
    const first = await stripe().authorize(authorizeRequest(paymentId));
    const again = await stripe().authorize(authorizeRequest(paymentId));
    expect(again).toEqual(first);
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 1, paymentIntentIds: [first.connectorTransactionId] });
    // PaymentMethod, PaymentIntent; then both replayed: one PaymentMethod, one intent.
    expect(standIn.requests.map((r) => [r.path, r.outcome])).toEqual([
      ['/v1/payment_methods', 'answered'],
      ['/v1/payment_intents', 'answered'],
      ['/v1/payment_methods', 'replayed'],
      ['/v1/payment_intents', 'replayed'],
    ]);
    expect(standIn.paymentMethods()).toHaveLength(1);
    // Other parameters under the same key: Stripe's idempotency_error, nothing created.
    await expect(stripe().authorize(authorizeRequest(paymentId, { amount: 1000 }))).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'idempotency_error',
    });
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('manual capture: authorize → requires_capture, partial capture updates the ledger', async () => {
    const paymentId = newPaymentId();
    const pi = await authorizeManual(paymentId);
    expect(standIn.ledger()[paymentId]).toMatchObject({
      status: 'requires_capture',
      amountCapturable: 150000,
      amountCaptured: 0,
      charges: 1,
    });
    const captured = await stripe().capture({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount: 100000 });
    expect(captured).toEqual({ status: 'Succeeded', connectorTransactionId: pi, amountCaptured: 100000 });
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'succeeded', amountCapturable: 0, amountCaptured: 100000, charges: 1 });
    expect(standIn.requests.at(-1)).toMatchObject({
      path: `/v1/payment_intents/${pi}/capture`,
      idempotencyKey: `${paymentId}:capture`,
      form: { amount_to_capture: '100000' },
    });
  });

  test('void cancels an authorization; cancelling a succeeded intent is payment_intent_unexpected_state', async () => {
    const paymentId = newPaymentId();
    const pi = await authorizeManual(paymentId);
    await expect(stripe().void({ paymentId, connectorTransactionId: pi, currency: 'NGN' })).resolves.toEqual({
      status: 'Cancelled',
      connectorTransactionId: pi,
      amountCaptured: 0,
    });
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
    const ref = (refundId: string, amount: number) =>
      stripe().refund({ paymentId, connectorTransactionId: pi, currency: 'NGN', amount, refundId });
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
    await expect(stripe().syncRefund({ refundId: 'ref_a', connectorRefundId: r1.connectorRefundId!, currency: 'NGN' })).resolves.toEqual(
      r1,
    );

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
    expect((err as ConnectorTechnicalError).notSent).toBe(false); // the intent may exist: unknown outcome
    expect(requestsTo('/v1/payment_intents')[0]).toMatchObject({ fault: 'hang_after_work', outcome: 'hung', status: 200 });
    const truth = standIn.ledger()[paymentId];
    expect(truth).toMatchObject({ status: 'succeeded', amountCaptured: 150000, charges: 1 });

    const synced = await stripe().sync(syncRequest(paymentId, null));
    expect(synced).toEqual({ status: 'Succeeded', connectorTransactionId: truth!.paymentIntentId, amountCaptured: 150000 });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/payment_intents/search', fault: null });

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
    expect(standIn.ledger()[paymentId]).toMatchObject({
      amountRefunded: 40000,
      refunds: [{ amount: 40000, metadata: { refund_id: 'ref_hang' } }],
    });
    // The adapter's lookup by our reference (GET /v1/refunds?payment_intent=…) finds it.
    const found = await stripe().findRefund({
      refundId: 'ref_hang',
      paymentId,
      connectorTransactionId: pi,
      amount: 40000,
      currency: 'NGN',
      createdAt: new Date().toISOString(),
    });
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
    await expect(stripe().sync(syncRequest(paymentId, null))).resolves.toEqual({
      status: 'Processing',
      connectorTransactionId: null,
      amountCaptured: 0,
    });
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
    await expect(stripe().sync(syncRequest(paymentId, pi))).resolves.toEqual({
      status: 'Succeeded',
      connectorTransactionId: pi,
      amountCaptured: 150000,
    });
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
    expect(standIn.requests.map((r) => [r.method, r.path, r.fault])).toEqual([
      ['POST', '/v1/payment_methods', null],
      ['POST', '/v1/payment_intents', 'error_500_before_work'],
      ['GET', '/v1/payment_intents/search', null],
      ['POST', '/v1/payment_methods', null],
      ['POST', '/v1/payment_intents', 'error_500_before_work'],
      ['POST', '/v1/payment_methods', null],
      ['POST', '/v1/payment_intents', null],
    ]);
  });

  test("'down' resets every connection: technical error, nothing in the ledger; back up, it works", async () => {
    const paymentId = newPaymentId();
    standIn.setDown(true);
    const err = await stripe()
      .authorize(authorizeRequest(paymentId))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as Error).message).toMatch(/could not be reached/);
    // The PaymentMethod request failed, so no PaymentIntent was ever requested: provably nothing charged.
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
    expect(standIn.requests.map((r) => r.path)).toEqual(['/v1/payment_methods']);
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
    expect(requestsTo('/v1/payment_intents').map((r) => [r.fault, r.outcome])).toEqual([
      ['reset_after_work', 'reset'],
      ['reset_before_work', 'reset'],
    ]);
  });

  test('a concurrent request with a key still in use gets 409 idempotency_key_in_use', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'slow', { delayMs: 150 });
    const settled = await Promise.allSettled([
      stripe().authorize(authorizeRequest(paymentId)),
      stripe().authorize(authorizeRequest(paymentId)),
    ]);
    // Whichever arrived first took the key and the delay; the other one was refused.
    expect(settled.filter((s) => s.status === 'fulfilled')).toEqual([
      { status: 'fulfilled', value: expect.objectContaining({ status: 'Succeeded' }) },
    ]);
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(rejected).toHaveLength(1);
    // The adapter reports it as a technical error (outcome unknown) carrying Stripe's code.
    const reason = rejected[0]!.reason as ConnectorTechnicalError & { code?: string };
    expect(reason).toBeInstanceOf(ConnectorTechnicalError);
    expect(reason.notSent).toBe(false);
    expect(`${reason.code ?? ''} ${reason.message}`).toContain('idempotency_key_in_use');
    expect(
      requestsTo('/v1/payment_intents')
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 409]);
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('a 409 on the PaymentMethod (another authorize of the payment in flight) stays an unknown outcome, never notSent', async () => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'slow', { delayMs: 150 });
    const settled = await Promise.allSettled([
      stripe().authorize(authorizeRequest(paymentId)),
      stripe().authorize(authorizeRequest(paymentId)),
    ]);
    const rejected = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => s.reason as ConnectorTechnicalError);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toBeInstanceOf(ConnectorTechnicalError);
    expect(rejected[0]!.notSent).toBe(false);
    expect(rejected[0]!.message).toContain('idempotency_key_in_use');
    expect(
      requestsTo('/v1/payment_methods')
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 409]);
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test.each([
    ['error_500_before_work', false],
    ['error_500_after_work', true],
    ['hang_after_work', true],
    ['reset_before_work', false],
  ] as const)('PaymentMethod %s → ConnectorTechnicalError with notSent; no PaymentIntent requested, nothing charged', async (fault, created) => {
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_methods' }, fault);
    const err = await stripe()
      .authorize(authorizeRequest(paymentId))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
    expect((err as Error).message).not.toContain(PAN);
    expect(requestsTo('/v1/payment_intents')).toEqual([]);
    expect(standIn.paymentMethods()).toHaveLength(created ? 1 : 0);
    expect(standIn.ledger()).toEqual({});
    // Search by our reference confirms it: no intent carries this payment id.
    await expect(stripe().sync(syncRequest(paymentId, null))).resolves.toEqual({
      status: 'Processing',
      connectorTransactionId: null,
      amountCaptured: 0,
    });
  });

  test.each([
    ['4242424242424241', '12', '2031', '123', 'incorrect_number'],
    [PAN, '13', '2031', '123', 'invalid_expiry_month'],
    [PAN, '12', '2001', '123', 'invalid_expiry_year'],
    [PAN, '12', '2031', '12', 'invalid_cvc'],
  ])('card %s %s/%s cvc %s → 402 %s on the PaymentMethod: a Failed result, no intent', async (number, month, year, cvc, code) => {
    const paymentId = newPaymentId();
    const result = await stripe().authorize(
      authorizeRequest(paymentId, { card: { card_number: number, card_exp_month: month, card_exp_year: year, card_cvc: cvc } }),
    );
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: null,
      amountCaptured: 0,
      errorCode: code,
      errorMessage: expect.stringMatching(/^Your card/),
    });
    expect(standIn.requests.map((r) => [r.path, r.status])).toEqual([['/v1/payment_methods', 402]]);
    expect(standIn.paymentMethods()).toEqual([]);
    expect(standIn.ledger()).toEqual({});
    expect(JSON.stringify(standIn.requests)).not.toContain(number);
  });

  test('a declined test card is a Failed result and no charge', async () => {
    const paymentId = newPaymentId();
    const result = await stripe().authorize(
      authorizeRequest(paymentId, { card: { card_number: DECLINED_PAN, card_exp_month: '12', card_exp_year: '2030', card_cvc: CVC } }),
    );
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: expect.stringMatching(/^pi_/),
      amountCaptured: 0,
      errorCode: 'generic_decline',
      errorMessage: 'Your card was declined.',
    });
    expect(standIn.ledger()[paymentId]).toMatchObject({ status: 'requires_payment_method', charges: 0, declines: 1, amountCaptured: 0 });
    expect(standIn.requests.map((r) => [r.path, r.status])).toEqual([
      ['/v1/payment_methods', 200],
      ['/v1/payment_intents', 402],
    ]);
    expect(JSON.stringify(standIn.requests)).not.toContain(DECLINED_PAN);
  });

  test('authentication, unknown objects and unknown paths answer Stripe error shapes', async () => {
    expect(await rawGet('/v1/payment_intents/pi_nope', null)).toMatchObject({
      status: 401,
      body: { error: { type: 'invalid_request_error' } },
    });
    const wrongKey = await rawGet('/v1/payment_intents/pi_nope', 'sk_test_wrongwrongwrongwrong1234');
    expect(wrongKey).toMatchObject({ status: 401, body: { error: { message: expect.stringContaining('Invalid API Key provided') } } });
    expect(JSON.stringify(wrongKey.body)).not.toContain('sk_test_wrongwrongwrongwrong1234');
    await expect(stripe().sync(syncRequest('pay_x', 'pi_nope'))).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'resource_missing',
    });
    expect(await rawGet('/v1/charges')).toMatchObject({
      status: 404,
      body: { error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL') } },
    });
    await expect(stripe({ secretKey: 'sk_test_notTheStandInKey0000' }).authorize(authorizeRequest(newPaymentId()))).rejects.toBeInstanceOf(
      ConnectorRequestError,
    );
    expect(standIn.ledger()).toEqual({});
  });

  test('Stripe-Version is required and recorded; a malformed one is refused; the adapter always sends it', async () => {
    const none = await rawGet('/v1/payment_intents/pi_nope', standIn.secretKey, null);
    expect(none).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', message: expect.stringContaining('Stripe-Version') } },
    });
    const bad = await rawGet('/v1/payment_intents/pi_nope', standIn.secretKey, 'latest');
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'Invalid Stripe API version: latest' } } });
    expect(standIn.requests.map((r) => r.stripeVersion)).toEqual([null, 'latest']);
    // The adapter always pins it (the override included).
    const paymentId = newPaymentId();
    await stripe({ apiVersion: '2026-09-30.endive' }).authorize(authorizeRequest(paymentId));
    expect(standIn.requests.slice(2).map((r) => r.stripeVersion)).toEqual(['2026-09-30.endive', '2026-09-30.endive']);
  });

  test('payment_method_types: refused from 2026-09-30 (payment_method_types_no_longer_supported), accepted before', async () => {
    const pm = await rawPost('/v1/payment_methods', {
      type: 'card',
      'card[number]': PAN,
      'card[exp_month]': '12',
      'card[exp_year]': '2031',
      'card[cvc]': CVC,
    });
    expect(pm.status).toBe(200);
    const intent = (over: Record<string, string>) => ({
      amount: '1000',
      currency: 'usd',
      payment_method: pm.body.id as string,
      'metadata[payment_id]': 'pay_types',
      ...over,
    });
    for (const version of ['2026-09-30.endive', STRIPE_API_VERSION, '2027-01-01']) {
      const res = await rawPost('/v1/payment_intents', intent({ 'payment_method_types[0]': 'card' }), version);
      expect(res).toMatchObject({
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'payment_method_types_no_longer_supported', param: 'payment_method_types' } },
      });
    }
    const old = await rawPost('/v1/payment_intents', intent({ 'payment_method_types[0]': 'card' }), '2026-08-26.dahlia');
    expect(old).toMatchObject({
      status: 200,
      body: { object: 'payment_intent', payment_method_types: ['card'], status: 'requires_confirmation' },
    });
    // allowed_payment_method_types: unknown before 2026-07-29; exclusive with the other selectors.
    expect(await rawPost('/v1/payment_intents', intent({ 'allowed_payment_method_types[0]': 'card' }), '2024-06-20')).toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_unknown' } },
    });
    expect(
      await rawPost(
        '/v1/payment_intents',
        intent({ 'allowed_payment_method_types[0]': 'card', 'automatic_payment_methods[enabled]': 'true' }),
      ),
    ).toMatchObject({
      status: 400,
      body: { error: { code: 'parameters_exclusive' } },
    });
    expect(standIn.ledger()).toEqual({ pay_types: expect.objectContaining({ charges: 0, paymentIntentIds: [old.body.id] }) });
  });

  test('a raw card inline on the PaymentIntent (payment_method_data[card]) is an unknown parameter; nothing is created', async () => {
    const res = await rawPost('/v1/payment_intents', {
      amount: '1000',
      currency: 'usd',
      confirm: 'true',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': PAN,
      'payment_method_data[card][exp_month]': '12',
      'payment_method_data[card][exp_year]': '2031',
      'payment_method_data[card][cvc]': CVC,
    });
    expect(res).toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_unknown', param: expect.stringMatching(/^payment_method_data\[card\]/) } },
    });
    expect(JSON.stringify(res.body)).not.toContain(PAN);
    expect(JSON.stringify(standIn.requests)).not.toContain(PAN);
    expect(standIn.ledger()).toEqual({});
  });

  test('stripeEnv gives the registry fake keys and the stand-in URL; the registry builds a working connector from it', async () => {
    const env = stripeEnv(standIn, { timeoutMs: 250 });
    expect(env).toEqual({
      STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
      STRIPE_BASE_URL: standIn.url,
      STRIPE_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/),
      CONNECTOR_TIMEOUT_MS: '250',
    });
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
