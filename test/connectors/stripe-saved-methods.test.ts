/**
 * Saved payment methods at Stripe: the adapter (shared/connectors/stripe/) against the loopback stand-in
 * (test/helpers/stripe-stand-in.ts), two accounts with their own ledgers, and against Stripe's documented shapes
 * (fixtures/stripe/saved-methods/ and fixtures/stripe/openapi-fixtures3/customer.extract.json; sources in
 * fixtures/SOURCES.md, "Stripe saved methods").
 *
 * What is proven:
 * - a first payment with `setupFutureUsage` makes the Stripe Customer once (a retried authorize replays it), charges
 *   once, and answers `savedMethod`: the PaymentMethod id, the Customer, the card's fingerprint and summary;
 * - an off-session charge of the saved method reaches the issuing account's ledger under our payment id, and nothing
 *   at the other account; the other account refuses the token (`resource_missing`);
 * - Stripe's "authentication required" test cards (https://docs.stripe.com/testing#regulatory-cards): an off-session
 *   `authentication_required` becomes `RequiresAction` with a `redirect_to_url` the payer can follow, never a silent
 *   failure; a card set up for off-session use (`4000002500003155`) is then charged without the payer;
 * - a charge whose answer was lost (the stand-in charges, then hangs) is found by `sync` through the search on our
 *   reference, saved card included;
 * - detach makes the method unusable (a later charge is refused), and a retried detach replays;
 * - a saved card the issuer starts to decline → `Failed` with Stripe's decline code.
 * The request parameters of these flows are checked against the `stripe` package's types in stripe-contract.test.ts.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type SavedMethodToken,
  type SyncRequest,
} from '../../shared/connectors/connector';
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/api-version';
import { isAuthenticationRequired } from '../../shared/connectors/stripe/decline-codes';
import { declineFromErrorBody, paymentResultFromIntent, stripeErrorOf } from '../../shared/connectors/stripe/responses';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import type { StripeErrorBody, StripePaymentIntent } from '../../shared/connectors/stripe/wire-types';
import {
  STAND_IN_AUTHENTICATION_CARDS,
  type StandInRequest,
  type StripeStandIn,
  type StripeStandInAccount,
  startStripeStandIn,
  THREE_D_SECURE_PATH,
} from '../helpers/stripe-stand-in';

const FIXTURES = join(__dirname, 'fixtures', 'stripe');
const SAVED_FIXTURES = join(FIXTURES, 'saved-methods');
const fixture = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as Record<string, unknown>;

/** Stripe's test cards (https://docs.stripe.com/testing): a plain Visa, and the two 3DS cards the stand-in models. */
const VISA = '4242424242424242';
const ALWAYS_AUTHENTICATE = '4000002760003184';
const AUTHENTICATE_UNLESS_SET_UP = '4000002500003155';

let standIn: StripeStandIn;
/** A second account: a merchant's own Stripe account, its own objects and ledger. */
let other: StripeStandInAccount;
let seq = 0;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  other = standIn.addAccount();
});
beforeEach(() => {
  standIn.reset();
});
afterAll(async () => {
  await standIn.close();
});

const adapter = (over: { secretKey?: string; timeoutMs?: number } = {}) =>
  new StripeConnector({
    baseUrl: standIn.url,
    secretKey: over.secretKey ?? standIn.secretKey,
    webhookSecret: standIn.webhookSecret,
    timeoutMs: over.timeoutMs ?? 2000,
  });
const otherAdapter = () => adapter({ secretKey: other.secretKey });

const newPaymentId = () => {
  seq += 1;
  return `pay_saved_${Date.now()}_${seq}`;
};

const returnUrlOf = (paymentId: string) => `https://api.switchyard.test/pay/${paymentId}/return`;

const cardRequest = (paymentId: string, pan: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  paymentId,
  amount: 150000,
  currency: 'USD',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  card: { card_number: pan, card_exp_month: '07', card_exp_year: '31', card_cvc: '314' },
  email: 'payer@example.com',
  publicBaseUrl: 'https://api.switchyard.test',
  returnUrl: returnUrlOf(paymentId),
  ...over,
});

