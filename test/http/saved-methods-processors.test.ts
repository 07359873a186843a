/**
 * Saved payment methods on merchants' own processor accounts, end to end through the local API — gateway,
 * handlers, DynamoDB Local (a table of this file's own, so the reconciler sees only these items), the real adapters —
 * against the loopback stand-ins of Paystack, Flutterwave and Stripe with a ledger per account
 * (test/helpers/{paystack,flutterwave,stripe}-stand-in.ts). For each processor, a merchant connects two accounts of it
 * (B, then A: its default fallback would pick B) and:
 * 1. a payment pinned to A with `setup_future_usage: off_session` succeeds and saves the card (`payment_method_id`,
 *    `payment_method.attached` with the card's last4/brand and A's `merchant_connector_id`);
 * 2. an off-session charge of it (`payment_method_id`, `off_session: true`) succeeds through A: A's ledger has it
 *    under our reference, charged with the token A issued; B's ledger and the platform's account have nothing;
 * 3. a saved card the processor declines → `Failed` with the processor's code; one that needs the payer →
 *    `RequiresAction` with a `next_action` (each processor's documented way: Paystack's stand-in test cards
 *    `recurringDeclines`/`recurringChallenged`, Flutterwave's `declineNext`/`requireAuthenticationNext`, Stripe's
 *    `declineCharges` and the 3DS card `4000002760003184`);
 * 4. the processor makes the charge but its answer is lost (`hang_after_work`) → 200 `Processing` with
 *    `pending_operation` (docs/api.md "Unknown outcomes"); one reconciler pass at the convergence bound after the
 *    fault settles it `Succeeded`, equal to A's ledger, with exactly one charge;
 * 5. `DELETE /payment_methods/{id}` detaches it at the processor through A (Paystack's deactivate, Stripe's detach;
 *    Flutterwave has no such call: forgotten here only), and it can no longer be charged;
 * 6. no token the stand-in issued appears in any API answer, event or table item (a dump of the table).
 */
