/**
 * Paystack saved cards (reusable authorizations), merchant-initiated charges of them and their
 * deactivation, against the loopback Paystack stand-in (test/helpers/paystack-stand-in.ts), whose per-account
 * ledgers are Paystack's truth. What is checked:
 * - every successful result (authorize, authenticate, sync, `charge.success`) carries `savedMethod` when the
 *   transaction's `authorization.reusable` is true — token, fingerprint (`signature`), card, customer, expiry —
 *   and none when it is false;
 * - `authorize` with `savedMethod` sends POST /transaction/charge_authorization with our reference, valid against
 *   PaystackOSS/openapi's `TransactionChargeAuthorization` (the `callback_url` exception aside), and the charge
 *   lands in the issuing account's ledger only; another account's token is refused there;
 * - a decline is Failed with Paystack's `gateway_response`; `send_otp` and a Two-Factor challenge (`paused`) are
 *   RequiresAction with their next action, also off-session; a charge whose answer is lost after Paystack did the
 *   work is found by `sync` under our reference;
 * - `detachSavedMethod` deactivates the authorization (POST /customer/authorization/deactivate), after which a
 *   charge is refused; no token ever reaches a log line or an error message.
 * Official material (fixtures/paystack/, sources in fixtures/SOURCES.md "Paystack saved methods"):
 * PaystackOSS/openapi 9678dea922a900b2485969592055ccf634460352 `paths/transaction_charge_authorization.yaml`,
 * `paths/customer_authorization_deactivate.yaml` and their schemas; PaystackOSS/doc-code-snippets
 * 94af513d752dfc9f85dd0718301e7257091eb7f2 `src/api/transactions/charge_authorization/response.json`,
 * `src/api/customers/deactivate-authorization/response.json`, `src/doc/payments/recurring-charges/*`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type SavedMethodToken,
} from '../../shared/connectors/connector';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { PAYSTACK_CHARGE_AUTHORIZATION_PATH, PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH } from '../../shared/connectors/paystack/requests';
import {
  type ChargeContext,
  chargeAuthorizationToPaymentResult,
  endOfExpiryMonth,
  paystackErrorOf,
  paystackSavedMethod,
  transactionToPaymentResult,
} from '../../shared/connectors/paystack/responses';
import { logger } from '../../shared/observability/logger';
import {
  PAYSTACK_STAND_IN_MESSAGES,
  PAYSTACK_TEST_CARDS,
  type PaystackStandIn,
  type PaystackTestCard,
  paystackOpenApiSchema,
  startPaystackStandIn,
} from '../helpers/paystack-stand-in';

/* ------------------------------------------------------------------------------------------------
 * Set-up
 * --------------------------------------------------------------------------------------------- */

const FIXTURES = path.join(__dirname, 'fixtures', 'paystack');
const PUBLIC_BASE_URL = 'https://api.switchyard.test';
const EMAIL = 'ada@example.com';