/** A first payment that saves the card for off-session use on our customer `customerId`. */
const savingRequest = (paymentId: string, pan = VISA, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest =>
  cardRequest(paymentId, pan, {
    setupFutureUsage: 'off_session',
    customer: { customerId: 'cus_ours_0001', email: 'payer@example.com', processorCustomerId: null },
    ...over,
  });

/** A charge of a saved method (no card), off-session unless told. */
const savedCharge = (
  paymentId: string,
  saved: Pick<SavedMethodToken, 'token' | 'processorCustomerId'>,
  over: Partial<AuthorizeRequest> = {},
) => {
  const request: AuthorizeRequest = {
    paymentId,
    amount: 4900,
    currency: 'USD',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    publicBaseUrl: 'https://api.switchyard.test',
    returnUrl: returnUrlOf(paymentId),
    savedMethod: { token: saved.token, processorCustomerId: saved.processorCustomerId ?? null },
    offSession: true,
    ...over,
  };
  return request;
};

const syncRequest = (paymentId: string, connectorTransactionId: string | null): SyncRequest => ({
  paymentId,
  connectorTransactionId,
  amount: 150000,
  currency: 'USD',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  createdAt: new Date().toISOString(),
});

/** Saves a card with a first payment (no 3DS card) and returns the token. */
async function saveCard(stripe: StripeConnector, pan = VISA): Promise<SavedMethodToken> {
  const result = await stripe.authorize(savingRequest(newPaymentId(), pan));
  expect(result.status).toBe('Succeeded');
  return result.savedMethod!;
}

/** The requests received since `from` (an index of `standIn.requests`). */
const requestsSince = (from: number): StandInRequest[] => standIn.requests.slice(from);

/** The payer follows a `redirect_to_url` of the stand-in's 3DS page (the browser is not made to follow the 302). */
async function follow(url: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.text();
  return { status: res.status, location: res.headers.get('location') };
}

/** A raw GET at the stand-in with an account's key (what a webhook re-read or an operator sees). */
async function rawGet(path: string, key = standIn.secretKey): Promise<Record<string, unknown>> {
  const res = await fetch(`${standIn.url}${path}`, { headers: { authorization: `Bearer ${key}`, 'stripe-version': STRIPE_API_VERSION } });
  return (await res.json()) as Record<string, unknown>;
}

describe('a first payment with setupFutureUsage saves the card', () => {
  test('the Customer is made once, the card charged once, and savedMethod carries the token, Customer, fingerprint and card', async () => {
    const stripe = adapter();
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savingRequest(paymentId));
    const [customer] = standIn.customersOf();
    const [pm] = standIn.paymentMethods();
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: expect.stringMatching(/^pi_/),
      amountCaptured: 150000,
      savedMethod: {
        token: pm!.id,
        processorCustomerId: customer!.id,
        email: 'payer@example.com',
        fingerprint: expect.stringMatching(/^[0-9A-Za-z]{16}$/),
        card: { brand: 'visa', last4: '4242', expMonth: 7, expYear: 2031, bin: null, issuerCountry: 'US' },
        expiresAt: null,
      },
    });
    expect(standIn.customersOf()).toEqual([
      {
        id: expect.stringMatching(/^cus_/),
        email: 'payer@example.com',
        metadata: { customer_id: 'cus_ours_0001' },
        paymentMethodIds: [pm!.id],
        detachedPaymentMethodIds: [],
        idempotencyKey: `${paymentId}:customer`,
      },
    ]);
    expect(standIn.requests.map((r) => `${r.method} ${r.path} ${r.idempotencyKey}`)).toEqual([
      `POST /v1/customers ${paymentId}:customer`,
      `POST /v1/payment_methods ${paymentId}:payment_method`,
      `POST /v1/payment_intents ${paymentId}:authorize`,
    ]);
    expect(standIn.requests[0]!.form).toEqual({ email: 'payer@example.com', 'metadata[customer_id]': 'cus_ours_0001' });
    expect(standIn.requests[2]!.form).toMatchObject({
      setup_future_usage: 'off_session',
      customer: customer!.id,
      'expand[0]': 'payment_method',
      payment_method: pm!.id,
      confirm: 'true',
      'metadata[payment_id]': paymentId,
    });
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 1, amountCaptured: 150000, status: 'succeeded' });
    // At Stripe the PaymentMethod is now attached to the Customer, with the fingerprint answered.
    expect(await rawGet(`/v1/payment_methods/${pm!.id}`)).toMatchObject({
      customer: customer!.id,
      card: { fingerprint: result.savedMethod!.fingerprint, last4: '4242' },
    });

    // A retried authorize (its answer lost) replays all three calls: still one Customer, one charge, the same token.
    const again = await stripe.authorize(savingRequest(paymentId));
    expect(again).toEqual(result);
    expect(requestsSince(4).map((r) => r.outcome)).toEqual(['replayed', 'replayed', 'replayed']);
    expect(standIn.customersOf()).toHaveLength(1);
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('a Stripe Customer the core already holds is used as is (no POST /v1/customers); the same card gets the same fingerprint', async () => {
    const stripe = adapter();
    const first = await saveCard(stripe);
    const paymentId = newPaymentId();
    const second = await stripe.authorize(
      savingRequest(paymentId, VISA, {
        customer: { customerId: 'cus_ours_0001', email: 'payer@example.com', processorCustomerId: first.processorCustomerId! },
      }),
    );
    expect(requestsSince(3).map((r) => r.path)).toEqual(['/v1/payment_methods', '/v1/payment_intents']);
    expect(second.savedMethod).toMatchObject({ processorCustomerId: first.processorCustomerId, fingerprint: first.fingerprint });
    expect(second.savedMethod!.token).not.toBe(first.token);
    expect(standIn.customersOf()).toEqual([expect.objectContaining({ paymentMethodIds: [first.token, second.savedMethod!.token] })]);
    const other = await stripe.authorize(savingRequest(newPaymentId(), '5555555555554444'));
    expect(other.savedMethod!.fingerprint).not.toBe(first.fingerprint);
  });

  test('manual capture: RequiresCapture already carries the saved method (the card is attached once authorized)', async () => {
    const result = await adapter().authorize(
      savingRequest(newPaymentId(), VISA, { captureMethod: 'manual', setupFutureUsage: 'on_session' }),
    );
    expect(result).toMatchObject({ status: 'RequiresCapture', savedMethod: { card: { last4: '4242' } } });
    expect(standIn.paymentIntentsOf()[0]).toMatchObject({ status: 'requires_capture', setupFutureUsage: 'on_session' });
  });

  test('a payment that does not save carries no savedMethod and sends none of it', async () => {
    const paymentId = newPaymentId();
    const result = await adapter().authorize(cardRequest(paymentId, VISA));
    expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: expect.stringMatching(/^pi_/), amountCaptured: 150000 });
    expect(Object.keys(standIn.requests.at(-1)!.form).filter((k) => /setup_future_usage|customer|expand/.test(k))).toEqual([]);
    expect(standIn.customersOf()).toEqual([]);
    // A sync of it (payment_method expanded) still carries none: the intent saved nothing.
    expect((await adapter().sync(syncRequest(paymentId, result.connectorTransactionId))).savedMethod).toBeUndefined();
  });

  test('setupFutureUsage without the payment’s customer is refused before any call', async () => {
    const err = await adapter()
      .authorize(savingRequest(newPaymentId(), VISA, { customer: null }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ code: 'customer_required' });
    expect(standIn.requests).toEqual([]);
  });

  test('the Customer call failing technically means no intent was requested (notSent); a 409 on it does not', async () => {
    standIn.failNext({ method: 'POST', path: '/v1/customers' }, 'error_500_before_work');
    const err = await adapter()
      .authorize(savingRequest(newPaymentId()))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
    // The first call's Customer request is held 3 s at the stand-in; the second is sent once the stand-in has taken
    // that fault (the first is there, its key running), so it meets the running key however slow the machine is.
    standIn.failNext({ method: 'POST', path: '/v1/customers' }, 'slow', { delayMs: 3_000 });
    const paymentId = newPaymentId();
    const first = adapter({ timeoutMs: 20_000 }).authorize(savingRequest(paymentId));
    const heldBy = Date.now() + 20_000;
    while (standIn.pendingFaults().some((f) => f.fault === 'slow')) {
      if (Date.now() > heldBy) throw new Error('the first Customer request did not reach the stand-in within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const conflict = await adapter()
      .authorize(savingRequest(paymentId))
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConnectorTechnicalError);
    expect((conflict as ConnectorTechnicalError).notSent).toBe(false);
    await expect(first).resolves.toMatchObject({ status: 'Succeeded' });
    expect(standIn.paymentIntentsOf().filter((i) => i.paymentId === paymentId)).toHaveLength(1);
  });

  test('the first payment with 3DS (4000002500003155) saves the card once the payer authenticates; the sync answers savedMethod', async () => {
    const stripe = adapter();
    const paymentId = newPaymentId();
    const asked = await stripe.authorize(savingRequest(paymentId, AUTHENTICATE_UNLESS_SET_UP));
    expect(asked).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: expect.stringMatching(/^pi_/),
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: expect.stringContaining(`${standIn.url}${THREE_D_SECURE_PATH}?`) },
    });
    expect(standIn.customersOf()[0]!.paymentMethodIds).toEqual([]); // not attached before the payer authenticates
    const back = await follow((asked.nextAction as { redirect_to_url: string }).redirect_to_url);
    expect(back.status).toBe(302);
    expect(back.location).toMatch(
      new RegExp(`^${returnUrlOf(paymentId).replace(/[.?/]/g, '\\$&')}\\?payment_intent=pi_.*redirect_status=succeeded$`),
    );
    const synced = await stripe.sync(syncRequest(paymentId, asked.connectorTransactionId));
    expect(synced).toMatchObject({ status: 'Succeeded', amountCaptured: 150000, savedMethod: { card: { last4: '3155' } } });
    expect(standIn.customersOf()[0]!.paymentMethodIds).toEqual([synced.savedMethod!.token]);
    expect(STAND_IN_AUTHENTICATION_CARDS[AUTHENTICATE_UNLESS_SET_UP]).toBe('unless_set_up');
  });
});