// First: the whole file logs at DEBUG with event logging on, and ends checking the log for secrets.
import '../helpers/secret-log-check';
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../scripts/local/ensure-table';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { CONVERGENCE_BOUND_MS, RECONCILE_SETTLE_ALLOWANCE_MS } from '../../shared/settings/reconcile-settings';
import { documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { type FlutterwaveStandIn, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';
import { card, type LocalApi, type RequestOptions, startLocalApi, type TestResponse } from '../helpers/local-api';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { expectNoSecretInLog } from '../helpers/secret-log-check';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

type Json = Record<string, any>;
type ProcessorName = 'paystack' | 'flutterwave' | 'stripe';

/** The processors' timeout in this file: a lost answer ends in a second. */
const TIMEOUT_MS = 1000;
const table = `switchyard-saved-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;
const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
let flutterwave: FlutterwaveStandIn;
let stripe: StripeStandIn;
/** Every answer body of this file, to look for tokens in. */
const answers: string[] = [];

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
  [paystack, flutterwave, stripe] = await Promise.all([
    startPaystackStandIn(),
    startFlutterwaveStandIn({ payments: true }),
    startStripeStandIn(),
  ]);
  // Only the processors' addresses: the platform has no account of its own at any of them (its keys are unset), so a
  // call that reached a stand-in's default account would be a merchant's call sent with the wrong key.
  env.set({
    PAYSTACK_BASE_URL: paystack.url,
    FLUTTERWAVE_BASE_URL: flutterwave.url,
    STRIPE_BASE_URL: stripe.url,
    CONNECTOR_TIMEOUT_MS: String(TIMEOUT_MS),
    CONNECTOR_CONFIG_CACHE_MS: '0',
    // A lost answer is a technical failure of the account: the breaker has its own suite, here it never opens.
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
  });
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await Promise.all([paystack?.close(), flutterwave?.close(), stripe?.close()]);
  env.restore();
  process.env.TABLE_NAME = savedTable;
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** A connected account of a stand-in: its key there and its `mca_…` here. */
interface Account {
  key: string;
  mca: string;
}

/** What the stand-in's ledger of one account holds for one of our payments (under our reference). */
interface LedgerView {
  /** Ledger entries under our reference (a processor that took the reference twice would show 2). */
  entries: number;
  /** Successful charges (money taken). */
  charges: number;
  /** Taken, in minor units. */
  amountCaptured: number;
  /** The processor's status word. */
  status: string;
  /** The reusable token the charge issued (a card charge) or charged (a saved-method charge). */
  token: string | null;
  /** The charge was made with a saved token, not card details. */
  viaToken: boolean;
}

/** A merchant of one describe: its key, its two accounts of the processor, its customer. */
interface Merchant {
  key: string;
  a: Account;
  b: Account;
  customer: string;
  email: string;
}

/** How each processor is driven and read. */
interface ProcessorCase {
  name: ProcessorName;
  currency: 'NGN' | 'USD';
  /** The card saved in 1. and charged in 2., 4. and 5. */
  card: { number: string; brand: string; last4: string };
  /** Opens an account at the stand-in: its key and the `POST /connector_accounts` body. */
  openAccount(): { key: string; body: Record<string, unknown> };
  /** The stand-in's ledger of the account `key` for our payment `paymentId` (undefined: nothing there). */
  ledger(key: string, paymentId: string): LedgerView | undefined;
  /** Every reusable token the account issued (secret: never in an answer, event or item). */
  tokens(key: string): string[];
  /** How many entries the default (platform) account's ledger holds: it must stay empty. */
  platformLedgerSize(): number;
  /** Arms the next charge at the account to be made, then its answer lost. */
  loseNextAnswer(key: string): void;
  /**
   * A saved method whose next off-session charge the processor declines, with the `error_code` we expect and what
   * undoes the arrangement; `saved` is the method of 1. and the payment that saved it.
   */
  declining(m: Merchant, saved: { pmId: string; paymentId: string }): Promise<{ pmId: string; code: string; after?: () => void }>;
  /** A saved method whose next off-session charge needs the payer (authentication). */
  needsPayer(m: Merchant, saved: { pmId: string; paymentId: string }): Promise<string>;
  /** Whether the token is detached (deactivated) at the processor now (false for a processor with no such call). */
  detachedThere(key: string, token: string): boolean;
  /** The stand-in's request log: method, path (no query) and the account the key named (null: none, 401). */
  log(): StandInCall[];
  /** The stand-in's account id of a key (what its request log records); no key: its default account's. */
  accountIdOf(key?: string): string | number;
  /** The read-only call that verifies an account's credentials when it is connected. */
  verifyCall: string;
}

/** One request a stand-in received. */
interface StandInCall {
  call: string;
  account: string | number | null;
}

/** A request whose answer is kept for the token checks. */
async function call(key: string, method: string, path: string, body?: unknown): Promise<TestResponse> {
  const options: RequestOptions = { key, ...(body !== undefined ? { body } : {}) };
  const res = await api.request(method, path, options);
  answers.push(res.text);
  return res;
}

/** Asserts a 200 and returns the body. */
function ok(res: TestResponse): Json {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  return res.body;
}

const acceptance = {
  acceptance_type: 'online',
  accepted_at: '2026-11-20T10:00:00Z',
  online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
};

/** A payment pinned to the merchant's account A that saves `number` on `customer` for off-session use. */
async function savingPayment(p: ProcessorCase, m: Merchant, number: string, customer = m.customer): Promise<TestResponse> {
  return call(m.key, 'POST', '/payments', {
    amount: 5000,
    currency: p.currency,
    confirm: true,
    customer_id: customer,
    email: m.email,
    payment_method_data: card(number),
    setup_future_usage: 'off_session',
    customer_acceptance: acceptance,
    merchant_connector_id: m.a.mca,
  });
}

/** An off-session charge of a saved method (routing is the method's: no pin). */
function offSessionCharge(p: ProcessorCase, m: Merchant, pmId: string, amount = 2500): Promise<TestResponse> {
  return call(m.key, 'POST', '/payments', { amount, currency: p.currency, confirm: true, payment_method_id: pmId, off_session: true });
}

/** A new customer of the merchant. */
async function newCustomer(key: string, email: string): Promise<string> {
  return ok(await call(key, 'POST', '/customers', { email, name: 'Ada Obi' })).customer_id;
}

/* ------------------------------------------------------------------ the three processors */

const paystackCase: ProcessorCase = {
  name: 'paystack',
  currency: 'NGN',
  card: { number: PAYSTACK_TEST_CARDS.noValidation.number, brand: 'visa', last4: '4081' },
  openAccount() {
    const { secretKey } = paystack.addAccount();
    return { key: secretKey, body: { connector_name: 'paystack', connector_account_details: { api_key: secretKey } } };
  },
  ledger(key, paymentId) {
    const e = paystack.ledgerOf(key)[paystackReference(paymentId)];
    if (!e) return undefined;
    return {
      entries: 1,
      charges: e.status === 'success' ? 1 : 0,
      amountCaptured: e.amountCaptured,
      status: e.status,
      token: e.authorizationCode,
      viaToken: e.viaChargeAuthorization,
    };
  },
  tokens: (key) => paystack.authorizationsOf(key).map((a) => a.code),
  platformLedgerSize: () => Object.keys(paystack.ledger()).length,
  loseNextAnswer(key) {
    paystack.failNext({ method: 'POST', path: '/transaction/charge_authorization', secretKey: key }, 'hang_after_work');
  },
  async declining(m) {
    // The stand-in's recurring test card: paid at once, its saved authorization declined later ("Insufficient funds").
    const customer = await newCustomer(m.key, m.email);
    const saved = ok(await savingPayment(this, m, PAYSTACK_TEST_CARDS.recurringDeclines.number, customer));
    expect(saved).toMatchObject({ status: 'Succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
    return { pmId: saved.payment_method_id, code: 'insufficient_funds' };
  },
  async needsPayer(m) {
    // Paystack's Two-Factor challenge of a recurring charge (`paused` with an `authorization_url`).
    const customer = await newCustomer(m.key, m.email);
    const saved = ok(await savingPayment(this, m, PAYSTACK_TEST_CARDS.recurringChallenged.number, customer));
    expect(saved).toMatchObject({ status: 'Succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
    return saved.payment_method_id;
  },
  detachedThere: (key, token) => paystack.authorizationsOf(key).find((a) => a.code === token)?.active === false,
  log: () => paystack.requests.map((r) => ({ call: `${r.method} ${r.path}`, account: r.integration })),
  accountIdOf: (key) => paystack.accounts().find((a) => a.secretKey === (key ?? paystack.secretKey))!.integration,
  verifyCall: 'GET /balance',
};

const flutterwaveCase: ProcessorCase = {
  name: 'flutterwave',
  currency: 'NGN',
  // Flutterwave's test Mastercard (https://developer.flutterwave.com/docs/test-cards): charged at once (NOAUTH).
  card: { number: '5531886652142950', brand: 'mastercard', last4: '2950' },
  openAccount() {
    const a = flutterwave.addAccount();
    return {
      key: a.secretKey,
      body: { connector_name: 'flutterwave', connector_account_details: { api_key: a.secretKey, key1: a.encryptionKey } },
    };
  },
  ledger(key, paymentId) {
    const entries = flutterwave.ledgerOf(key).filter((e) => e.txRef === paymentId);
    if (entries.length === 0) return undefined;
    const paid = entries.filter((e) => e.status === 'successful');
    const last = entries[entries.length - 1]!;
    return {
      entries: entries.length,
      charges: paid.length,
      amountCaptured: Math.round(paid.reduce((s, e) => s + e.amount, 0) * 100),
      status: last.status,
      token: last.token,
      viaToken: last.via === 'token',
    };
  },
  tokens: (key) => flutterwave.tokensOf(key),
  platformLedgerSize: () => flutterwave.ledger().length,
  loseNextAnswer(key) {
    flutterwave.failNext({ method: 'POST', path: '/v3/tokenized-charges', secretKey: key }, 'hang_after_work');
  },
  async declining(m, saved) {
    flutterwave.declineNext({ method: 'POST', path: '/v3/tokenized-charges', secretKey: m.a.key });
    // `processor_response` "Insufficient Funds" (fixtures/flutterwave/charge-card-failed.json), as its slug.
    return { pmId: saved.pmId, code: 'insufficient_funds' };
  },
  async needsPayer(m, saved) {
    // "By default, subsequent charges use [3DS]": a tokenized charge answered pending with a redirect.
    flutterwave.requireAuthenticationNext({ method: 'POST', path: '/v3/tokenized-charges', secretKey: m.a.key });
    return saved.pmId;
  },
  // Flutterwave documents no call that revokes a card token (docs/connectors/flutterwave.md): nothing is asked there.
  detachedThere: () => false,
  log: () => flutterwave.requests.map((r) => ({ call: `${r.method} ${r.path}`, account: r.accountId })),
  accountIdOf: (key) => flutterwave.accounts().find((a) => a.secretKey === (key ?? flutterwave.secretKey))!.accountId,
  verifyCall: 'GET /v3/balances',
};

const stripeCase: ProcessorCase = {
  name: 'stripe',
  currency: 'USD',
  card: { number: '4242424242424242', brand: 'visa', last4: '4242' },
  openAccount() {
    const a = stripe.addAccount();
    return {
      key: a.secretKey,
      body: {
        connector_name: 'stripe',
        connector_account_details: { api_key: a.secretKey },
        connector_webhook_details: { merchant_secret: a.webhookSecret },
      },
    };
  },
  ledger(key, paymentId) {
    const e = stripe.ledgerOf(key)[paymentId];
    if (!e) return undefined;
    const intent = stripe
      .paymentIntentsOf(key)
      .filter((pi) => pi.paymentId === paymentId)
      .at(-1);
    return {
      entries: e.paymentIntentIds.length,
      charges: e.charges,
      amountCaptured: e.amountCaptured,
      status: e.status,
      token: intent?.paymentMethod ?? null,
      // A saved PaymentMethod charged again: the intent names the Customer and was not a saving one.
      viaToken: Boolean(intent?.customer) && intent?.setupFutureUsage === null,
    };
  },
  // Every PaymentMethod of the account: those attached to its Customers (saved) and any other one.
  tokens: (key) => [
    ...new Set([
      ...stripe.customersOf(key).flatMap((c) => [...c.paymentMethodIds, ...c.detachedPaymentMethodIds]),
      ...stripe.paymentMethodsOf(key).map((pm) => pm.id),
    ]),
  ],
  platformLedgerSize: () => Object.keys(stripe.ledger()).length,
  loseNextAnswer(key) {
    stripe.failNext({ method: 'POST', path: '/v1/payment_intents', secretKey: key }, 'hang_after_work');
  },
  async declining(m, saved) {
    // A saved card the issuer starts to decline (as Stripe's 4000000000000341 once attached): 402 card_declined,
    // decline_code insufficient_funds (https://docs.stripe.com/declines/codes).
    const token = this.ledger(m.a.key, saved.paymentId)!.token!;
    stripe.declineCharges(token, { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' }, m.a.key);
    return { pmId: saved.pmId, code: 'insufficient_funds', after: () => stripe.declineCharges(token, null, m.a.key) };
  },
  async needsPayer(m) {
    // Stripe's 3DS card that asks on every transaction (https://docs.stripe.com/testing#regulatory-cards): the saving
    // payment waits for the payer's 3DS, which passes; a sync then saves the card.
    const customer = await newCustomer(m.key, m.email);
    const first = ok(await savingPayment(this, m, '4000002760003184', customer));
    expect(first).toMatchObject({ status: 'RequiresAction', next_action: { type: 'redirect_to_url' } });
    const intent = stripe.paymentIntentsOf(m.a.key).find((pi) => pi.paymentId === first.payment_id)!;
    stripe.completeAuthentication(intent.id, 'succeeded', m.a.key);
    const synced = ok(await call(m.key, 'GET', `/payments/${first.payment_id}?force_sync=true`));
    expect(synced).toMatchObject({ status: 'Succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
    return synced.payment_method_id;
  },
  detachedThere: (key, token) => stripe.customersOf(key).some((c) => c.detachedPaymentMethodIds.includes(token)),
  log: () => stripe.requests.map((r) => ({ call: `${r.method} ${r.path}`, account: r.accountId })),
  accountIdOf: (key) => stripe.accounts().find((a) => a.secretKey === (key ?? stripe.secretKey))!.accountId,
  verifyCall: 'GET /v1/balance',
};

/* ------------------------------------------------------------------ the proof, per processor */

describe.each([paystackCase, flutterwaveCase, stripeCase])('$name: saved methods on a merchant account', (p) => {
  const m: Merchant = { key: '', a: { key: '', mca: '' }, b: { key: '', mca: '' }, customer: '', email: '' };
  /** The method saved in 1., and the payment that saved it. */
  const saved = { pmId: '', paymentId: '' };
  const connect = async (): Promise<Account> => {
    const { key, body } = p.openAccount();
    const res = ok(await call(m.key, 'POST', '/connector_accounts', body));
    return { key, mca: res.merchant_connector_id };
  };
  /**
   * What only A may hold: nothing in B's ledger, nothing in the platform's (default) account; B was only ever asked to
   * verify its key when connected, and every request the stand-in received named an account (no 401).
   */
  const expectOnlyInA = (paymentId: string) => {
    expect(p.ledger(m.b.key, paymentId)).toBeUndefined();
    expect(p.platformLedgerSize()).toBe(0);
    const log = p.log();
    expect(log.filter((r) => r.account === p.accountIdOf(m.b.key)).map((r) => r.call)).toEqual([p.verifyCall]);
    expect(log.filter((r) => r.account === p.accountIdOf() || r.account === null)).toEqual([]);
  };

  beforeAll(async () => {
    m.key = await api.newMerchantKey();
    m.email = `payer+${p.name}@example.com`;
    // B first: the merchant's default fallback (its accounts in connection order) would route to B; only the pin
    // and the saved method's issuing account send payments to A.
    m.b = await connect();
    m.a = await connect();
    m.customer = await newCustomer(m.key, m.email);
  });

  test('1. a payment pinned to A with setup_future_usage: off_session succeeds and saves the card', async () => {
    const first = ok(await savingPayment(p, m, p.card.number));
    expect(first).toMatchObject({
      status: 'Succeeded',
      connector: p.name,
      merchant_connector_id: m.a.mca,
      customer_id: m.customer,
      setup_future_usage: 'off_session',
      payment_method_id: expect.stringMatching(/^pm_/),
    });
    saved.pmId = first.payment_method_id;
    saved.paymentId = first.payment_id;
    const atA = p.ledger(m.a.key, first.payment_id);
    expect(atA).toMatchObject({ charges: 1, amountCaptured: 5000, viaToken: false, token: expect.any(String) });
    expectOnlyInA(first.payment_id);

    const events = ok(await call(m.key, 'GET', '/events?type=payment_method.attached')).data as Json[];
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      payment_method_id: saved.pmId,
      customer_id: m.customer,
      type: 'card',
      card: { brand: p.card.brand, last4: p.card.last4 },
      connector: p.name,
      merchant_connector_id: m.a.mca,
      recurring_enabled: true,
      status: 'active',
      payment_id: first.payment_id,
    });
    expect(ok(await call(m.key, 'GET', `/payment_methods/${saved.pmId}`))).toEqual(events[0]!.data);
  });

  test("2. an off-session charge of it succeeds through A, in A's ledger under our reference, nowhere else", async () => {
    const res = ok(await offSessionCharge(p, m, saved.pmId));
    expect(res).toMatchObject({
      status: 'Succeeded',
      amount_captured: 2500,
      connector: p.name,
      merchant_connector_id: m.a.mca,
      payment_method_id: saved.pmId,
      customer_id: m.customer,
      error_code: null,
    });
    const atA = p.ledger(m.a.key, res.payment_id);
    expect(atA).toEqual({
      entries: 1,
      charges: 1,
      amountCaptured: 2500,
      status: expect.any(String),
      // Charged with the token A issued for the card of 1.
      token: p.ledger(m.a.key, saved.paymentId)!.token,
      viaToken: true,
    });
    expectOnlyInA(res.payment_id);
    // The method notes its use.
    expect(ok(await call(m.key, 'GET', `/payment_methods/${saved.pmId}`))).toMatchObject({
      status: 'active',
      last_used_at: res.updated_at,
    });
  });

  test('3. a declining saved card → Failed with the processor’s code; one that needs the payer → RequiresAction with next_action', async () => {
    const declining = await p.declining(m, saved);
    try {
      const declined = ok(await offSessionCharge(p, m, declining.pmId));
      expect(declined).toMatchObject({
        status: 'Failed',
        error_code: declining.code,
        amount_captured: 0,
        merchant_connector_id: m.a.mca,
        pending_operation: null,
      });
      expect(p.ledger(m.a.key, declined.payment_id)).toMatchObject({ charges: 0, amountCaptured: 0, viaToken: true });
      expectOnlyInA(declined.payment_id);
    } finally {
      declining.after?.();
    }

    const needsPayer = await p.needsPayer(m, saved);
    const waiting = ok(await offSessionCharge(p, m, needsPayer));
    expect(waiting).toMatchObject({
      status: 'RequiresAction',
      amount_captured: 0,
      merchant_connector_id: m.a.mca,
      next_action: { type: 'redirect_to_url', redirect_to_url: expect.stringMatching(/^https?:\/\//) },
      pending_operation: null,
    });
    expect(p.ledger(m.a.key, waiting.payment_id)).toMatchObject({ charges: 0, amountCaptured: 0 });
    expectOnlyInA(waiting.payment_id);
  });

  test('4. the charge is made but its answer lost → Processing with pending_operation; the reconciler settles it Succeeded, one charge', async () => {
    p.loseNextAnswer(m.a.key);
    const t0 = Date.now();
    const res = ok(await offSessionCharge(p, m, saved.pmId, 3100));
    expect(res).toMatchObject({
      status: 'Processing',
      error_code: 'connector_unreachable',
      merchant_connector_id: m.a.mca,
      pending_operation: {
        operation: 'authorize',
        connector: p.name,
        merchant_connector_id: m.a.mca,
        reference: res.payment_id,
        amount: 3100,
        state: 'in_progress',
      },
    });
    // The processor did it: one charge at A, none here yet.
    expect(p.ledger(m.a.key, res.payment_id)).toMatchObject({ entries: 1, charges: 1, amountCaptured: 3100, viaToken: true });
    expect(ok(await call(m.key, 'GET', `/payments/${res.payment_id}`))).toMatchObject({ status: 'Processing', amount_captured: 0 });

    // One reconciler pass at the convergence bound after the fault (docs/money-safety.md "Convergence"), past the claim's lease.
    const pass = t0 + CONVERGENCE_BOUND_MS - RECONCILE_SETTLE_ALLOWANCE_MS;
    expect(Date.parse(res.pending_operation.lease_expires_at)).toBeLessThan(pass);
    const realNow = Date.now.bind(Date);
    const offset = pass - realNow();
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const report = await reconcileOpenOperations({ deadlineMs: pass + 60_000 });
    jest.restoreAllMocks();
    expect(report.outcomes['payment:settled']).toBeGreaterThanOrEqual(1);

    const settled = ok(await call(m.key, 'GET', `/payments/${res.payment_id}`));
    const atA = p.ledger(m.a.key, res.payment_id)!;
    expect(atA).toMatchObject({ entries: 1, charges: 1, viaToken: true, token: p.ledger(m.a.key, saved.paymentId)!.token });
    expect(settled).toMatchObject({
      status: 'Succeeded',
      amount_captured: atA.amountCaptured,
      merchant_connector_id: m.a.mca,
      payment_method_id: saved.pmId,
      pending_operation: null,
    });
    expect(atA.amountCaptured).toBe(3100);
    expectOnlyInA(res.payment_id);
    // The reconciler's settling notes the method's use as a direct answer would.
    expect(ok(await call(m.key, 'GET', `/payment_methods/${saved.pmId}`)).last_used_at).toBe(settled.updated_at);
  });

  test('5. DELETE /payment_methods/{id} detaches it at the processor through A; it can no longer be charged', async () => {
    const token = p.ledger(m.a.key, saved.paymentId)!.token!;
    expect(p.detachedThere(m.a.key, token)).toBe(false);
    const before = p.log().length;
    const detached = ok(await call(m.key, 'DELETE', `/payment_methods/${saved.pmId}`));
    expect(detached).toMatchObject({ payment_method_id: saved.pmId, status: 'detached', merchant_connector_id: m.a.mca });
    // One call at the processor, with A's key (Paystack's "Deactivate Authorization", Stripe's detach), or none at all
    // where the processor has no such call (Flutterwave: the token is forgotten here only).
    const expected = {
      paystack: ['POST /customer/authorization/deactivate'],
      flutterwave: [],
      stripe: [`POST /v1/payment_methods/${token}/detach`],
    }[p.name];
    expect(p.log().slice(before)).toEqual(expected.map((c) => ({ call: c, account: p.accountIdOf(m.a.key) })));
    expect(p.detachedThere(m.a.key, token)).toBe(p.name !== 'flutterwave');
    const events = ok(await call(m.key, 'GET', '/events?type=payment_method.detached')).data as Json[];
    expect(events.map((e) => e.data.payment_method_id)).toEqual([saved.pmId]);
    const refused = await offSessionCharge(p, m, saved.pmId);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'resource_missing', param: 'payment_method_id' });
  });

  test('6. no token the processor issued in any answer, event or table item', async () => {
    const tokens = [...p.tokens(m.a.key), ...p.tokens(m.b.key)];
    expect(tokens.length).toBeGreaterThan(0);
    const events: Json[] = [];
    let after: string | undefined;
    for (;;) {
      const page = ok(await call(m.key, 'GET', `/events?limit=100${after ? `&starting_after=${after}` : ''}`));
      events.push(...page.data);
      if (!page.has_more) break;
      after = page.data[page.data.length - 1].event_id;
    }
    expect(events.some((e) => e.type === 'payment_method.attached')).toBe(true);
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      // A dump of this file's own table: test-only inspection of what rests in storage.
      const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const dump = JSON.stringify(items);
    expect(dump).toContain('payment_method');
    const everything = [...answers, JSON.stringify(events), dump].join('\n');
    const found = tokens.filter((t) => everything.includes(t));
    expect(found).toEqual([]);
  });
});

test('the flows above logged their events at DEBUG, and no secret is in the log', () => expectNoSecretInLog(['POST /payments']));
