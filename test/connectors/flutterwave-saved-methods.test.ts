/**
 * Flutterwave saved cards: the adapter against the loopback stand-in with per-account ledgers
 * (test/helpers/flutterwave-stand-in.ts, started with `payments: true`), and against Flutterwave's own published
 * material.
 *
 * - A successful card charge returns the card's token as `savedMethod` (token, brand, last four, expiry, BIN, issuer
 *   country, the e-mail it is tied to; expiring a year after the charge: "Customer card tokens are valid for one year
 *   only", https://developer.flutterwave.com/docs/tokenization), from authorize, sync (verify) and a `charge.completed`
 *   webhook alike.
 * - A saved card is charged with `POST /v3/tokenized-charges` and our payment id as `tx_ref`: the charge lands in the
 *   ledger of the account that issued the token, never another's; another account refuses the token; a decline is
 *   `Failed` with Flutterwave's `processor_response`; a 3DS answer is `RequiresAction` with the redirect; a charge whose
 *   answer is lost after Flutterwave made it is found by the sync by reference.
 * - The body is the SDK's: validated against flutterwave-node-v3 1.4.1's `tokenSchema` (services/schema/create.js, repo
 *   Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c), required from node_modules.
 * - Official samples through the mapping: the SDK's documentation/tokenization.md "Charge with token" Sample Response
 *   (read from node_modules, like the other SDK samples), and fixtures/flutterwave/tokenized-charge-mintlify.json and
 *   tokenized-charge-3ds-mintlify.json (sources in fixtures/SOURCES.md, "Flutterwave saved methods").
 * - No `detachSavedMethod`: Flutterwave documents no call that revokes a card token (docs/connectors/flutterwave.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AuthorizeRequest,
  type Connector,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type SyncRequest,
} from '../../shared/connectors/connector';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { buildTokenizedCharge, FLUTTERWAVE_TOKEN_CHARGE_COUNTRY } from '../../shared/connectors/flutterwave/requests';
import { paymentResultFromCharge, paymentResultFromTransaction } from '../../shared/connectors/flutterwave/responses';
import {
  cardExpiryOf,
  cardTokenExpiresAt,
  FLUTTERWAVE_CARD_TOKEN_VALIDITY_YEARS,
  issuerCountryOf,
  savedCardOf,
} from '../../shared/connectors/flutterwave/saved-cards';
import type { FlutterwaveResponse, FlutterwaveTransaction } from '../../shared/connectors/flutterwave/wire-types';
import type { Currency } from '../../shared/domain/money';
import {
  FLUTTERWAVE_STAND_IN_MESSAGES,
  type FlutterwaveStandIn,
  type FlutterwaveStandInAccount,
  startFlutterwaveStandIn,
} from '../helpers/flutterwave-stand-in';
import { flutterwaveFixture as fixture, startFixtureServer } from './fixtures/flutterwave/fixture-server';

const BASE = 'https://api.example.test';
const CARD = { card_number: '5531886652142950', card_exp_month: '9', card_exp_year: '2032', card_cvc: '564' };
const EMAIL = 'payer@example.com';

/** One calendar year after an ISO instant (UTC), computed here independently of the adapter. */
function aYearAfter(iso: string): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString();
}

let flw: FlutterwaveStandIn;
let A: FlutterwaveStandInAccount;
let B: FlutterwaveStandInAccount;

beforeAll(async () => {
  flw = await startFlutterwaveStandIn({ payments: true });
  A = flw.accounts()[0]!;
  B = flw.addAccount();
});
afterAll(async () => {
  await flw.close();
});
afterEach(() => flw.reset());