describe('an off-session charge of the saved method', () => {
  test('reaches the issuing account’s ledger under our payment id, and nothing at the other account', async () => {
    const stripe = adapter();
    const saved = await saveCard(stripe);
    const from = standIn.requests.length;
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savedCharge(paymentId, saved));
    expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: expect.stringMatching(/^pi_/), amountCaptured: 4900 });
    const [charge] = requestsSince(from);
    expect(requestsSince(from)).toHaveLength(1);
    expect(charge).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: `${paymentId}:authorize`, status: 200 });
    expect(charge!.form).toEqual({
      amount: '4900',
      currency: 'usd',
      confirm: 'true',
      capture_method: 'automatic',
      payment_method: saved.token,
      customer: saved.processorCustomerId,
      'allowed_payment_method_types[0]': 'card',
      'metadata[payment_id]': paymentId,
      off_session: 'true',
    });
    expect(standIn.ledger()[paymentId]).toMatchObject({
      paymentIntentId: result.connectorTransactionId,
      status: 'succeeded',
      currency: 'usd',
      amount: 4900,
      amountCaptured: 4900,
      charges: 1,
      declines: 0,
    });
    expect(standIn.paymentIntentsOf().find((i) => i.paymentId === paymentId)).toMatchObject({
      customer: saved.processorCustomerId,
      paymentMethod: saved.token,
      offSession: true,
      setupFutureUsage: null,
    });
    expect(standIn.ledgerOf(other.secretKey)).toEqual({});
  });

  test('on-session reuse sends the return_url instead of off_session; manual capture holds, then captures', async () => {
    const stripe = adapter();
    const saved = await saveCard(stripe);
    const paymentId = newPaymentId();
    const held = await stripe.authorize(savedCharge(paymentId, saved, { offSession: false, captureMethod: 'manual' }));
    expect(held).toMatchObject({ status: 'RequiresCapture', amountCaptured: 0 });
    expect(standIn.requests.at(-1)!.form).toMatchObject({ return_url: returnUrlOf(paymentId), capture_method: 'manual' });
    expect(standIn.requests.at(-1)!.form.off_session).toBeUndefined();
    const captured = await stripe.capture({
      paymentId,
      connectorTransactionId: held.connectorTransactionId!,
      currency: 'USD',
      amount: 4900,
    });
    expect(captured).toMatchObject({ status: 'Succeeded', amountCaptured: 4900 });
  });

  test('another account refuses the token (resource_missing): nothing is charged at either account', async () => {
    const saved = await saveCard(adapter());
    const paymentId = newPaymentId();
    const err = await otherAdapter()
      .authorize(savedCharge(paymentId, saved))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ code: 'resource_missing' });
    expect(standIn.requests.at(-1)).toMatchObject({ accountId: other.accountId, status: 400 });
    expect(standIn.ledgerOf(other.secretKey)).toEqual({});
    expect(standIn.ledger()[paymentId]).toBeUndefined();
    // Nor can the other account detach it.
    await expect(otherAdapter().detachSavedMethod(saved)).rejects.toMatchObject({ code: 'resource_missing' });
    expect(standIn.customersOf()[0]!.paymentMethodIds).toEqual([saved.token]);
  });

  test('a saved method without its Stripe Customer, or with a card as well, is refused before any call', async () => {
    const saved = await saveCard(adapter());
    const from = standIn.requests.length;
    await expect(adapter().authorize(savedCharge(newPaymentId(), { ...saved, processorCustomerId: null }))).rejects.toMatchObject({
      code: 'missing_processor_customer',
    });
    await expect(
      adapter().authorize(
        savedCharge(newPaymentId(), saved, { card: { card_number: VISA, card_exp_month: '07', card_exp_year: '31', card_cvc: '314' } }),
      ),
    ).rejects.toMatchObject({ code: 'ambiguous_payment_method' });
    expect(requestsSince(from)).toEqual([]);
  });

  test('a saved card the issuer now declines → Failed with the decline code, the intent id, no charge', async () => {
    const stripe = adapter();
    const saved = await saveCard(stripe);
    standIn.declineCharges(saved.token, { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savedCharge(paymentId, saved));
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: expect.stringMatching(/^pi_/),
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Your card has insufficient funds.',
    });
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 0, declines: 1 });
  });
});