let standIn: PaystackStandIn;
beforeAll(async () => {
  standIn = await startPaystackStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

/** The adapter on one stand-in account (the default one unless `secretKey`). */
function paystackFor(secretKey = standIn.secretKey, timeoutMs = 2000): PaystackConnector {
  return new PaystackConnector({ baseUrl: standIn.url, secretKey, webhookSecret: '', timeoutMs });
}

/** A fresh payment id, `pay_` and 32 hex digits (the core's shape). */
const newPaymentId = (): string => `pay_${randomBytes(16).toString('hex')}`;

/** A card authorize request of NGN 1,500.00 for `card`, expiring 12/2030. */
function cardRequest(card: Pick<PaystackTestCard, 'number' | 'cvv'>, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const paymentId = overrides.paymentId ?? newPaymentId();
  return {
    paymentId,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: { card_number: card.number, card_exp_month: '12', card_exp_year: '2030', card_cvc: card.cvv },
    email: EMAIL,
    phone: null,
    publicBaseUrl: PUBLIC_BASE_URL,
    returnUrl: `${PUBLIC_BASE_URL}/pay/${paymentId}/return`,
    setupFutureUsage: 'off_session',
    customer: { customerId: 'cus_0123', email: EMAIL, processorCustomerId: null },
    ...overrides,
  };
}

/** A merchant-initiated charge of a saved method: no card, the token and its e-mail, off-session. */
function savedRequest(saved: Pick<SavedMethodToken, 'token' | 'email'>, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const paymentId = overrides.paymentId ?? newPaymentId();
  return cardRequest(PAYSTACK_TEST_CARDS.noValidation, {
    paymentId,
    returnUrl: `${PUBLIC_BASE_URL}/pay/${paymentId}/return`,
    card: undefined,
    setupFutureUsage: null,
    savedMethod: { token: saved.token, email: saved.email ?? null, processorCustomerId: null },
    offSession: true,
    ...overrides,
  });
}

/** Pays with `card` on the account of `secretKey` and returns the saved method of the successful result. */
async function saveCard(card: Pick<PaystackTestCard, 'number' | 'cvv'>, secretKey = standIn.secretKey): Promise<SavedMethodToken> {
  const result = await paystackFor(secretKey).authorize(cardRequest(card));
  expect(result.status).toBe('Succeeded');
  expect(result.savedMethod).toBeDefined();
  return result.savedMethod!;
}

/** The answer to the step `step` of the payment of `request`, at the charge `connectorTransactionId`. */
function stepAnswer(
  request: AuthorizeRequest,
  connectorTransactionId: string | null,
  answer: Pick<AuthenticateRequest, 'step' | 'pin' | 'otp'>,
): AuthenticateRequest {
  const { paymentId, amount, currency, paymentMethod, captureMethod, email, publicBaseUrl, returnUrl } = request;
  return { paymentId, connectorTransactionId, amount, currency, paymentMethod, captureMethod, email, publicBaseUrl, returnUrl, ...answer };
}

/** Runs a call and returns its result, or the error it throws. */
async function outcome<T>(promise: Promise<T>): Promise<T | Error> {
  try {
    return await promise;
  } catch (err) {
    return err as Error;
  }
}

/** The parsed JSON body of the last request the stand-in received on `pathname` (the log masks the code). */
function lastBody(pathname: string): Record<string, unknown> {
  const request = [...standIn.requests].reverse().find((r) => r.path === pathname);
  expect(request).toBeDefined();
  return request!.body!;
}

/** A doc-code-snippets file (verbatim); with `key`, the `data` of that sample of a `response.json`. */
function official<T = any>(file: string, key?: string): T {
  const parsed = JSON.parse(readFileSync(path.join(FIXTURES, 'doc-code-snippets', file), 'utf8'));
  return (key === undefined ? parsed : parsed[key].data) as T;
}

const CTX: ChargeContext = {
  paymentId: 'pay_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  publicBaseUrl: PUBLIC_BASE_URL,
  paymentMethod: 'card',
  amount: 150000,
  currency: 'NGN',
  reference: 'pay-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  ussdExpiresAt: '2030-01-01T00:00:00.000Z',
};

/* ------------------------------------------------------------------------------------------------
 * 1. The saved method of a successful payment
 * --------------------------------------------------------------------------------------------- */

describe('a successful card payment carries its reusable authorization as savedMethod', () => {
  test('authorize (POST /charge): token = authorization_code, fingerprint = signature, the card, the customer, the end of the expiry month', async () => {
    const request = cardRequest(PAYSTACK_TEST_CARDS.noValidation);
    const result = await paystackFor().authorize(request);
    const [authorization] = standIn.authorizationsOf(standIn.secretKey);
    expect(authorization).toMatchObject({ reference: paystackReference(request.paymentId), active: true, email: EMAIL });
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: paystackReference(request.paymentId),
      amountCaptured: 150000,
      savedMethod: {
        token: authorization!.code,
        fingerprint: authorization!.signature,
        card: { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bin: '408408', issuerCountry: 'NG' },
        email: EMAIL,
        processorCustomerId: expect.stringMatching(/^CUS_[a-z0-9]{15}$/),
        expiresAt: '2030-12-31T23:59:59.999Z',
      },
    });
    expect(result.savedMethod!.token).toMatch(/^AUTH_[a-z0-9]{10}$/);
  });

  test('the same card paid twice: two tokens, one fingerprint (Paystack signs the card, not the charge)', async () => {
    const first = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const second = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    expect(second.token).not.toBe(first.token);
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(second.processorCustomerId).toBe(first.processorCustomerId);
    const other = await saveCard(PAYSTACK_TEST_CARDS.recurringDeclines);
    expect(other.fingerprint).not.toBe(first.fingerprint);
  });

  test('authenticate: the Verve card saved after PIN then OTP (brand verve)', async () => {
    const card = PAYSTACK_TEST_CARDS.vervePinOtp;
    const paystack = paystackFor();
    const request = cardRequest(card);
    const first = await paystack.authorize(request);
    expect(first).toMatchObject({ status: 'RequiresAction', nextAction: { type: 'submit_pin' } });
    expect(first.savedMethod).toBeUndefined();
    const second = await paystack.authenticate(stepAnswer(request, first.connectorTransactionId, { step: 'submit_pin', pin: card.pin }));
    expect(second).toMatchObject({ status: 'RequiresAction', nextAction: { type: 'submit_otp' } });
    const third = await paystack.authenticate(stepAnswer(request, second.connectorTransactionId, { step: 'submit_otp', otp: card.otp }));
    expect(third.status).toBe('Succeeded');
    expect(third.savedMethod).toMatchObject({
      token: standIn.authorizationsOf(standIn.secretKey)[0]!.code,
      card: { brand: 'verve', last4: card.number.slice(-4), expMonth: 12, expYear: 2030, bin: card.number.slice(0, 6) },
    });
  });

  test('sync (GET /transaction/verify) and charge.success give the same saved method as authorize', async () => {
    const paystack = paystackFor();
    const request = cardRequest(PAYSTACK_TEST_CARDS.noValidation);
    const authorized = await paystack.authorize(request);
    const synced = await paystack.sync({
      paymentId: request.paymentId,
      connectorTransactionId: authorized.connectorTransactionId,
      amount: request.amount,
      currency: request.currency,
      paymentMethod: 'card',
      captureMethod: 'automatic',
      createdAt: new Date().toISOString(),
    });
    expect(synced.savedMethod).toEqual(authorized.savedMethod);

    // The event Paystack would send: the verified transaction as `charge.success`, signed with the secret key.
    const verify = await fetch(`${standIn.url}/transaction/verify/${authorized.connectorTransactionId}`, {
      headers: { Authorization: `Bearer ${standIn.secretKey}` },
    });
    const rawBody = JSON.stringify({ event: 'charge.success', data: ((await verify.json()) as { data: unknown }).data });
    const signature = createHmac('sha512', standIn.secretKey).update(rawBody, 'utf8').digest('hex');
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': signature } });
    expect(event).toMatchObject({ kind: 'payment', paymentId: request.paymentId });
    expect((event as { result: PaymentResult }).result.savedMethod).toEqual(authorized.savedMethod);
  });

  test('a hosted checkout paid with a card (completed at Paystack) is saved too', async () => {
    const paystack = paystackFor();
    const request = cardRequest(PAYSTACK_TEST_CARDS.noValidation, { card: undefined });
    const started = await paystack.authorize(request);
    expect(started).toMatchObject({ status: 'RequiresAction', nextAction: { type: 'redirect_to_url' } });
    standIn.completeOffline(started.connectorTransactionId!, 'success');
    const synced = await paystack.sync({
      paymentId: request.paymentId,
      connectorTransactionId: started.connectorTransactionId,
      amount: request.amount,
      currency: request.currency,
      paymentMethod: 'card',
      captureMethod: 'automatic',
      createdAt: new Date().toISOString(),
    });
    expect(synced).toMatchObject({ status: 'Succeeded', savedMethod: { card: { last4: '4081' } } });
  });
});