function connectorOf(account: FlutterwaveStandInAccount, timeoutMs?: number): FlutterwaveConnector {
  return new FlutterwaveConnector({
    baseUrl: flw.url,
    secretKey: account.secretKey,
    encryptionKey: account.encryptionKey,
    webhookSecret: account.webhookHash,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

function cardRequest(paymentId: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: CARD,
    email: EMAIL,
    publicBaseUrl: BASE,
    returnUrl: `${BASE}/pay/${paymentId}/return`,
    setupFutureUsage: 'off_session',
    customer: { customerId: 'cus_saved_1', email: EMAIL },
    ...over,
  };
}

/** A merchant-initiated charge of a saved card: no card, the token and the e-mail it is tied to. */
function tokenRequest(paymentId: string, token: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const { card: _card, setupFutureUsage: _sfu, ...rest } = cardRequest(paymentId);
  return { ...rest, amount: 250000, savedMethod: { token, email: EMAIL }, offSession: true, ...over };
}

function syncRequest(paymentId: string, connectorTransactionId: string | null, over: Partial<SyncRequest> = {}): SyncRequest {
  return {
    paymentId,
    connectorTransactionId,
    amount: 250000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** Saves a card at an account: a first card charge, its token (from the ledger). */
async function saveCard(account: FlutterwaveStandInAccount, paymentId: string): Promise<string> {
  const result = await connectorOf(account).authorize(cardRequest(paymentId));
  expect(result.status).toBe('Succeeded');
  const token = flw.ledgerOf(account.secretKey).find((e) => e.txRef === paymentId)?.token;
  if (!token) throw new Error('no token issued');
  return token;
}

const MASTERCARD_2950 = { brand: 'mastercard', last4: '2950', expMonth: 9, expYear: 2032, bin: '553188', issuerCountry: 'NG' };

// ---------------------------------------------------------------------------
// Saving: every successful card answer carries the token
// ---------------------------------------------------------------------------

describe('a successful card charge saves the card: savedMethod from authorize, sync and the webhook', () => {
  test('authorize: the token of data.card, the card as Flutterwave describes it, the e-mail, a year of validity', async () => {
    const c = connectorOf(A);
    const result = await c.authorize(cardRequest('pay_save_1'));
    const [entry] = flw.ledgerOf(A.secretKey);
    expect(entry).toMatchObject({ txRef: 'pay_save_1', status: 'successful', via: 'card', amount: 1500, currency: 'NGN' });
    expect(entry?.token).toMatch(/^flw-t1nf-[0-9a-f]{32}-m03k$/);
    const expected: PaymentResult = {
      status: 'Succeeded',
      connectorTransactionId: String(entry?.id),
      amountCaptured: 150000,
      savedMethod: {
        token: entry?.token as string,
        processorCustomerId: null,
        email: EMAIL,
        fingerprint: null,
        card: MASTERCARD_2950,
        expiresAt: aYearAfter(entry?.createdAt as string),
      },
    };
    expect(result).toEqual(expected);
    // The token belongs to the account that issued it, and only to it.
    expect(flw.tokensOf(A.secretKey)).toEqual([entry?.token]);
    expect(flw.tokensOf(B.secretKey)).toEqual([]);

    // The same token on every read of that charge: verify by id, verify by our reference.
    await expect(c.sync(syncRequest('pay_save_1', String(entry?.id), { amount: 150000 }))).resolves.toEqual(expected);
    await expect(c.sync(syncRequest('pay_save_1', null, { amount: 150000 }))).resolves.toEqual(expected);
  });

  test('a charge.completed webhook is re-verified and carries the saved card too', async () => {
    const c = connectorOf(A);
    const authorized = await c.authorize(cardRequest('pay_save_wh'));
    const [entry] = flw.ledgerOf(A.secretKey);
    const body = fixture<{ data: Record<string, unknown> }>('webhook-charge-completed');
    const rawBody = JSON.stringify({ ...body, data: { ...body.data, id: entry?.id, tx_ref: 'pay_save_wh' } });
    const event = await c.parseWebhook({ rawBody, headers: { 'verif-hash': A.webhookHash } });
    expect(event).toEqual({
      kind: 'payment',
      eventId: `flw_charge.completed_${entry?.id}_successful`,
      paymentId: 'pay_save_wh',
      connectorTransactionId: String(entry?.id),
      result: authorized,
    });
    expect((event as { result: PaymentResult }).result.savedMethod?.token).toBe(entry?.token);
  });

  test('a preauthorization (manual capture) carries the token of its hold; a declined charge carries none', async () => {
    const c = connectorOf(A);
    const held = await c.authorize(cardRequest('pay_save_hold', { captureMethod: 'manual' }));
    expect(held).toMatchObject({ status: 'RequiresCapture', savedMethod: { token: flw.ledger()[0]?.token, card: MASTERCARD_2950 } });
    flw.declineNext({ path: '/v3/charges' });
    const declined = await c.authorize(cardRequest('pay_save_declined'));
    expect(declined).toEqual({
      status: 'Failed',
      connectorTransactionId: String(flw.ledger()[1]?.id),
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Insufficient Funds',
    });
    expect(flw.ledger()[1]).toMatchObject({ status: 'failed', token: null });
    expect(flw.tokensOf(A.secretKey)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// Charging a saved card: POST /v3/tokenized-charges
// ---------------------------------------------------------------------------

describe('a saved card is charged at the account that issued its token, under our payment id', () => {
  test("the tokenized charge reaches the issuing account's ledger with our reference, and no other account's", async () => {
    const token = await saveCard(A, 'pay_first');
    await saveCard(B, 'pay_first_at_b'); // B has a card and a ledger of its own
    const before = flw.ledgerOf(B.secretKey);

    const result = await connectorOf(A).authorize(tokenRequest('pay_renewal_1', token));
    const charged = flw.ledgerOf(A.secretKey).find((e) => e.txRef === 'pay_renewal_1');
    expect(charged).toMatchObject({ via: 'token', token, status: 'successful', amount: 2500, currency: 'NGN', email: EMAIL });
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: String(charged?.id),
      amountCaptured: 250000,
      // The answer carries the card's token again (as the SDK's "Charge with token" sample does).
      savedMethod: {
        token,
        processorCustomerId: null,
        email: EMAIL,
        fingerprint: null,
        card: MASTERCARD_2950,
        expiresAt: aYearAfter(charged?.createdAt as string),
      },
    });
    expect(flw.ledgerOf(B.secretKey)).toEqual(before);
    expect(flw.ledgerOf(B.secretKey).some((e) => e.txRef === 'pay_renewal_1')).toBe(false);
    const call = flw.requests.at(-1);
    expect(call).toMatchObject({ method: 'POST', path: '/v3/tokenized-charges', accountId: A.accountId, status: 200 });
    // The request log never holds the token (nor the key).
    expect(JSON.stringify(flw.requests)).not.toContain(token);

    // The sync finds it by our reference too (what the reconciler does after a lost answer).
    await expect(connectorOf(A).sync(syncRequest('pay_renewal_1', null))).resolves.toEqual(result);
  });

  test('a token of account A is refused at account B: nothing is charged anywhere, and the token is in no error', async () => {
    const token = await saveCard(A, 'pay_first_a');
    const ledgerA = flw.ledgerOf(A.secretKey);
    const err = await connectorOf(B)
      .authorize(tokenRequest('pay_wrong_account', token))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({
      code: 'invalid_card_token_no_token_of_this_merchant',
      message: FLUTTERWAVE_STAND_IN_MESSAGES.unknownToken,
    });
    expect(JSON.stringify({ message: (err as Error).message, code: (err as ConnectorRequestError).code })).not.toContain(token);
    expect(flw.requests.at(-1)).toMatchObject({ path: '/v3/tokenized-charges', accountId: B.accountId, status: 400 });
    expect(flw.ledgerOf(B.secretKey)).toEqual([]);
    expect(flw.ledgerOf(A.secretKey)).toEqual(ledgerA);
  });

  test('a token charged with another e-mail than the one it is tied to is refused (nothing charged)', async () => {
    const token = await saveCard(A, 'pay_first_mail');
    const request = tokenRequest('pay_other_mail', token, { savedMethod: { token, email: 'someone.else@example.com' } });
    await expect(connectorOf(A).authorize(request)).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      message: FLUTTERWAVE_STAND_IN_MESSAGES.tokenEmailMismatch,
    });
    expect(flw.ledgerOf(A.secretKey).map((e) => e.txRef)).toEqual(['pay_first_mail']);
  });

  test("a declined tokenized charge is Failed with Flutterwave's processor_response (recorded failed, no money moved)", async () => {
    const token = await saveCard(A, 'pay_first_decl');
    flw.declineNext({ path: '/v3/tokenized-charges', secretKey: A.secretKey }, { processorResponse: 'Insufficient Funds' });
    const result = await connectorOf(A).authorize(tokenRequest('pay_renewal_declined', token));
    const entry = flw.ledgerOf(A.secretKey).find((e) => e.txRef === 'pay_renewal_declined');
    expect(entry).toMatchObject({ status: 'failed', via: 'token', processorResponse: 'Insufficient Funds' });
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: String(entry?.id),
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Insufficient Funds',
    });
    // The sync says the same (the reconciler never turns a decline into a success).
    await expect(connectorOf(A).sync(syncRequest('pay_renewal_declined', null))).resolves.toEqual(result);
  });

  test('Flutterwave times out after making the charge: the outcome is unknown, and the sync by our reference finds it', async () => {
    const token = await saveCard(A, 'pay_first_to');
    flw.failNext({ method: 'POST', path: '/v3/tokenized-charges' }, 'hang_after_work');
    const err = await connectorOf(A, 300)
      .authorize(tokenRequest('pay_renewal_lost', token))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBeFalsy();
    expect(flw.requests.at(-1)).toMatchObject({ path: '/v3/tokenized-charges', outcome: 'hung', status: 200 });
    const made = flw.ledgerOf(A.secretKey).find((e) => e.txRef === 'pay_renewal_lost');
    expect(made).toMatchObject({ status: 'successful', via: 'token', amount: 2500 });

    // What the reconciler does: sync with no transaction id (authorize never answered) → verify_by_reference.
    const synced = await connectorOf(A).sync(syncRequest('pay_renewal_lost', null));
    expect(flw.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v3/transactions/verify_by_reference',
      query: '?tx_ref=pay_renewal_lost',
    });
    expect(synced).toMatchObject({ status: 'Succeeded', connectorTransactionId: String(made?.id), amountCaptured: 250000 });
    expect(synced.savedMethod?.token).toBe(token);
    // Charged exactly once: Flutterwave refuses a second charge under the same reference.
    await expect(connectorOf(A).authorize(tokenRequest('pay_renewal_lost', token))).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      message: FLUTTERWAVE_STAND_IN_MESSAGES.duplicateReference,
    });
    expect(flw.ledgerOf(A.secretKey).filter((e) => e.txRef === 'pay_renewal_lost')).toHaveLength(1);
  });

  test('a charge Flutterwave wants the payer to authenticate (3DS) is RequiresAction with the redirect, never a silent failure', async () => {
    const token = await saveCard(A, 'pay_first_3ds');
    flw.requireAuthenticationNext({ path: '/v3/tokenized-charges' });
    const result = await connectorOf(A).authorize(tokenRequest('pay_renewal_3ds', token));
    const entry = flw.ledgerOf(A.secretKey).find((e) => e.txRef === 'pay_renewal_3ds');
    expect(entry).toMatchObject({ status: 'pending' });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: String(entry?.id),
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: expect.stringContaining(`/mockvbvpage?ref=${entry?.flwRef}`) },
    });
    // The payer authenticates; the sync then settles it.
    flw.completeAuthentication(A.secretKey, 'pay_renewal_3ds', 'successful');
    await expect(connectorOf(A).sync(syncRequest('pay_renewal_3ds', String(entry?.id)))).resolves.toMatchObject({
      status: 'Succeeded',
      amountCaptured: 250000,
      savedMethod: { token },
    });
  });

  test('manual capture preauthorizes the saved card (RequiresCapture); no detachSavedMethod exists', async () => {
    const token = await saveCard(A, 'pay_first_pre');
    const held = await connectorOf(A).authorize(tokenRequest('pay_renewal_hold', token, { captureMethod: 'manual' }));
    expect(held).toMatchObject({ status: 'RequiresCapture', amountCaptured: 0, savedMethod: { token } });
    expect(flw.ledgerOf(A.secretKey).at(-1)).toMatchObject({ txRef: 'pay_renewal_hold', chargeType: 'preauth' });
    // Flutterwave documents no call that revokes a card token: the method is absent (forgotten on our side only).
    const asConnector: Connector = connectorOf(A);
    expect(asConnector.detachSavedMethod).toBeUndefined();
    expect('detachSavedMethod' in connectorOf(A)).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// The body, against the SDK's own schema
// ---------------------------------------------------------------------------

interface JoiSchema {
  validate(value: unknown, options?: { abortEarly?: boolean }): { error?: { details: Array<{ message: string }> } };
}
const { tokenSchema } = require('flutterwave-node-v3/services/schema/create') as { tokenSchema: JoiSchema };
const problems = (value: unknown) => tokenSchema.validate(value, { abortEarly: false }).error?.details.map((d) => d.message) ?? [];

describe('the body of POST /v3/tokenized-charges', () => {
  test('token, currency, country, major-unit amount, the e-mail tied to the token, our payment id as tx_ref, narration, redirect_url', () => {
    const body = buildTokenizedCharge(tokenRequest('pay_body', 'flw-t1nf-f9b3bf384cd30d6fca42b6df9d27bd2f-m03k'));
    expect(body).toEqual({
      token: 'flw-t1nf-f9b3bf384cd30d6fca42b6df9d27bd2f-m03k',
      currency: 'NGN',
      country: 'NG',
      amount: '2500.00',
      email: EMAIL,
      tx_ref: 'pay_body',
      narration: 'Payment pay_body',
      redirect_url: `${BASE}/pay/pay_body/return`,
    });
    expect(problems(body)).toEqual([]);
  });

  test.each<[Currency, string | undefined]>([
    ['NGN', 'NG'],
    ['GHS', 'GH'],
    ['KES', 'KE'],
    ['ZAR', 'ZA'],
    ['USD', undefined],
  ])('%s: country %s; manual capture adds preauthorize; every body passes the SDK schema', (currency, country) => {
    expect(FLUTTERWAVE_TOKEN_CHARGE_COUNTRY[currency]).toBe(country);
    const body = buildTokenizedCharge(tokenRequest('pay_cur', 'flw-t1nf-x', { currency, captureMethod: 'manual' }));
    expect(body.country).toBe(country);
    expect('country' in body).toBe(country !== undefined);
    expect(body.preauthorize).toBe(true);
    expect(problems(body)).toEqual([]);
  });

  test('the e-mail the token is tied to wins over the payment e-mail; the payment e-mail when the method has none', () => {
    expect(buildTokenizedCharge(tokenRequest('p', 't', { email: 'other@example.com' })).email).toBe(EMAIL);
    expect(buildTokenizedCharge(tokenRequest('p', 't', { savedMethod: { token: 't' }, email: 'pay@example.com' })).email).toBe(
      'pay@example.com',
    );
  });

  test.each<[string, Partial<AuthorizeRequest>]>([
    ['saved_method_required', { savedMethod: { token: '  ' } }],
    ['email_required', { savedMethod: { token: 't', email: null }, email: null }],
    ['unsupported_payment_method', { paymentMethod: 'mobile_money', currency: 'KES' }],
  ])('refused before anything is sent: %s', async (code, over) => {
    const before = flw.requests.length;
    await expect(connectorOf(A).authorize(tokenRequest('pay_refused', 't', over))).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code,
    });
    expect(flw.requests.length).toBe(before);
  });

  test('a refusal that echoes the token never carries it out of the adapter', async () => {
    const server = await startFixtureServer();
    try {
      const token = 'flw-t1nf-0123456789abcdef0123456789abcdef-m03k';
      server.reply({ status: 400, body: { status: 'error', message: `Token ${token} has expired`, data: null } });
      const c = new FlutterwaveConnector({
        baseUrl: server.baseUrl,
        secretKey: A.secretKey,
        encryptionKey: A.encryptionKey,
        webhookSecret: '',
      });
      const err = (await c.authorize(tokenRequest('pay_echo', token)).catch((e: unknown) => e)) as ConnectorRequestError;
      expect(err).toBeInstanceOf(ConnectorRequestError);
      expect(err.message).toBe('Token [redacted] has expired');
      expect(err.code).toBe('token_redacted_has_expired'); // the slug of the masked message, not of the token
      expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v3/tokenized-charges' });
      expect(JSON.parse(server.requests[0]?.body ?? '{}')).toMatchObject({ token, tx_ref: 'pay_echo', amount: '2500.00' });
    } finally {
      await server.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Flutterwave's own samples through the mapping
// ---------------------------------------------------------------------------

const SDK_DIR = join(require.resolve('flutterwave-node-v3/package.json'), '..');

/** The "Charge with token" Sample Response of flutterwave-node-v3 1.4.1 documentation/tokenization.md. */
function sdkChargeWithToken(): FlutterwaveResponse<FlutterwaveTransaction> {
  const md = readFileSync(join(SDK_DIR, 'documentation', 'tokenization.md'), 'utf8');
  const section = md.split('## Charge with token')[1] ?? '';
  const sample = /Sample Response\s*```javascript\n([\s\S]*?)```/.exec(section)?.[1];
  return JSON.parse(sample ?? 'null') as FlutterwaveResponse<FlutterwaveTransaction>;
}

const cardContext = (paymentId: string) => ({
  request: { amount: 30000, currency: 'NGN' as const, paymentId, captureMethod: 'automatic' as const, publicBaseUrl: BASE },
  type: 'card' as const,
  now: Date.UTC(2026, 0, 15),
});

describe("Flutterwave's published tokenized-charge samples through paymentResultFromCharge", () => {
  test('SDK tokenization.md "Charge with token": Succeeded, the token charged comes back, a year after created_at', () => {
    const sample = sdkChargeWithToken();
    expect(sample.message).toBe('Charge successful');
    expect(paymentResultFromCharge(sample, cardContext('new-live-test'))).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '277036749',
      amountCaptured: 30000,
      savedMethod: {
        token: 'flw-t1nf-f9b3bf384cd30d6fca42b6df9d27bd2f-m03k',
        processorCustomerId: null,
        email: 'user@example.com',
        fingerprint: null,
        card: { brand: 'mastercard', last4: '7890', expMonth: 8, expYear: 2022, bin: '123456', issuerCountry: 'NG' },
        expiresAt: '2021-06-01T01:31:59.000Z',
      },
    });
  });

  test('mintlify "Create a Tokenized Charge" 200 sample: Succeeded with the token of its answer', () => {
    expect(paymentResultFromCharge(fixture('tokenized-charge-mintlify'), cardContext('akhlm-pstmn-23452'))).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '1163077',
      amountCaptured: 3030000,
      savedMethod: {
        token: 'flw-t0-d0185c6edad078c9e8304c4f78b8cd5b-m03k',
        processorCustomerId: null,
        email: 'user@example.com',
        fingerprint: null,
        card: { brand: 'mastercard', last4: '2950', expMonth: 9, expYear: 2022, bin: '553188', issuerCountry: 'NG' },
        expiresAt: '2021-03-11T19:33:20.000Z',
      },
    });
  });

  test('mintlify tokenization guide, a subsequent charge under 3DS (pending, redirect): RequiresAction, no saved card yet', () => {
    const sample = fixture<FlutterwaveResponse<FlutterwaveTransaction>>('tokenized-charge-3ds-mintlify');
    expect(paymentResultFromCharge(sample, cardContext('testToken111'))).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '2534420',
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: sample.data?.meta?.authorization?.redirect },
    });
  });

  test('verify-transaction.json ("NIGERIA NG", VERVE, 02/23) through paymentResultFromTransaction', () => {
    const tx = fixture<FlutterwaveResponse<FlutterwaveTransaction>>('verify-transaction').data as FlutterwaveTransaction;
    expect(paymentResultFromTransaction(tx, { preauthorized: false, pendingStatus: 'RequiresAction' }).savedMethod).toEqual({
      token: 'flw-t1nf-4676a40c7ddf5f12scr432aa12d471973-k3n',
      processorCustomerId: null,
      email: 'payer@example.com',
      fingerprint: null,
      card: { brand: 'verve', last4: '4567', expMonth: 2, expYear: 2023, bin: '232343', issuerCountry: 'NG' },
      expiresAt: '2021-07-15T14:31:16.000Z',
    });
  });

  test('a successful charge without card.token (charge-card-successful.json) carries no savedMethod', () => {
    const result = paymentResultFromCharge(fixture('charge-card-successful'), cardContext('pay_flw_card'));
    expect(result.status).toBe('Succeeded');
    expect(result).not.toHaveProperty('savedMethod');
  });
});