describe('authentication_required: the issuer asks for the payer → RequiresAction, never a silent failure', () => {
  /** Saves Stripe's "always authenticate" card: the first payment passes 3DS on-session. */
  async function saveAlwaysAuthenticateCard(stripe: StripeConnector): Promise<SavedMethodToken> {
    const paymentId = newPaymentId();
    const asked = await stripe.authorize(savingRequest(paymentId, ALWAYS_AUTHENTICATE));
    expect(asked.status).toBe('RequiresAction');
    standIn.completeAuthentication(asked.connectorTransactionId!);
    const synced = await stripe.sync(syncRequest(paymentId, asked.connectorTransactionId));
    expect(synced.status).toBe('Succeeded');
    return synced.savedMethod!;
  }

  test('4000002760003184 off-session: 402 authentication_required, the adapter confirms on-session and answers the payer’s redirect', async () => {
    const stripe = adapter();
    const saved = await saveAlwaysAuthenticateCard(stripe);
    expect(saved.card).toMatchObject({ last4: '3184' });
    const from = standIn.requests.length;
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savedCharge(paymentId, saved));
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: expect.stringMatching(/^pi_/),
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: expect.stringContaining(THREE_D_SECURE_PATH) },
    });
    const [charge, confirm] = requestsSince(from);
    expect(requestsSince(from)).toHaveLength(2);
    expect(charge).toMatchObject({ path: '/v1/payment_intents', status: 402 });
    expect(confirm).toMatchObject({
      method: 'POST',
      path: `/v1/payment_intents/${result.connectorTransactionId}/confirm`,
      idempotencyKey: `${paymentId}:authenticate`,
      status: 200,
    });
    expect(confirm!.form).toEqual({ payment_method: saved.token, off_session: 'false', return_url: returnUrlOf(paymentId) });
    expect(standIn.ledger()[paymentId]).toMatchObject({ charges: 0, declines: 1, status: 'requires_action' });

    // The payer follows the link when the merchant brings them back; the return route's sync finds the charge.
    const back = await follow((result.nextAction as { redirect_to_url: string }).redirect_to_url);
    expect(back.location).toContain(`${returnUrlOf(paymentId)}?payment_intent=${result.connectorTransactionId}`);
    const synced = await stripe.sync(syncRequest(paymentId, result.connectorTransactionId));
    expect(synced).toEqual({ status: 'Succeeded', connectorTransactionId: result.connectorTransactionId, amountCaptured: 4900 });
    expect(standIn.ledger()[paymentId]).toMatchObject({
      charges: 1,
      amountCaptured: 4900,
      paymentIntentIds: [result.connectorTransactionId],
    });
  });

  test('the payer failing 3DS then → Failed (payment_intent_authentication_failure), no charge', async () => {
    const stripe = adapter();
    const saved = await saveAlwaysAuthenticateCard(stripe);
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savedCharge(paymentId, saved));
    await follow(`${(result.nextAction as { redirect_to_url: string }).redirect_to_url}&outcome=failed`);
    const synced = await stripe.sync(syncRequest(paymentId, result.connectorTransactionId));
    expect(synced).toMatchObject({ status: 'Failed', errorCode: 'payment_intent_authentication_failure' });
    expect(standIn.ledger()[paymentId]!.charges).toBe(0);
  });

  test('a card set up for off-session use (4000002500003155, 3DS done at the first payment) is charged off-session without the payer', async () => {
    const stripe = adapter();
    const paymentId = newPaymentId();
    const asked = await stripe.authorize(savingRequest(paymentId, AUTHENTICATE_UNLESS_SET_UP));
    standIn.completeAuthentication(asked.connectorTransactionId!);
    const saved = (await stripe.sync(syncRequest(paymentId, asked.connectorTransactionId))).savedMethod!;
    const charged = await stripe.authorize(savedCharge(newPaymentId(), saved));
    expect(charged).toMatchObject({ status: 'Succeeded', amountCaptured: 4900 });
  });

  test('the asking call lost (5xx): unknown outcome; the sync by our reference answers the intent as it is — RequiresAction once the confirm landed', async () => {
    const stripe = adapter({ timeoutMs: 300 });
    const saved = await saveAlwaysAuthenticateCard(stripe);

    // The confirm never ran: the intent stays refused, and the sync says so with Stripe's code (visible, not silent).
    const lost = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents/', secretKey: standIn.secretKey }, 'error_500_before_work');
    await expect(stripe.authorize(savedCharge(lost, saved))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.pendingFaults()).toEqual([]);
    expect(await stripe.sync(syncRequest(lost, null))).toMatchObject({
      status: 'Failed',
      errorCode: 'authentication_required',
      errorMessage: 'Your card was declined. This transaction requires authentication.',
    });

    // The confirm ran but its answer was lost: the sync finds the intent waiting for the payer, with the link.
    const landed = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents/' }, 'hang_after_work');
    await expect(stripe.authorize(savedCharge(landed, saved))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    const synced = await stripe.sync(syncRequest(landed, null));
    expect(synced).toMatchObject({
      status: 'RequiresAction',
      nextAction: { type: 'redirect_to_url', redirect_to_url: expect.stringContaining(THREE_D_SECURE_PATH) },
    });
  });

  test('the payment_intent.payment_failed event of the refused attempt is mapped from the intent as it is now (RequiresAction), read once', async () => {
    const stripe = adapter();
    const saved = await saveAlwaysAuthenticateCard(stripe);
    const paymentId = newPaymentId();
    const result = await stripe.authorize(savedCharge(paymentId, saved));
    // The event Stripe sent for the 402 carries the intent as it was then: requires_payment_method, authentication_required.
    const refused = (
      fixture('saved-methods/event.payment_intent.payment_failed.authentication_required.json') as {
        data: { object: Record<string, unknown> };
      }
    ).data.object;
    const event = JSON.stringify({
      ...fixture('saved-methods/event.payment_intent.payment_failed.authentication_required.json'),
      data: { object: { ...refused, id: result.connectorTransactionId, metadata: { payment_id: paymentId } } },
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', standIn.webhookSecret).update(`${t}.${event}`).digest('hex');
    const from = standIn.requests.length;
    const parsed = await stripe.parseWebhook({ rawBody: event, headers: { 'stripe-signature': `t=${t},v1=${signature}` } });
    expect(parsed).toMatchObject({
      kind: 'payment',
      paymentId,
      connectorTransactionId: result.connectorTransactionId,
      result: { status: 'RequiresAction', nextAction: result.nextAction },
    });
    expect(requestsSince(from).map((r) => `${r.method} ${r.path}${r.query}`)).toEqual([
      `GET /v1/payment_intents/${result.connectorTransactionId}?expand%5B0%5D=payment_method`,
    ]);
  });
});

describe('a lost answer: the stand-in does the work, then hangs; sync finds it by our reference', () => {
  test('an off-session charge that timed out after charging is found by the search on metadata payment_id', async () => {
    const saved = await saveCard(adapter());
    const stripe = adapter({ timeoutMs: 300 });
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
    const err = await stripe.authorize(savedCharge(paymentId, saved)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(false);
    const truth = standIn.ledger()[paymentId]!;
    expect(truth).toMatchObject({ charges: 1, amountCaptured: 4900 });
    const found = await stripe.sync(syncRequest(paymentId, null));
    expect(found).toEqual({ status: 'Succeeded', connectorTransactionId: truth.paymentIntentId, amountCaptured: 4900 });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/payment_intents/search' });
    // A retry of the authorize replays the same intent: never a second charge.
    await expect(adapter().authorize(savedCharge(paymentId, saved))).resolves.toMatchObject({
      connectorTransactionId: truth.paymentIntentId,
    });
    expect(standIn.ledger()[paymentId]!.charges).toBe(1);
  });

  test('a saving payment that timed out after charging: the sync answers the saved method too (data.payment_method expanded)', async () => {
    const stripe = adapter({ timeoutMs: 300 });
    const paymentId = newPaymentId();
    standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
    await expect(stripe.authorize(savingRequest(paymentId))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    const found = await stripe.sync(syncRequest(paymentId, null));
    const [customer] = standIn.customersOf();
    expect(found).toMatchObject({
      status: 'Succeeded',
      savedMethod: { token: customer!.paymentMethodIds[0], processorCustomerId: customer!.id, card: { last4: '4242' } },
    });
    expect(standIn.requests.at(-1)!.form).toMatchObject({ 'expand[0]': 'data.payment_method' });
  });
});

describe('detachSavedMethod', () => {
  test('POST /v1/payment_methods/{id}/detach; a charge after it is refused; a retried detach replays', async () => {
    const stripe = adapter();
    const saved = await saveCard(stripe);
    const from = standIn.requests.length;
    await expect(stripe.detachSavedMethod(saved)).resolves.toBeUndefined();
    expect(requestsSince(from)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/v1/payment_methods/${saved.token}/detach`,
        idempotencyKey: `${saved.token}:detach`,
        form: {},
        status: 200,
      }),
    ]);
    expect(standIn.customersOf()[0]).toMatchObject({ paymentMethodIds: [], detachedPaymentMethodIds: [saved.token] });
    expect(await rawGet(`/v1/payment_methods/${saved.token}`)).toMatchObject({ id: saved.token, customer: null });
    await expect(stripe.detachSavedMethod(saved)).resolves.toBeUndefined();
    expect(standIn.requests.at(-1)!.outcome).toBe('replayed');

    const paymentId = newPaymentId();
    const err = await stripe.authorize(savedCharge(paymentId, saved)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).message).toContain('detached from a Customer');
    expect(standIn.ledger()[paymentId]).toBeUndefined();
  });

  test('without a token nothing is sent; a technical failure is thrown as such (retry)', async () => {
    await expect(adapter().detachSavedMethod({ token: '' })).rejects.toMatchObject({ code: 'missing_saved_method' });
    expect(standIn.requests).toEqual([]);
    const saved = await saveCard(adapter());
    standIn.failNext({ method: 'POST', path: '/v1/payment_methods/' }, 'error_500_before_work');
    await expect(adapter().detachSavedMethod(saved)).rejects.toBeInstanceOf(ConnectorTechnicalError);
    await expect(adapter().detachSavedMethod(saved)).resolves.toBeUndefined();
  });
});

/* ------------------------------------------------------------------ Stripe's documented shapes */

const PAY = 'pay_01HXSTRIPE0001';
const PI = 'pi_3OzKx2LkdIwHu7ix1AbCdEfG';
const CUS = 'cus_QXg1o8vcGmoR32';
const PM = 'pm_1Pgc75B7WZ01zgkWlHVgdEGJ';
const REDIRECT =
  'https://hooks.stripe.com/3d_secure_2/hosted?merchant=acct_1Nv0FGLkdIwHu7ix&payment_intent=pi_3OzKx2LkdIwHu7ix1AbCdEfG&payment_intent_client_secret=pi_3OzKx2LkdIwHu7ix1AbCdEfG_secret_q8Wm1lTbYtJ0dZ9uVh2xZkYrN&publishable_key=pk_test_51Nv0FG&source=payatt_3OzKx2LkdIwHu7ix1QwErTyU';
/** The saved method of Stripe's OpenAPI PaymentMethod sample (`resources.payment_method`) on the sample Customer. */
const SAMPLE_SAVED: SavedMethodToken = {
  token: PM,
  processorCustomerId: CUS,
  email: 'jenny@example.com',
  fingerprint: 'AOB934RVNwzk6xtn',
  card: { brand: 'visa', last4: '4242', expMonth: 8, expYear: 2030, bin: null, issuerCountry: 'US' },
  expiresAt: null,
};
const WEBHOOK_SECRET = 'whsec_savedMethodsSigningSecret0123456789';

/** One request a fixture server saw. */
interface Seen {
  method: string;
  url: string;
  body: string;
}

/** Runs `fn` against a one-off server answering `answer(method, url)` (status, body) for every request. */
async function againstServer<T>(
  answer: (method: string, url: string) => { status: number; body: unknown },
  fn: (stripe: StripeConnector, seen: Seen[]) => Promise<T>,
): Promise<{ value: T; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const a = answer(req.method ?? '', req.url ?? '');
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const stripe = new StripeConnector({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      secretKey: 'sk_test_savedMethods',
      webhookSecret: WEBHOOK_SECRET,
    });
    return { value: await fn(stripe, seen), seen };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const signed = (rawBody: string) => {
  const t = Math.floor(Date.now() / 1000);
  return { 'stripe-signature': `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${rawBody}`).digest('hex')}` };
};

/** The asserted outcome of every file of fixtures/stripe/saved-methods/ (and the Customer extract), as the adapter meets it. */
const OUTCOMES: Readonly<Record<string, () => Promise<unknown>>> = {
  'payment_intent.succeeded.saved_card.expanded.json': async () =>
    expect(
      paymentResultFromIntent(fixture('saved-methods/payment_intent.succeeded.saved_card.expanded.json') as unknown as StripePaymentIntent),
    ).toEqual({
      status: 'Succeeded',
      connectorTransactionId: PI,
      amountCaptured: 150000,
      savedMethod: SAMPLE_SAVED,
    }),
  'payment_intent.requires_capture.saved_card.expanded.json': async () =>
    expect(
      paymentResultFromIntent(
        fixture('saved-methods/payment_intent.requires_capture.saved_card.expanded.json') as unknown as StripePaymentIntent,
      ),
    ).toEqual({ status: 'RequiresCapture', connectorTransactionId: PI, amountCaptured: 0, savedMethod: SAMPLE_SAVED }),
  'payment_intent.requires_action.authentication_recovery.json': async () =>
    expect(
      paymentResultFromIntent(
        fixture('saved-methods/payment_intent.requires_action.authentication_recovery.json') as unknown as StripePaymentIntent,
      ),
    ).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: PI,
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT },
    }),
  'error.authentication_required.json': async () => {
    const body = fixture('saved-methods/error.authentication_required.json');
    expect(stripeErrorOf(402, body).code).toBe('authentication_required');
    expect(isAuthenticationRequired((body as StripeErrorBody).error)).toBe(true);
    expect(declineFromErrorBody(body)).toEqual({
      status: 'Failed',
      connectorTransactionId: PI,
      amountCaptured: 0,
      errorCode: 'authentication_required',
      errorMessage: 'Your card was declined. This transaction requires authentication.',
    });
    // The off-session charge answered so → the recovery confirm → RequiresAction (never a silent failure).
    const { value, seen } = await againstServer(
      (_method, url) =>
        url === '/v1/payment_intents'
          ? { status: 402, body }
          : { status: 200, body: fixture('saved-methods/payment_intent.requires_action.authentication_recovery.json') },
      (stripe) => stripe.authorize(savedCharge(PAY, { token: PM, processorCustomerId: CUS })),
    );
    expect(value).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: PI,
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT },
    });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/payment_intents', `POST /v1/payment_intents/${PI}/confirm`]);
    expect(Object.fromEntries(new URLSearchParams(seen[1]!.body))).toEqual({
      payment_method: PM,
      off_session: 'false',
      return_url: returnUrlOf(PAY),
    });
  },
  'event.payment_intent.succeeded.saved_card.json': async () => {
    const rawBody = readFileSync(join(SAVED_FIXTURES, 'event.payment_intent.succeeded.saved_card.json'), 'utf8');
    const { value, seen } = await againstServer(
      () => ({ status: 200, body: fixture('saved-methods/payment_intent.succeeded.saved_card.expanded.json') }),
      (stripe) => stripe.parseWebhook({ rawBody, headers: signed(rawBody) }),
    );
    expect(value).toEqual({
      kind: 'payment',
      eventId: 'evt_3OzKx2LkdIwHu7ix1SaVeDcD',
      paymentId: PAY,
      connectorTransactionId: PI,
      result: { status: 'Succeeded', connectorTransactionId: PI, amountCaptured: 150000, savedMethod: SAMPLE_SAVED },
    });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /v1/payment_intents/${PI}?expand%5B0%5D=payment_method`]);
  },
  'event.payment_intent.payment_failed.authentication_required.json': async () => {
    const rawBody = readFileSync(join(SAVED_FIXTURES, 'event.payment_intent.payment_failed.authentication_required.json'), 'utf8');
    const { value, seen } = await againstServer(
      () => ({ status: 200, body: fixture('saved-methods/payment_intent.requires_action.authentication_recovery.json') }),
      (stripe) => stripe.parseWebhook({ rawBody, headers: signed(rawBody) }),
    );
    expect(value).toEqual({
      kind: 'payment',
      eventId: 'evt_3OzKx2LkdIwHu7ix1AuThReQ',
      paymentId: PAY,
      connectorTransactionId: PI,
      result: {
        status: 'RequiresAction',
        connectorTransactionId: PI,
        amountCaptured: 0,
        nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT },
      },
    });
    expect(seen).toHaveLength(1);
  },
};

describe("Stripe's documented shapes (fixtures/stripe/saved-methods/, the OpenAPI Customer)", () => {
  test('every file of fixtures/stripe/saved-methods has an asserted outcome here', () => {
    expect(Object.keys(OUTCOMES).sort()).toEqual(
      readdirSync(SAVED_FIXTURES)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    );
  });

  test.each(Object.keys(OUTCOMES))('%s', async (file) => {
    await OUTCOMES[file]!();
  });

  test("the OpenAPI Customer (openapi-fixtures3/customer.extract.json): the adapter takes its id for the PaymentIntent's customer", async () => {
    const extract = fixture('openapi-fixtures3/customer.extract.json') as {
      source: Record<string, string>;
      resources: { customer: { id: string } };
    };
    expect(extract.source).toMatchObject({ repository: 'github.com/stripe/openapi', path: 'openapi/fixtures3.json' });
    const pm = (fixture('openapi.fixtures3.extract.json').resources as Record<string, unknown>).payment_method;
    const { value, seen } = await againstServer(
      (_method, url) => {
        if (url === '/v1/customers') return { status: 200, body: extract.resources.customer };
        if (url === '/v1/payment_methods') return { status: 200, body: pm };
        return { status: 200, body: fixture('saved-methods/payment_intent.succeeded.saved_card.expanded.json') };
      },
      (stripe) => stripe.authorize(savingRequest(PAY)),
    );
    expect(seen.map((s) => s.url)).toEqual(['/v1/customers', '/v1/payment_methods', '/v1/payment_intents']);
    expect(new URLSearchParams(seen[2]!.body).get('customer')).toBe(extract.resources.customer.id);
    expect((value as PaymentResult).savedMethod).toEqual(SAMPLE_SAVED);
  });

  test('a webhook whose saved-card read fails is not applied: the error asks for a redelivery', async () => {
    const rawBody = readFileSync(join(SAVED_FIXTURES, 'event.payment_intent.succeeded.saved_card.json'), 'utf8');
    const { value } = await againstServer(
      () => ({ status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } }),
      (stripe) => stripe.parseWebhook({ rawBody, headers: signed(rawBody) }).catch((e: unknown) => e),
    );
    expect(value).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('the sample events without a saved card make no call (the documented succeeded event maps as before)', async () => {
    const rawBody = readFileSync(join(FIXTURES, 'event.payment_intent.succeeded.json'), 'utf8');
    const { value, seen } = await againstServer(
      () => ({ status: 500, body: {} }),
      (stripe) => stripe.parseWebhook({ rawBody, headers: signed(rawBody) }),
    );
    expect(seen).toEqual([]);
    expect((value as { result: PaymentResult }).result.savedMethod).toBeUndefined();
  });

  test('a signed event whose customer or payment_method is neither an id nor an object is refused (400), naming the field', async () => {
    const event = fixture('saved-methods/event.payment_intent.succeeded.saved_card.json') as { data: { object: Record<string, unknown> } };
    const rawBody = JSON.stringify({ ...event, data: { object: { ...event.data.object, payment_method: 42 } } });
    const { value } = await againstServer(
      () => ({ status: 500, body: {} }),
      (stripe) => stripe.parseWebhook({ rawBody, headers: signed(rawBody) }).catch((e: unknown) => e),
    );
    expect(value).toMatchObject({ name: 'WebhookPayloadError', code: 'parameter_invalid_type', param: 'data.object.payment_method' });
  });
});