describe('nothing is saved when the authorization is not reusable', () => {
  test('mobile money (GHS, approved on the phone): Succeeded without savedMethod', async () => {
    const paystack = paystackFor();
    const request = cardRequest(PAYSTACK_TEST_CARDS.noValidation, {
      paymentMethod: 'mobile_money',
      currency: 'GHS',
      phone: '+233551234987',
      card: undefined,
    });
    const started = await paystack.authorize(request);
    expect(started.status).toBe('RequiresAction');
    standIn.completeOffline(started.connectorTransactionId!, 'success');
    const synced = await paystack.sync({
      paymentId: request.paymentId,
      connectorTransactionId: started.connectorTransactionId,
      amount: request.amount,
      currency: 'GHS',
      paymentMethod: 'mobile_money',
      captureMethod: 'automatic',
      createdAt: new Date().toISOString(),
    });
    expect(synced.status).toBe('Succeeded');
    expect(synced).not.toHaveProperty('savedMethod');
    expect(standIn.authorizationsOf(standIn.secretKey)).toEqual([]);
  });

  test('a declined card: Failed without savedMethod, no authorization issued', async () => {
    const result = await paystackFor().authorize(cardRequest(PAYSTACK_TEST_CARDS.declined));
    expect(result.status).toBe('Failed');
    expect(result).not.toHaveProperty('savedMethod');
    expect(standIn.authorizationsOf(standIn.secretKey)).toEqual([]);
  });

  test("Paystack's own samples: a bank authorization (`reusable: false`) saves nothing; the Recurring Charges sample is read field by field", () => {
    const bank = official('src/api/charges/submit-otp/response.json', '200').data;
    expect(bank.authorization.reusable).toBe(false);
    expect(paystackSavedMethod(bank)).toBeNull();
    expect(transactionToPaymentResult(bank)).not.toHaveProperty('savedMethod');
    // The Recurring Charges page's sample: only `card_type` (no `brand`), 08/2018, no customer.
    const page = official('src/doc/payments/recurring-charges/authorization/index.json').data;
    expect(paystackSavedMethod(page)).toEqual({
      token: 'AUTH_8dfhjjdt',
      fingerprint: 'SIG_idyuhgd87dUYSHO92D',
      card: { brand: 'visa', last4: '1381', expMonth: 8, expYear: 2018, bin: '412345', issuerCountry: 'NG' },
      email: null,
      processorCustomerId: null,
      expiresAt: '2018-08-31T23:59:59.999Z',
    });
    expect(paystackSavedMethod({ ...page, authorization: { ...page.authorization, reusable: false } })).toBeNull();
    expect(paystackSavedMethod({ authorization: { ...page.authorization, reusable: 'true' } })).toBeNull();
    expect(paystackSavedMethod({ authorization: { ...page.authorization, authorization_code: '' } })).toBeNull();
    // A reusable authorization that is not a card keeps its token, without card or expiry.
    expect(paystackSavedMethod({ authorization: { ...page.authorization, channel: 'direct_debit' } })).toMatchObject({
      token: 'AUTH_8dfhjjdt',
      card: null,
      expiresAt: null,
    });
  });

  test('the end of an expiry month, leap years and December included', () => {
    expect(endOfExpiryMonth(2, 2028)).toBe('2028-02-29T23:59:59.999Z');
    expect(endOfExpiryMonth(2, 2027)).toBe('2027-02-28T23:59:59.999Z');
    expect(endOfExpiryMonth(12, 2030)).toBe('2030-12-31T23:59:59.999Z');
    expect(endOfExpiryMonth(4, 2026)).toBe('2026-04-30T23:59:59.999Z');
  });
});