describe('reading a card: expiry, issuer country, brand; a token expires a year after its charge', () => {
  test('a token is valid for one calendar year from the charge (29 February → 28 February); without created_at, from now', () => {
    expect(FLUTTERWAVE_CARD_TOKEN_VALIDITY_YEARS).toBe(1);
    expect(cardTokenExpiresAt('2026-03-05T10:11:12.345Z', 0)).toBe('2027-03-05T10:11:12.345Z');
    expect(cardTokenExpiresAt('2024-02-29T08:00:00.000Z', 0)).toBe('2025-02-28T08:00:00.000Z');
    expect(cardTokenExpiresAt('2026-03-05 10:11:12', 0)).toBe('2027-03-05T10:11:12.000Z');
    expect(cardTokenExpiresAt(undefined, Date.UTC(2026, 0, 15, 12))).toBe('2027-01-15T12:00:00.000Z');
    expect(cardTokenExpiresAt('not a date', Date.UTC(2026, 0, 15, 12))).toBe('2027-01-15T12:00:00.000Z');
  });

  test.each([
    ['09/32', { expMonth: 9, expYear: 2032 }],
    ['1/27', { expMonth: 1, expYear: 2027 }],
    ['12/2030', { expMonth: 12, expYear: 2030 }],
    ['13/30', null],
    ['0930', null],
    [undefined, null],
  ])('expiry %s → %j', (expiry, expected) => {
    expect(cardExpiryOf(expiry)).toEqual(expected);
  });

  test.each([
    ['NG', 'NG'],
    ['NIGERIA NG', 'NG'],
    [' gh ', 'GH'],
    ['Nigeria', null],
    ['', null],
    [null, null],
  ])('issuer country %j → %j', (country, expected) => {
    expect(issuerCountryOf(country)).toBe(expected);
  });

  test('brand is card.type in lower case (unknown without one); unreadable last four or expiry → no card details', () => {
    expect(savedCardOf({ type: ' VISA ', last_4digits: '4081', expiry: '12/30', first_6digits: '408408', country: 'NG' })).toEqual({
      brand: 'visa',
      last4: '4081',
      expMonth: 12,
      expYear: 2030,
      bin: '408408',
      issuerCountry: 'NG',
    });
    expect(savedCardOf({ last_4digits: '4081', expiry: '12/30' })).toMatchObject({ brand: 'unknown', bin: null, issuerCountry: null });
    expect(savedCardOf({ type: 'VISA', last_4digits: '40', expiry: '12/30' })).toBeNull();
    expect(savedCardOf({ type: 'VISA', last_4digits: '4081', expiry: 'soon' })).toBeNull();
  });
});

test('the stand-in without payments: true still serves only GET /v3/balances (the earlier behaviour)', async () => {
  const plain = await startFlutterwaveStandIn();
  try {
    const res = await fetch(`${plain.url}/v3/tokenized-charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${plain.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token: 't' }),
    });
    expect(res.status).toBe(404);
    await expect(res.json()).resolves.toMatchObject({ status: 'error', data: null });
  } finally {
    await plain.close();
  }
});
