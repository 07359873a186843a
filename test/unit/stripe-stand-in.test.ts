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
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/api-version';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { STAND_IN_SECRET_KEY, type StripeStandIn, startStripeStandIn, stripeEnv } from '../helpers/stripe-stand-in';

const FIXTURES = join(__dirname, '..', 'connectors', 'fixtures', 'stripe');
const fixtureKeys = (name: string): string[] =>
  Object.keys(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as object).sort();

const PAN = '4242424242424242';
const DECLINED_PAN = '4000000000000002';
const CVC = '737';
// 1 s: a loaded CI machine once took longer than 300 ms for a first answer (a stand-in of many routes).
const TIMEOUT_MS = 1000;

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

// Letters only before the sequence number: a clock-derived id once held the test CVC's digits ("…1795737…") and
// made the "no CVC in any request" assertion fail on the id, not on a leak.
const RUN_TAG = Date.now()
  .toString(36)
  .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)] ?? 'g');
const newPaymentId = () => {
  seq += 1;
  return `pay_standin_${RUN_TAG}_${seq}`;
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
    // The first to arrive is held 3 s, ample for the other to arrive meanwhile on a loaded machine (150 ms was not).
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'slow', { delayMs: 3_000 });
    const settled = await Promise.allSettled([
      stripe({ timeoutMs: 20_000 }).authorize(authorizeRequest(paymentId)),
      stripe({ timeoutMs: 20_000 }).authorize(authorizeRequest(paymentId)),
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
    // The first to arrive is held 3 s, ample for the other to arrive meanwhile on a loaded machine (150 ms was not).
    standIn.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'slow', { delayMs: 3_000 });
    const settled = await Promise.allSettled([
      stripe({ timeoutMs: 20_000 }).authorize(authorizeRequest(paymentId)),
      stripe({ timeoutMs: 20_000 }).authorize(authorizeRequest(paymentId)),
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
      const { configuredConnector } = await import('../../shared/processor-call/connector-registry');
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

/* ------------------------------------------------------------------ accounts and balance */

/** The Balance of Stripe's OpenAPI fixtures (stripe/openapi v2436 `resources.balance`), as kept in the fixtures. */
const BALANCE_FIXTURE = (
  JSON.parse(readFileSync(join(FIXTURES, 'openapi-fixtures3', 'balance.extract.json'), 'utf8')) as {
    source: Record<string, string>;
    resources: { balance: Record<string, unknown> };
  }
).resources.balance;

describe('Stripe stand-in: one account per secret key (merchant connector accounts)', () => {
  const MERCHANT_B_KEY = 'sk_test_51MerchantBFakeKeyNotARealStripeKey0000000000000000000000000000bbbb';

  test('payments made with two keys land in their own account ledgers and nowhere else', async () => {
    const b = standIn.addAccount();
    expect(b).toEqual({
      accountId: expect.stringMatching(/^acct_[A-Za-z0-9]{16}$/),
      secretKey: expect.stringMatching(/^sk_test_[A-Za-z0-9]{99}$/),
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/),
    });
    expect(b.secretKey).not.toBe(standIn.secretKey);
    const payA = newPaymentId();
    const payB = newPaymentId();
    const a = await stripe().authorize(authorizeRequest(payA));
    const onB = await stripe({ secretKey: b.secretKey, webhookSecret: b.webhookSecret }).authorize(
      authorizeRequest(payB, { amount: 4200, currency: 'USD' }),
    );
    expect([a.status, onB.status]).toEqual(['Succeeded', 'Succeeded']);

    expect(Object.keys(standIn.ledger())).toEqual([payA]);
    expect(standIn.ledgerOf(standIn.secretKey)).toEqual(standIn.ledger());
    expect(standIn.ledgerOf(b.secretKey)).toEqual({
      [payB]: expect.objectContaining({ paymentIntentId: onB.connectorTransactionId, amountCaptured: 4200, currency: 'usd', charges: 1 }),
    });
    expect(standIn.paymentMethods().map((pm) => pm.paymentId)).toEqual([payA]);
    expect(standIn.paymentMethodsOf(b.secretKey).map((pm) => pm.paymentId)).toEqual([payB]);

    // Each request records the account it acted on and the masked key, never the key.
    expect(standIn.requests.map((r) => r.accountId)).toEqual([standIn.accountId, standIn.accountId, b.accountId, b.accountId]);
    expect(standIn.requests.map((r) => r.keyHint)).toEqual([
      `sk_test_${'*'.repeat(standIn.secretKey.length - 12)}${standIn.secretKey.slice(-4)}`,
      expect.any(String),
      `sk_test_${'*'.repeat(b.secretKey.length - 12)}${b.secretKey.slice(-4)}`,
      expect.any(String),
    ]);
    expect(JSON.stringify(standIn.requests)).not.toContain(b.secretKey);
    expect(JSON.stringify(standIn.requests)).not.toContain(standIn.secretKey);
  });

  test("another account's objects are 404 resource_missing, as Stripe answers; the adapter sees resource_missing", async () => {
    const b = standIn.addAccount();
    const payA = newPaymentId();
    const pi = (await stripe().authorize(authorizeRequest(payA))).connectorTransactionId!;
    const refund = await stripe().refund({ paymentId: payA, connectorTransactionId: pi, currency: 'NGN', amount: 1000, refundId: 'ref_a' });
    const pm = standIn.paymentMethods()[0]!.id;

    expect(await rawGet(`/v1/payment_intents/${pi}`, b.secretKey)).toMatchObject({
      status: 404,
      body: {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${pi}'`, param: 'intent' },
      },
    });
    expect(await rawGet(`/v1/refunds/${refund.connectorRefundId}`, b.secretKey)).toMatchObject({
      status: 404,
      body: { error: { code: 'resource_missing', message: `No such refund: '${refund.connectorRefundId}'` } },
    });
    expect(await rawGet(`/v1/payment_methods/${pm}`, b.secretKey)).toMatchObject({
      status: 404,
      body: { error: { code: 'resource_missing' } },
    });
    expect((await rawGet(`/v1/refunds?payment_intent=${pi}`, b.secretKey)).body).toMatchObject({ data: [], has_more: false });
    const search = await rawGet(`/v1/payment_intents/search?query=${encodeURIComponent(`metadata['payment_id']:'${payA}'`)}`, b.secretKey);
    expect(search.body).toMatchObject({ object: 'search_result', data: [] });

    const asB = stripe({ secretKey: b.secretKey, webhookSecret: b.webhookSecret });
    await expect(asB.sync(syncRequest(payA, pi))).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'resource_missing' });
    await expect(
      asB.refund({ paymentId: payA, connectorTransactionId: pi, currency: 'NGN', amount: 1000, refundId: 'ref_b' }),
    ).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await expect(asB.capture({ paymentId: payA, connectorTransactionId: pi, currency: 'NGN', amount: 1000 })).rejects.toMatchObject({
      code: 'resource_missing',
    });
    // Nothing happened on either side.
    expect(standIn.ledgerOf(b.secretKey)).toEqual({});
    expect(standIn.ledger()[payA]).toMatchObject({
      amountCaptured: 150000,
      amountRefunded: 1000,
      refunds: [expect.objectContaining({ id: refund.connectorRefundId })],
    });
  });

  test('idempotency keys are scoped to the account: the same key on two accounts does the work twice, once on each', async () => {
    const b = standIn.addAccount();
    const paymentId = newPaymentId();
    const onA = await stripe().authorize(authorizeRequest(paymentId));
    const onB = await stripe({ secretKey: b.secretKey }).authorize(authorizeRequest(paymentId));
    expect(onB.connectorTransactionId).not.toBe(onA.connectorTransactionId);
    expect(standIn.requests.map((r) => r.outcome)).toEqual(['answered', 'answered', 'answered', 'answered']);
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 1, paymentIntentIds: [onA.connectorTransactionId] });
    expect(standIn.ledgerOf(b.secretKey)[paymentId]).toMatchObject({ charges: 1, paymentIntentIds: [onB.connectorTransactionId] });
  });

  test('options.accounts: extra keys are accounts from the start; a wrong key is 401; a removed account is 401; reset keeps accounts', async () => {
    const server = await startStripeStandIn({ accounts: [MERCHANT_B_KEY] });
    try {
      const accounts = server.accounts();
      expect(accounts).toEqual([
        { accountId: server.accountId, secretKey: STAND_IN_SECRET_KEY, webhookSecret: server.webhookSecret },
        { accountId: expect.stringMatching(/^acct_/), secretKey: MERCHANT_B_KEY, webhookSecret: expect.stringMatching(/^whsec_/) },
      ]);
      const asB = new StripeConnector({
        baseUrl: server.url,
        secretKey: MERCHANT_B_KEY,
        webhookSecret: accounts[1]!.webhookSecret,
        timeoutMs: TIMEOUT_MS,
      });
      const paymentId = newPaymentId();
      await expect(asB.authorize(authorizeRequest(paymentId))).resolves.toMatchObject({ status: 'Succeeded' });
      expect(Object.keys(server.ledgerOf(MERCHANT_B_KEY))).toEqual([paymentId]);
      expect(server.ledger()).toEqual({});

      const get = async (key: string) => {
        const res = await fetch(`${server.url}/v1/balance`, {
          headers: { authorization: `Bearer ${key}`, 'stripe-version': STRIPE_API_VERSION },
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const wrong = 'sk_test_51NoSuchAccountFakeKey00000000000000000000000000000000000000000000zzzz';
      const refused = await get(wrong);
      expect(refused).toEqual({
        status: 401,
        body: {
          error: { message: `Invalid API Key provided: sk_test_${'*'.repeat(wrong.length - 12)}zzzz`, type: 'invalid_request_error' },
        },
      });
      expect(JSON.stringify(refused.body)).not.toContain(wrong);
      expect(server.requests.at(-1)).toMatchObject({ accountId: null, keyHint: expect.stringMatching(/^sk_test_\*+zzzz$/), status: 401 });
      expect(() => server.ledgerOf(wrong)).toThrow(/no account has the key sk_test_\*+zzzz/);
      expect(() => server.ledgerOf(wrong)).not.toThrow(wrong);

      server.reset();
      expect(server.accounts()).toHaveLength(2);
      expect(server.ledgerOf(MERCHANT_B_KEY)).toEqual({});

      server.removeAccount(MERCHANT_B_KEY);
      expect((await get(MERCHANT_B_KEY)).status).toBe(401);
      await expect(asB.authorize(authorizeRequest(newPaymentId()))).rejects.toBeInstanceOf(ConnectorRequestError);
      expect(() => server.removeAccount(STAND_IN_SECRET_KEY)).toThrow(/default account/);
      expect(() => server.removeAccount(MERCHANT_B_KEY)).toThrow(/no account/);
      expect(server.accounts().map((a) => a.secretKey)).toEqual([STAND_IN_SECRET_KEY]);
    } finally {
      await server.close();
    }
    await expect(startStripeStandIn({ accounts: [STAND_IN_SECRET_KEY] })).rejects.toThrow(/two accounts/);
  });

  test('a fault limited to one account key applies to that account only', async () => {
    const b = standIn.addAccount();
    standIn.failNext({ path: '/v1/payment_intents', secretKey: b.secretKey }, 'error_500_before_work');
    expect(standIn.pendingFaults()).toEqual([
      { match: { path: '/v1/payment_intents', secretKey: b.secretKey }, fault: 'error_500_before_work', remaining: 1 },
    ]);
    const payA = newPaymentId();
    await expect(stripe().authorize(authorizeRequest(payA))).resolves.toMatchObject({ status: 'Succeeded' });
    expect(standIn.pendingFaults()).toHaveLength(1);
    const payB = newPaymentId();
    await expect(stripe({ secretKey: b.secretKey }).authorize(authorizeRequest(payB))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.pendingFaults()).toEqual([]);
    expect(standIn.requests.filter((r) => r.fault).map((r) => [r.accountId, r.fault])).toEqual([[b.accountId, 'error_500_before_work']]);
    expect(standIn.ledgerOf(b.secretKey)).toEqual({});
  });

  test('stripeEnv with options.account points the registry at that account', () => {
    const b = standIn.addAccount();
    expect(stripeEnv(standIn, { account: b })).toEqual({
      STRIPE_SECRET_KEY: b.secretKey,
      STRIPE_BASE_URL: standIn.url,
      STRIPE_WEBHOOK_SECRET: b.webhookSecret,
    });
  });
});

describe('Stripe stand-in: GET /v1/balance', () => {
  test("answers the account's Balance in the shape of Stripe's OpenAPI fixture; money taken shows per account and currency", async () => {
    const b = standIn.addAccount();
    const fresh = await rawGet('/v1/balance');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual(BALANCE_FIXTURE);
    // stripe-node 23.1.0 `Balance`: object, available, livemode and pending are required.
    expect(fresh.body).toMatchObject({ object: 'balance', livemode: false });
    expect([Array.isArray(fresh.body.available), Array.isArray(fresh.body.pending)]).toEqual([true, true]);

    const payA = newPaymentId();
    const pi = (await stripe().authorize(authorizeRequest(payA, { amount: 150000, currency: 'NGN' }))).connectorTransactionId!;
    await stripe().refund({ paymentId: payA, connectorTransactionId: pi, currency: 'NGN', amount: 50000, refundId: 'ref_bal' });
    await stripe().authorize(authorizeRequest(newPaymentId(), { amount: 2500, currency: 'USD' }));
    await authorizeManual(newPaymentId(), 7000); // held, not captured: not in the balance

    const balanceA = await rawGet('/v1/balance');
    expect(Object.keys(balanceA.body).sort()).toEqual(Object.keys(BALANCE_FIXTURE).sort());
    expect(balanceA.body).toEqual({
      object: 'balance',
      livemode: false,
      available: [
        { amount: 0, currency: 'ngn', source_types: { card: 0 } },
        { amount: 0, currency: 'usd', source_types: { card: 0 } },
      ],
      connect_reserved: [
        { amount: 0, currency: 'ngn' },
        { amount: 0, currency: 'usd' },
      ],
      pending: [
        { amount: 100000, currency: 'ngn', source_types: { card: 100000 } },
        { amount: 2500, currency: 'usd', source_types: { card: 2500 } },
      ],
    });
    // Account B took nothing: its balance is untouched.
    expect((await rawGet('/v1/balance', b.secretKey)).body).toEqual(BALANCE_FIXTURE);
    expect(standIn.requests.filter((r) => r.path === '/v1/balance').map((r) => r.accountId)).toEqual([
      standIn.accountId,
      standIn.accountId,
      b.accountId,
    ]);
  });

  test('a wrong or missing key is 401 with Stripe error bodies; the Stripe-Version rule applies too', async () => {
    expect(await rawGet('/v1/balance', 'sk_test_notAnAccountKey00000000wxyz')).toMatchObject({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: expect.stringMatching(/^Invalid API Key provided: sk_test_\*+wxyz$/) } },
    });
    expect(await rawGet('/v1/balance', null)).toMatchObject({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: expect.stringContaining('You did not provide an API key') } },
    });
    expect(await rawGet('/v1/balance', standIn.secretKey, null)).toMatchObject({ status: 400 });
    expect(await rawGet('/v1/balance/extra')).toMatchObject({
      status: 404,
      body: { error: { message: expect.stringContaining('Unrecognized request URL') } },
    });
  });

  test('faults apply to it as to every route: 500, hang, reset and down make the processor unreachable', async () => {
    standIn.failNext({ method: 'GET', path: '/v1/balance' }, 'error_500_before_work');
    expect(await rawGet('/v1/balance')).toEqual({
      status: 500,
      headers: expect.anything(),
      body: { error: { message: 'An unknown error occurred', type: 'api_error' } },
    });

    standIn.failNext({ method: 'GET', path: '/v1/balance' }, 'hang_before_work');
    const hung = await fetch(`${standIn.url}/v1/balance`, {
      headers: { authorization: `Bearer ${standIn.secretKey}`, 'stripe-version': STRIPE_API_VERSION },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch((e: unknown) => e);
    expect(hung).toMatchObject({ name: 'TimeoutError' });

    standIn.failNext({ method: 'GET', path: '/v1/balance' }, 'reset_before_work');
    await expect(rawGet('/v1/balance')).rejects.toThrow();

    const b = standIn.addAccount();
    standIn.failNext({ path: '/v1/balance', secretKey: b.secretKey }, 'error_500_before_work', { times: 2 });
    expect((await rawGet('/v1/balance')).status).toBe(200);
    expect((await rawGet('/v1/balance', b.secretKey)).status).toBe(500);

    standIn.setDown(true);
    await expect(rawGet('/v1/balance')).rejects.toThrow();
    standIn.setDown(false);
    expect((await rawGet('/v1/balance')).status).toBe(200);

    expect(standIn.requests.filter((r) => r.path === '/v1/balance').map((r) => [r.fault, r.outcome, r.status])).toEqual([
      ['error_500_before_work', 'answered', 500],
      ['hang_before_work', 'hung', null],
      ['reset_before_work', 'reset', null],
      [null, 'answered', 200],
      ['error_500_before_work', 'answered', 500],
      ['down', 'reset', null],
      [null, 'answered', 200],
    ]);
  });
});