/* ------------------------------------------------------------------------------------------------
 * 2. Merchant-initiated charges: POST /transaction/charge_authorization
 * --------------------------------------------------------------------------------------------- */

describe('authorize with savedMethod: POST /transaction/charge_authorization', () => {
  test("the charge reaches the issuing account's ledger under our reference, and no other account's", async () => {
    const other = standIn.addAccount();
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const request = savedRequest(saved, { amount: 250000 });
    const result = await paystackFor().authorize(request);
    const reference = paystackReference(request.paymentId);
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: reference,
      amountCaptured: 250000,
      savedMethod: saved,
    });
    expect(standIn.entryOf(standIn.secretKey, reference)).toMatchObject({
      status: 'success',
      amount: 250000,
      amountCaptured: 250000,
      currency: 'NGN',
      email: EMAIL,
      channel: 'card',
      cardLast4: '4081',
      authorizationCode: saved.token,
      viaChargeAuthorization: true,
    });
    expect(standIn.entryOf(other.secretKey, reference)).toBeUndefined();
    expect(standIn.ledgerOf(other.secretKey)).toEqual({});
  });

  test('the body: exactly email, amount (integer subunits), authorization_code, our reference, currency, stringified metadata, callback_url — valid against PaystackOSS/openapi', async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const request = savedRequest(saved, { currency: 'USD', amount: 1999 });
    await paystackFor().authorize(request);
    const sent = lastBody(PAYSTACK_CHARGE_AUTHORIZATION_PATH);
    expect(sent).toEqual({
      email: EMAIL,
      amount: 1999,
      authorization_code: `AUTH_****${saved.token.slice(-4)}`, // the stand-in's log masks the code
      reference: paystackReference(request.paymentId),
      currency: 'USD',
      metadata: JSON.stringify({ switchyard_payment_id: request.paymentId, cancel_action: request.returnUrl }),
      callback_url: request.returnUrl,
    });
    expect(standIn.requests.at(-1)?.schemaErrors).toBeNull();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(paystackOpenApiSchema('components/schemas/TransactionChargeAuthorization.yaml') as object);
    const full: Record<string, unknown> = { ...sent, authorization_code: saved.token };
    const { callback_url: _exception, ...declared } = full;
    expect(validate(declared)).toBe(true);
    // And the stand-in's answer is the shape Paystack publishes for it.
    const answer = ajv.compile(paystackOpenApiSchema('components/schemas/ChargeAuthorizationResponse.yaml') as object);
    const response = await fetch(`${standIn.url}${PAYSTACK_CHARGE_AUTHORIZATION_PATH}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${standIn.secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, amount: 5000, authorization_code: saved.token, reference: 'direct-1' }),
    });
    const body = await response.json();
    expect({ valid: answer(body), errors: answer.errors ?? null }).toEqual({ valid: true, errors: null });
  });

  test("a token of account A is refused at account B (Paystack's not-found answer), and B's ledger stays empty", async () => {
    const b = standIn.addAccount();
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const request = savedRequest(saved);
    const result = await outcome(paystackFor(b.secretKey).authorize(request));
    expect(result).toBeInstanceOf(ConnectorRequestError);
    expect(result).toMatchObject({
      code: 'authorization_code_does_not_exist_or_has_been_deactivated',
      message: PAYSTACK_STAND_IN_MESSAGES.authorizationInactive,
    });
    expect((result as Error).message).not.toContain(saved.token);
    expect(standIn.ledgerOf(b.secretKey)).toEqual({});
    expect(standIn.entry(paystackReference(request.paymentId))).toBeUndefined();
  });

  test('another e-mail than the one the card was saved with is refused by Paystack', async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const result = await outcome(paystackFor().authorize(savedRequest({ token: saved.token, email: 'someone.else@example.com' })));
    expect(result).toBeInstanceOf(ConnectorRequestError);
    expect((result as ConnectorRequestError).message).toBe(PAYSTACK_STAND_IN_MESSAGES.authorizationEmailMismatch);
  });

  test("without the saved method's e-mail, the payment's is used", async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const result = await paystackFor().authorize(savedRequest({ token: saved.token, email: null }));
    expect(result.status).toBe('Succeeded');
    expect(lastBody(PAYSTACK_CHARGE_AUTHORIZATION_PATH).email).toBe(EMAIL);
  });

  test("a decline: Failed with Paystack's gateway_response (the card's later charges decline)", async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.recurringDeclines);
    const request = savedRequest(saved);
    const result = await paystackFor().authorize(request);
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: paystackReference(request.paymentId),
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: PAYSTACK_STAND_IN_MESSAGES.insufficientFunds,
    });
    expect(standIn.entry(paystackReference(request.paymentId))).toMatchObject({ status: 'failed', amountCaptured: 0 });
  });

  test('send_otp, off-session: RequiresAction with the submit_otp step (never a failure); the OTP then completes it', async () => {
    const card = PAYSTACK_TEST_CARDS.recurringOtp;
    const saved = await saveCard(card);
    const paystack = paystackFor();
    const request = savedRequest(saved);
    const result = await paystack.authorize(request);
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: paystackReference(request.paymentId),
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Please send OTP',
        redirect_to_url: `${PUBLIC_BASE_URL}/pay/${request.paymentId}/authenticate`,
        card_required: false,
      },
    });
    expect(standIn.entry(paystackReference(request.paymentId))).toMatchObject({ status: 'send_otp', waitingOn: 'otp' });
    const done = await paystack.authenticate(stepAnswer(request, result.connectorTransactionId, { step: 'submit_otp', otp: card.otp }));
    expect(done).toMatchObject({ status: 'Succeeded', amountCaptured: 150000, savedMethod: { token: saved.token } });
    expect(standIn.entry(paystackReference(request.paymentId))).toMatchObject({ status: 'success', viaChargeAuthorization: true });
  });

  test("a Two-Factor challenge (`paused`): RequiresAction redirecting to Paystack's authorization_url; settled by sync once completed", async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.recurringChallenged);
    const paystack = paystackFor();
    const request = savedRequest(saved);
    const result = await paystack.authorize(request);
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: paystackReference(request.paymentId),
      amountCaptured: 0,
      nextAction: {
        type: 'redirect_to_url',
        redirect_to_url: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\/resume\/[a-z0-9]+$/),
      },
    });
    const sync = () =>
      paystack.sync({
        paymentId: request.paymentId,
        connectorTransactionId: result.connectorTransactionId,
        amount: request.amount,
        currency: request.currency,
        paymentMethod: 'card',
        captureMethod: 'automatic',
        createdAt: new Date().toISOString(),
      });
    expect((await sync()).status).toBe('RequiresAction');
    standIn.completeOffline(result.connectorTransactionId!, 'success');
    expect(await sync()).toMatchObject({ status: 'Succeeded', amountCaptured: 150000, savedMethod: { token: saved.token } });
  });

  test.each([
    'hang_after_work',
    'error_500_after_work',
    'reset_after_work',
  ] as const)('Paystack charges, then the answer is lost (%s): a technical error, and sync finds the charge by our reference', async (fault) => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const request = savedRequest(saved);
    standIn.failNext({ method: 'POST', path: PAYSTACK_CHARGE_AUTHORIZATION_PATH }, fault);
    const lost = await outcome(paystackFor(standIn.secretKey, 300).authorize(request));
    expect(lost).toBeInstanceOf(ConnectorTechnicalError);
    expect((lost as ConnectorTechnicalError).notSent).toBeFalsy();
    expect(standIn.entry(paystackReference(request.paymentId))).toMatchObject({ status: 'success', amountCaptured: 150000 });
    // The reconciler's sync: no transaction id recorded, so the reference is derived from our payment id.
    const synced = await paystackFor().sync({
      paymentId: request.paymentId,
      connectorTransactionId: null,
      amount: request.amount,
      currency: request.currency,
      paymentMethod: 'card',
      captureMethod: 'automatic',
      createdAt: new Date().toISOString(),
    });
    expect(synced).toEqual({
      status: 'Succeeded',
      connectorTransactionId: paystackReference(request.paymentId),
      amountCaptured: 150000,
      savedMethod: saved,
    });
  });

  test('nothing is sent for a token that cannot be one, a method other than a card, or no e-mail at all', async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const before = standIn.requests.length;
    const paystack = paystackFor();
    await expect(paystack.authorize(savedRequest({ token: '  ', email: EMAIL }))).rejects.toMatchObject({ code: 'saved_method_invalid' });
    await expect(paystack.authorize(savedRequest({ token: 'AUTH_a b', email: EMAIL }))).rejects.toMatchObject({
      code: 'saved_method_invalid',
    });
    await expect(
      paystack.authorize(savedRequest(saved, { paymentMethod: 'mobile_money', currency: 'GHS', phone: '+233551234987' })),
    ).rejects.toMatchObject({ code: 'saved_method_not_supported' });
    await expect(paystack.authorize(savedRequest({ token: saved.token, email: null }, { email: null }))).rejects.toMatchObject({
      code: 'email_required',
    });
    await expect(paystack.authorize(savedRequest(saved, { captureMethod: 'manual' }))).rejects.toMatchObject({
      code: 'capture_method_not_supported',
    });
    expect(standIn.requests.length).toBe(before);
  });

  test("Paystack's own answers through the mapping: the charge_authorization samples and the Two-Factor sample", () => {
    const api = official('src/api/transactions/charge_authorization/response.json', '200').data;
    expect(chargeAuthorizationToPaymentResult(api, CTX)).toMatchObject({
      status: 'Succeeded',
      connectorTransactionId: '0m7frfnr47ezyxl',
      amountCaptured: 35247,
      savedMethod: { token: 'AUTH_uh8bcl3zbn', fingerprint: 'SIG_yEXu7dLBeqG0kU7g95Ke', processorCustomerId: 'CUS_1rkzaqsv4rrhqo6' },
    });
    const guide = official('src/doc/payments/recurring-charges/charge-authorization/index.json').data;
    expect(chargeAuthorizationToPaymentResult(guide, CTX).savedMethod).toMatchObject({ token: 'AUTH_pmx3mgawyd', email: 'demo@test.com' });
    const challenged = official('src/doc/payments/recurring-charges/two-factor/index.json');
    expect(challenged.message).toBe(PAYSTACK_STAND_IN_MESSAGES.twoFactorChallenge);
    expect(chargeAuthorizationToPaymentResult(challenged.data, CTX)).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'jvx2o36ghlvrgtt',
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: 'https://checkout.paystack.com/resume/0744ub5o065nwyz' },
    });
    // A failed charge: its gateway_response is the error (Paystack's message is null on these answers).
    expect(
      chargeAuthorizationToPaymentResult({ ...api, status: 'failed', gateway_response: 'Insufficient Funds', message: null }, CTX),
    ).toEqual({
      status: 'Failed',
      connectorTransactionId: '0m7frfnr47ezyxl',
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Insufficient Funds',
    });
    // Paused without a URL, or a status outside the charge table: Processing, for a sync to settle.
    expect(chargeAuthorizationToPaymentResult({ reference: 'x', status: '', paused: true }, CTX).status).toBe('Processing');
    expect(chargeAuthorizationToPaymentResult({ ...api, status: 'queued' }, CTX).status).toBe('Processing');
    // The body the samples document for the request: the [DCS] metadata sample carries cancel_action.
    expect(official('src/doc/payments/recurring-charges/sample-metadata/index.json').metadata).toEqual({
      cancel_action: 'https://yourcancelurl.com',
    });
    expect(official('src/doc/payments/recurring-charges/callback/index.json')).toHaveProperty('callback_url');
  });
});

/* ------------------------------------------------------------------------------------------------
 * 3. detachSavedMethod: POST /customer/authorization/deactivate
 * --------------------------------------------------------------------------------------------- */

describe('detachSavedMethod: POST /customer/authorization/deactivate', () => {
  test('deactivates the authorization at Paystack; a charge of it is then refused, and a second detach is refused', async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    const paystack = paystackFor();
    await expect(paystack.detachSavedMethod({ token: saved.token, email: saved.email })).resolves.toBeUndefined();
    const request = standIn.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH, status: 200, schemaErrors: null });
    expect(request.body).toEqual({ authorization_code: `AUTH_****${saved.token.slice(-4)}` });
    expect(standIn.authorizationsOf(standIn.secretKey)).toMatchObject([{ code: saved.token, active: false }]);

    const charge = await outcome(paystack.authorize(savedRequest(saved)));
    expect(charge).toBeInstanceOf(ConnectorRequestError);
    expect(charge).toMatchObject({ code: 'authorization_code_does_not_exist_or_has_been_deactivated' });

    const again = await outcome(paystack.detachSavedMethod({ token: saved.token }));
    expect(again).toBeInstanceOf(ConnectorRequestError);
    expect(again).toMatchObject({ code: 'authorization_code_not_found', message: PAYSTACK_STAND_IN_MESSAGES.authorizationNotFound });
    expect((again as Error).message).not.toContain(saved.token);
  });

  test('another account cannot deactivate it: refused there, still active at the issuing account', async () => {
    const b = standIn.addAccount();
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    await expect(paystackFor(b.secretKey).detachSavedMethod({ token: saved.token })).rejects.toMatchObject({
      code: 'authorization_code_not_found',
    });
    expect(standIn.authorizationsOf(standIn.secretKey)).toMatchObject([{ code: saved.token, active: true }]);
    expect((await paystackFor().authorize(savedRequest(saved))).status).toBe('Succeeded');
  });

  test('a timeout or a 5xx is a technical error (unknown: the caller retries); a retry after the work was done is refused as not found', async () => {
    const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
    standIn.failNext({ method: 'POST', path: PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH }, 'hang_after_work');
    await expect(paystackFor(standIn.secretKey, 300).detachSavedMethod({ token: saved.token })).rejects.toBeInstanceOf(
      ConnectorTechnicalError,
    );
    standIn.failNext({ method: 'POST', path: PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH }, 'error_500_before_work');
    await expect(paystackFor().detachSavedMethod({ token: saved.token })).rejects.toBeInstanceOf(ConnectorTechnicalError);
    await expect(paystackFor().detachSavedMethod({ token: saved.token })).rejects.toMatchObject({ code: 'authorization_code_not_found' });
  });

  test('the path is the one Paystack documents now (not the older /customer/deactivate_authorization); nothing is sent for an unusable token', async () => {
    await expect(paystackFor().detachSavedMethod({ token: '' })).rejects.toMatchObject({ code: 'saved_method_invalid' });
    expect(standIn.requests).toEqual([]);
    expect(PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH).toBe('/customer/authorization/deactivate');
  });

  test("Paystack's samples: 200 deactivated, 404 not found (mapped as every Paystack refusal)", () => {
    const file = 'src/api/customers/deactivate-authorization/response.json';
    expect(official(file, '200')).toEqual({ status: true, message: PAYSTACK_STAND_IN_MESSAGES.authorizationDeactivated });
    expect(official(file, '404')).toEqual({ status: false, message: PAYSTACK_STAND_IN_MESSAGES.authorizationNotFound });
    expect(paystackErrorOf(404, official(file, '404'))).toEqual({
      code: 'authorization_code_not_found',
      message: 'Authorization code not found.',
    });
  });
});

/* ------------------------------------------------------------------------------------------------
 * 4. No token in logs or errors
 * --------------------------------------------------------------------------------------------- */

describe('no authorization code in a log line or an error message', () => {
  test('save, charge, decline, refusal at another account, detach, refused charge: the logger and the console never see a token', async () => {
    const seen: string[] = [];
    const record =
      (channel: string) =>
      (...args: unknown[]) => {
        seen.push(`${channel} ${JSON.stringify(args, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v))}`);
      };
    const spies = [
      jest.spyOn(logger, 'debug').mockImplementation(record('debug')),
      jest.spyOn(logger, 'info').mockImplementation(record('info')),
      jest.spyOn(logger, 'warn').mockImplementation(record('warn')),
      jest.spyOn(logger, 'error').mockImplementation(record('error')),
      jest.spyOn(console, 'log').mockImplementation(record('console.log')),
      jest.spyOn(console, 'warn').mockImplementation(record('console.warn')),
      jest.spyOn(console, 'error').mockImplementation(record('console.error')),
    ];
    const tokens: string[] = [];
    const errors: string[] = [];
    try {
      const b = standIn.addAccount();
      const saved = await saveCard(PAYSTACK_TEST_CARDS.noValidation);
      const declining = await saveCard(PAYSTACK_TEST_CARDS.recurringDeclines);
      tokens.push(saved.token, declining.token);
      const paystack = paystackFor();
      const results: unknown[] = [
        await outcome(paystack.authorize(savedRequest(saved))),
        await outcome(paystack.authorize(savedRequest(declining))),
        await outcome(paystackFor(b.secretKey).authorize(savedRequest(saved))),
        await outcome(paystack.detachSavedMethod({ token: saved.token })),
        await outcome(paystack.authorize(savedRequest(saved))),
        await outcome(paystack.detachSavedMethod({ token: saved.token })),
      ];
      for (const r of results) {
        if (r instanceof Error) errors.push(`${r.name} ${(r as ConnectorRequestError).code ?? ''} ${r.message}`);
        else if (r && typeof r === 'object' && 'errorMessage' in r)
          errors.push(`${(r as PaymentResult).errorCode} ${(r as PaymentResult).errorMessage}`);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(errors.length).toBeGreaterThanOrEqual(4);
    for (const token of tokens) {
      for (const line of [...seen, ...errors]) expect(line).not.toContain(token);
      // The stand-in's own request log masks it as well.
      expect(JSON.stringify(standIn.requests)).not.toContain(token);
    }
  });

  test('a Paystack answer that quotes the code (charge or detach): the code is scrubbed before it becomes a code or message', async () => {
    const token = 'AUTH_quoted12345';
    // A fault-free stand-in never quotes it: a one-answer server that does (a 400 body and a failed charge).
    const answers = [
      { status: 400, body: { status: false, message: `Authorization ${token} is not reusable` } },
      {
        status: 200,
        body: {
          status: true,
          message: 'Charge attempted',
          data: { reference: 'r-1', status: 'failed', gateway_response: `Declined ${token}`, message: null },
        },
      },
      { status: 404, body: { status: false, message: `Authorization code ${token} not found.` } },
    ];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const next = answers.shift()!;
        res.writeHead(next.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const paystack = new PaystackConnector({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        secretKey: standIn.secretKey,
        webhookSecret: '',
        timeoutMs: 2000,
      });
      const refused = await outcome(paystack.authorize(savedRequest({ token, email: EMAIL })));
      expect(refused).toMatchObject({
        code: 'authorization_redacted_is_not_reusable',
        message: 'Authorization [REDACTED] is not reusable',
      });
      const declined = (await paystack.authorize(savedRequest({ token, email: EMAIL }))) as PaymentResult;
      expect(declined).toMatchObject({ status: 'Failed', errorMessage: 'Declined [REDACTED]' });
      expect(JSON.stringify(declined)).not.toContain(token);
      const detach = await outcome(paystack.detachSavedMethod({ token }));
      expect(detach).toMatchObject({ message: 'Authorization code [REDACTED] not found.' });
      for (const r of [refused, detach])
        expect(`${(r as ConnectorRequestError).code} ${(r as Error).message}`.toLowerCase()).not.toContain(token.toLowerCase());
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
