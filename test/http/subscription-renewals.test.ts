/**
 * Renewals, dunning, test clocks and expiry notices, end to end through the local API — gateway, handlers,
 * DynamoDB Local (a table of this file's own, so the renewal worker sees only these merchants) — on a merchant's own
 * Stripe account at the loopback Stripe stand-in, whose ledger per account is compared with our invoices:
 * 1. a monthly subscription on a test clock advanced 12 months renews 12 times: 13 invoices (the first at create),
 *    each paid by exactly one charge in the account's ledger, periods counted from the anchor (31 January →
 *    28 February → 31 March …), no period skipped or billed twice;
 * 2. the real-time renewal worker, two runs at once and a run killed between the processor's charge and its write,
 *    bills each subscription's period once (ledger and invoices agree);
 * 3. a declining card walks the dunning schedule (past_due, retries at 1 and 3 days) and recovers when the method is
 *    replaced; another exhausts its tries (4 over 7 days) and ends canceled (payment_failed, invoice uncollectible);
 * 4. cancel_at_period_end cancels at the period's end, with no new invoice; `payment_method.expiring` once, 30 days
 *    before the method expires, on its customer's clock;
 * 5. the worker interleaves merchants: a merchant with many renewals due never goes before a small one's first;
 * 6. test clocks are not deployed on prod (no sandbox).
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { stageRoutes } from '../../lib/api/route-functions';
import { ensureTable } from '../../scripts/local/ensure-table';
import { periodBoundary } from '../../shared/domain/billing-period';
import * as renewal from '../../shared/operations/billing/renewal';
import { runBillingWork } from '../../shared/operations/billing/renewal-worker';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { CONVERGENCE_BOUND_MS, RECONCILE_SETTLE_ALLOWANCE_MS } from '../../shared/settings/reconcile-settings';
import { documentClient } from '../../shared/storage/client';
import { EXPIRING_NOTICE_MS } from '../../shared/storage/payment-methods-repository';
import * as subscriptionsRepository from '../../shared/storage/subscriptions-repository';
import { tableName } from '../../shared/storage/table-definition';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

type Json = Record<string, any>;

const table = `switchyard-renewals-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;
const env = scopedEnv();
let api: LocalApi;
let stripe: StripeStandIn;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
  stripe = await startStripeStandIn();
  env.set({
    STRIPE_BASE_URL: stripe.url,
    CONNECTOR_TIMEOUT_MS: '2000',
    CONNECTOR_CONFIG_CACHE_MS: '0',
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
    BILLING_RETRY_DAYS: '1,3,7',
  });
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await stripe?.close();
  env.restore();
  process.env.TABLE_NAME = savedTable;
});
afterEach(() => {
  jest.restoreAllMocks();
});

const acceptance = {
  acceptance_type: 'online',
  accepted_at: '2026-11-20T10:00:00Z',
  online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
};
const DAY = 86_400_000;
const at = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

/** A merchant with one Stripe account of its own at the stand-in. */
async function merchant() {
  const key = await api.newMerchantKey();
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
    return res;
  };
  const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await request(method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const account = stripe.addAccount();
  const mca = (
    await ok('POST', '/connector_accounts', {
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
    })
  ).merchant_connector_id as string;
  const customer = async (testClock?: string) =>
    (await ok('POST', '/customers', { name: 'Ada', ...(testClock ? { test_clock: testClock } : {}) })).customer_id as string;
  /** Saves a card off-session on the customer (a first payment through the account); its pm id. */
  const save = async (customerId: string, number = '4242424242424242') => {
    const p = await ok('POST', '/payments', {
      amount: 500,
      currency: 'USD',
      confirm: true,
      customer_id: customerId,
      merchant_connector_id: mca,
      payment_method_data: card(number),
      setup_future_usage: 'off_session',
      customer_acceptance: acceptance,
    });
    expect(p.status).toBe('Succeeded');
    expect(p.payment_method_id).toMatch(/^pm_/);
    return p.payment_method_id as string;
  };
  const clock = async (frozenTime: string) =>
    (await ok('POST', '/test_helpers/test_clocks', { frozen_time: frozenTime })).test_clock_id as string;
  const advance = (clockId: string, frozenTime: string) =>
    ok('POST', `/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: frozenTime });
  /**
   * Advances as a client does (docs/api.md, test clocks): an answer `advancing` (the advance reached its bound of work
   * or the request's time, which a loaded machine can) is followed by another advance to the same time, until
   * `ready`. Each answer's `frozen_time` never goes back and never passes the target.
   * @returns the final clock and every answer
   */
  const advanceUntilReady = async (clockId: string, frozenTime: string): Promise<{ clock: Json; answers: Json[] }> => {
    const answers: Json[] = [];
    for (let i = 0; i < 50; i += 1) {
      const clock = await advance(clockId, frozenTime);
      const previous = answers.at(-1)?.frozen_time as string | undefined;
      if (previous) expect(Date.parse(clock.frozen_time)).toBeGreaterThanOrEqual(Date.parse(previous));
      expect(Date.parse(clock.frozen_time)).toBeLessThanOrEqual(Date.parse(frozenTime));
      answers.push(clock);
      if (clock.status === 'ready') return { clock, answers };
      expect(clock.status).toBe('advancing');
    }
    throw new Error(`test clock ${clockId} still advancing after 50 advances to ${frozenTime}`);
  };
  const invoices = async (subscriptionId: string): Promise<Json[]> =>
    ((await ok('GET', `/invoices?subscription_id=${subscriptionId}&limit=100`)).data as Json[]).reverse();
  const events = async (type: string): Promise<Json[]> => (await ok('GET', `/events?type=${type}&limit=100`)).data as Json[];
  /** The stand-in's ledger of this account for one of our payments. */
  const ledger = (paymentId: string) => stripe.ledgerOf(account.secretKey)[paymentId];
  /** The account's Stripe PaymentMethods attached to its customers (the tokens it issued). */
  const stripeMethods = () => stripe.customersOf(account.secretKey).flatMap((c) => c.paymentMethodIds);
  /** A clock at `anchor`, a customer on it with a saved card, and a monthly USD subscription of `amount` (minor units). */
  const monthlyOnClock = async (anchor: string, amount: number) => {
    const clockId = await clock(anchor);
    const customerId = await customer(clockId);
    const pm = await save(customerId);
    const sub = await ok('POST', '/subscriptions', {
      customer_id: customerId,
      payment_method_id: pm,
      amount,
      currency: 'USD',
      interval: 'month',
    });
    return { clockId, customerId, pm, sub };
  };
  return {
    key,
    request,
    ok,
    mca,
    account,
    customer,
    save,
    clock,
    advance,
    advanceUntilReady,
    monthlyOnClock,
    invoices,
    events,
    ledger,
    stripeMethods,
  };
}

test('a monthly subscription on a test clock advanced 12 months: 13 invoices, each paid by exactly one charge in the ledger', async () => {
  const m = await merchant();
  const anchor = '2026-01-31T10:00:00.000Z';
  const { clockId, sub } = await m.monthlyOnClock(anchor, 1500);
  expect(sub).toMatchObject({
    status: 'active',
    test_clock: clockId,
    current_period_start: anchor,
    current_period_end: '2026-02-28T10:00:00.000Z',
  });

  const target = '2027-01-31T10:00:00.000Z';
  const { clock } = await m.advanceUntilReady(clockId, target);
  expect(clock).toMatchObject({ status: 'ready', frozen_time: target });

  const invoices = await m.invoices(sub.subscription_id);
  expect(invoices).toHaveLength(13);
  invoices.forEach((inv, n) => {
    expect(inv).toMatchObject({
      status: 'paid',
      amount_due: 1500,
      amount_paid: 1500,
      attempt_count: 1,
      period_start: periodBoundary(anchor, 'month', 1, n),
      period_end: periodBoundary(anchor, 'month', 1, n + 1),
    });
    expect(inv.payment_ids).toHaveLength(1);
  });
  // Clamped month ends, from the anchor's day: never drifting to the 28th.
  expect(invoices.map((i) => i.period_start.slice(5, 10))).toEqual([
    '01-31',
    '02-28',
    '03-31',
    '04-30',
    '05-31',
    '06-30',
    '07-31',
    '08-31',
    '09-30',
    '10-31',
    '11-30',
    '12-31',
    '01-31',
  ]);
  // The processor's truth: one succeeded charge per invoice, under our payment id, and nothing else billed.
  for (const inv of invoices) {
    const entry = m.ledger(inv.payment_ids[0]);
    expect(entry).toBeDefined();
    expect(entry!.charges).toBe(1);
    expect(entry!.amountCaptured).toBe(1500);
  }
  const charged = Object.entries(stripe.ledgerOf(m.account.secretKey)).filter(([, e]) => e.amountCaptured === 1500);
  expect(charged.map(([id]) => id).sort()).toEqual(invoices.map((i) => i.payment_ids[0]).sort());

  const after = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
  expect(after).toMatchObject({ status: 'active', current_period_start: target, current_period_end: '2027-02-28T10:00:00.000Z' });
  expect((await m.events('invoice.paid')).length).toBe(13);
  // Time does not go back.
  expect((await m.request('POST', `/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: target })).status).toBe(400);
});

test('an advance stopped at its bound answers advancing; advancing again to the same time goes on, billing each period once', async () => {
  const m = await merchant();
  const anchor = '2026-03-15T08:00:00.000Z';
  const { clockId, sub } = await m.monthlyOnClock(anchor, 900);
  // Renewals fall due on the 15th of April, May, June and July; the target is July's, so the last stop can be the target
  // itself with its own renewal not yet run (the case that used to be refused as "not later than the clock's time").
  const target = '2026-07-15T08:00:00.000Z';
  process.env.TEST_CLOCK_MAX_ADVANCE_STEPS = '1';
  let result: Awaited<ReturnType<typeof m.advanceUntilReady>>;
  try {
    result = await m.advanceUntilReady(clockId, target);
  } finally {
    delete process.env.TEST_CLOCK_MAX_ADVANCE_STEPS;
  }
  const statuses = result.answers.map((a) => a.status);
  expect(statuses.at(-1)).toBe('ready');
  expect(statuses.filter((s) => s === 'advancing').length).toBeGreaterThanOrEqual(3);
  expect(result.answers.some((a) => a.status === 'advancing' && a.frozen_time === target)).toBe(true);
  const invoices = await m.invoices(sub.subscription_id);
  expect(invoices).toHaveLength(5);
  for (const inv of invoices) {
    expect(inv).toMatchObject({ status: 'paid', amount_paid: 900 });
    expect(m.ledger(inv.payment_ids[0])?.charges).toBe(1);
  }
  // Once ready, the same time is refused again: time does not go back, nor stands still.
  const again = await m.request('POST', `/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: target });
  expect(again.status).toBe(400);
  expect(again.body.error).toMatchObject({ code: 'test_clock_time_invalid', param: 'frozen_time' });
});

test('the renewal worker bills each period once: two runs at once, then a run killed between the charge and its write', async () => {
  const m = await merchant();
  const subs: Json[] = [];
  for (let i = 0; i < 3; i += 1) {
    const customer = await m.customer();
    const pm = await m.save(customer);
    subs.push(
      await m.ok('POST', '/subscriptions', {
        customer_id: customer,
        payment_method_id: pm,
        amount: 2000 + i,
        currency: 'USD',
        interval: 'month',
      }),
    );
  }
  const run = (now: string) => runBillingWork({ now: new Date(now), deadlineMs: Date.now() + 60_000, publicBaseUrl: api.url });
  // Nothing is due now.
  expect((await run(new Date().toISOString())).outcomes.renewed ?? 0).toBe(0);

  // Two runs at once, after every first period ended.
  const later = at(subs[subs.length - 1]!.current_period_end, 60_000);
  await Promise.all([run(later), run(later)]);
  for (const s of subs) {
    const invoices = await m.invoices(s.subscription_id);
    expect(invoices.map((i) => i.status)).toEqual(['paid', 'paid']);
    for (const inv of invoices) expect(m.ledger(inv.payment_ids[0])?.charges).toBe(1);
  }

  // A run killed after the processor charged the third period of the first subscription, before its outcome was written.
  const victim = subs[0]!.subscription_id as string;
  const realWrite = subscriptionsRepository.writeSubscriptionChange;
  let killed = 0;
  jest.spyOn(subscriptionsRepository, 'writeSubscriptionChange').mockImplementation(async (merchantId, change) => {
    if (killed === 0 && change.invoice?.after.subscription_id === victim && change.invoice.after.payment_ids.length === 1) {
      killed += 1;
      throw new Error('process killed');
    }
    return realWrite(merchantId, change);
  });
  const third = at(later, 31 * DAY);
  const crashed = await run(third);
  expect(killed).toBe(1);
  expect(crashed.outcomes.failed).toBe(1);
  let invoices = await m.invoices(victim);
  expect(invoices).toHaveLength(3);
  expect(invoices[2]).toMatchObject({ status: 'open', attempt_count: 0, payment_ids: [] });
  jest.restoreAllMocks();
  // The next run finds the same charge (its payment's key is derived from the invoice and the try), never a second.
  await run(third);
  invoices = await m.invoices(victim);
  expect(invoices.map((i) => i.status)).toEqual(['paid', 'paid', 'paid']);
  expect(invoices[2]!.attempt_count).toBe(1);
  const victimCharges = Object.values(stripe.ledgerOf(m.account.secretKey)).filter((e) => e.amountCaptured === 2000);
  expect(victimCharges).toHaveLength(3);
  for (const s of subs.slice(1)) expect((await m.invoices(s.subscription_id)).map((i) => i.status)).toEqual(['paid', 'paid', 'paid']);
});

test('a renewal whose processor answer is lost: the try stays counted, the reconciler settles the payment and the invoice follows; no second charge', async () => {
  const m = await merchant();
  const clockId = await m.clock('2026-07-01T00:00:00.000Z');
  const customer = await m.customer(clockId);
  const pm = await m.save(customer);
  const sub = await m.ok('POST', '/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    amount: 5100,
    currency: 'USD',
    interval: 'month',
  });
  stripe.failNext({ method: 'POST', path: '/v1/payment_intents', secretKey: m.account.secretKey }, 'hang_after_work');
  const t0 = Date.now();
  await m.advance(clockId, at(sub.current_period_end, 60_000));
  let inv = (await m.invoices(sub.subscription_id))[1]!;
  expect(inv).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null });
  const paymentId = inv.payment_ids[0] as string;
  expect((await m.ok('GET', `/payments/${paymentId}`)).status).toBe('Processing');
  // The processor charged it.
  expect(m.ledger(paymentId)).toMatchObject({ charges: 1, amountCaptured: 5100 });
  // Advancing the clock meanwhile neither charges again nor fails the invoice.
  await m.advance(clockId, at(sub.current_period_end, 2 * 60_000));
  expect((await m.invoices(sub.subscription_id))[1]!.payment_ids).toEqual([paymentId]);

  const pass = t0 + CONVERGENCE_BOUND_MS - RECONCILE_SETTLE_ALLOWANCE_MS;
  const realNow = Date.now.bind(Date);
  const offset = Math.max(0, pass - realNow());
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
  await reconcileOpenOperations({ deadlineMs: realNow() + offset + 60_000 });
  jest.restoreAllMocks();
  expect((await m.ok('GET', `/payments/${paymentId}`)).status).toBe('Succeeded');
  inv = (await m.invoices(sub.subscription_id))[1]!;
  expect(inv).toMatchObject({ status: 'paid', attempt_count: 1, amount_paid: 5100, payment_ids: [paymentId] });
  expect((await m.ok('GET', `/subscriptions/${sub.subscription_id}`)).status).toBe('active');
  expect(Object.values(stripe.ledgerOf(m.account.secretKey)).filter((e) => e.amountCaptured === 5100)).toHaveLength(2);
});

test('no token the processor issued, no card number and no CVC in any table item', async () => {
  const m = await merchant();
  const customer = await m.customer();
  await m.save(customer, '4242424242424242');
  const tokens = stripe.customersOf(m.account.secretKey).flatMap((c) => c.paymentMethodIds);
  expect(tokens.length).toBeGreaterThan(0);
  const dump: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) dump.push(JSON.stringify(item));
    start = out.LastEvaluatedKey;
  } while (start);
  const all = dump.join('\n');
  for (const token of tokens) expect(all).not.toContain(token);
  expect(all).not.toContain('4242424242424242');
  expect(all).not.toMatch(/"card_cvc"|"cvc"/);
});

test('dunning: a declining card goes past_due and is retried at 1 and 3 days, then recovers on a replaced method', async () => {
  const m = await merchant();
  const start = '2026-03-01T00:00:00.000Z';
  const clockId = await m.clock(start);
  const customer = await m.customer(clockId);
  const pm = await m.save(customer);
  const sub = await m.ok('POST', '/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    amount: 3000,
    currency: 'USD',
    interval: 'month',
  });
  const stripePm = m.stripeMethods()[0]!;
  stripe.declineCharges(stripePm, { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' }, m.account.secretKey);

  const renewalAt = sub.current_period_end as string;
  await m.advance(clockId, at(renewalAt, 60_000));
  let s = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
  expect(s.status).toBe('past_due');
  let inv = (await m.invoices(sub.subscription_id))[1]!;
  expect(inv).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: at(renewalAt, DAY) });
  expect((await m.events('subscription.past_due')).length).toBe(1);

  await m.advance(clockId, at(renewalAt, DAY + 60_000));
  inv = (await m.invoices(sub.subscription_id))[1]!;
  expect(inv).toMatchObject({ status: 'open', attempt_count: 2, next_payment_attempt: at(renewalAt, 3 * DAY) });

  // A new card, and the subscription moved to it: tried again at once.
  const pm2 = await m.save(customer, '5555555555554444');
  expect(pm2).not.toBe(pm);
  await m.ok('PUT', `/subscriptions/${sub.subscription_id}`, { payment_method_id: pm2 });
  await m.advance(clockId, at(renewalAt, DAY + 120_000));
  s = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
  expect(s.status).toBe('active');
  inv = (await m.invoices(sub.subscription_id))[1]!;
  expect(inv).toMatchObject({ status: 'paid', attempt_count: 3, amount_paid: 3000, next_payment_attempt: null });
  // The ledger: the two declined tries charged nothing, the third charged once.
  const tries = inv.payment_ids.map((id: string) => m.ledger(id));
  expect(tries.map((e: any) => e?.amountCaptured ?? 0)).toEqual([0, 0, 3000]);
  expect((await m.events('subscription.past_due')).length).toBe(1);
  expect((await m.events('invoice.payment_failed')).length).toBe(2);
});

test('dunning: tries exhausted (4 over 7 days) end the subscription canceled, its invoice uncollectible', async () => {
  const m = await merchant();
  const clockId = await m.clock('2026-05-10T00:00:00.000Z');
  const customer = await m.customer(clockId);
  const pm = await m.save(customer);
  const sub = await m.ok('POST', '/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    amount: 4000,
    currency: 'USD',
    interval: 'week',
  });
  stripe.declineCharges(m.stripeMethods()[0]!, { declineCode: 'generic_decline', message: 'Your card was declined.' }, m.account.secretKey);
  const renewalAt = sub.current_period_end as string;
  await m.advance(clockId, at(renewalAt, 8 * DAY));
  const s = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
  expect(s).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'payment_failed' } });
  const invoices = await m.invoices(sub.subscription_id);
  expect(invoices).toHaveLength(2);
  expect(invoices[1]).toMatchObject({ status: 'uncollectible', attempt_count: 4, next_payment_attempt: null });
  for (const id of invoices[1]!.payment_ids) expect(m.ledger(id)?.amountCaptured ?? 0).toBe(0);
  expect((await m.events('subscription.canceled')).length).toBe(1);
});

test('a hard decline is not retried', async () => {
  const m = await merchant();
  const clockId = await m.clock('2026-06-01T00:00:00.000Z');
  const customer = await m.customer(clockId);
  const pm = await m.save(customer);
  const sub = await m.ok('POST', '/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    amount: 4100,
    currency: 'USD',
    interval: 'day',
  });
  stripe.declineCharges(m.stripeMethods()[0]!, { declineCode: 'stolen_card', message: 'Your card was declined.' }, m.account.secretKey);
  await m.advance(clockId, at(sub.current_period_end, 60_000));
  const invoices = await m.invoices(sub.subscription_id);
  expect(invoices[1]).toMatchObject({ status: 'uncollectible', attempt_count: 1 });
  expect((await m.ok('GET', `/subscriptions/${sub.subscription_id}`)).status).toBe('canceled');
});

test('cancel_at_period_end cancels at the end of the period with no new invoice; payment_method.expiring once, on the clock', async () => {
  const m = await merchant();
  // card(): December, three years on; it works until the last millisecond of that month.
  const cardExpiresAt = `${new Date().getUTCFullYear() + 3}-12-31T23:59:59.999Z`;
  const start = at(cardExpiresAt, -EXPIRING_NOTICE_MS - 10 * DAY);
  const clockId = await m.clock(start);
  const customer = await m.customer(clockId);
  const pm = await m.save(customer);
  const method = await m.ok('GET', `/payment_methods/${pm}`);
  expect(method.expires_at).toBe(cardExpiresAt);
  const sub = await m.ok('POST', '/subscriptions', {
    customer_id: customer,
    payment_method_id: pm,
    amount: 900,
    currency: 'USD',
    interval: 'week',
  });
  await m.ok('PUT', `/subscriptions/${sub.subscription_id}`, { cancel_at_period_end: true });

  await m.advance(clockId, at(start, 9 * DAY));
  expect((await m.events('payment_method.expiring')).length).toBe(0);
  const s = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
  expect(s).toMatchObject({
    status: 'canceled',
    canceled_at: sub.current_period_end,
    cancellation_details: { reason: 'cancellation_requested' },
  });
  expect(await m.invoices(sub.subscription_id)).toHaveLength(1);

  await m.advance(clockId, at(start, 12 * DAY));
  await m.advance(clockId, at(start, 20 * DAY));
  const expiring = await m.events('payment_method.expiring');
  expect(expiring).toHaveLength(1);
  expect(expiring[0]!.data).toMatchObject({ payment_method_id: pm, expires_at: cardExpiresAt });
  expect(JSON.stringify(expiring[0])).not.toMatch(/token|ciphertext/);
});

test('the worker interleaves merchants: a small merchant is worked in the first round beside a big one', async () => {
  const big = await merchant();
  const small = await merchant();
  const created: { merchant: string; id: string }[] = [];
  const subscribe = async (m: Awaited<ReturnType<typeof merchant>>, n: number) => {
    for (let i = 0; i < n; i += 1) {
      const customer = await m.customer();
      const pm = await m.save(customer);
      const s = await m.ok('POST', '/subscriptions', {
        customer_id: customer,
        payment_method_id: pm,
        amount: 700,
        currency: 'USD',
        interval: 'day',
      });
      created.push({ merchant: m.key, id: s.subscription_id });
    }
  };
  await subscribe(big, 5);
  await subscribe(small, 1);
  const order: string[] = [];
  const real = renewal.workDueSubscription;
  jest.spyOn(renewal, 'workDueSubscription').mockImplementation(async (ctx, id, now) => {
    order.push(id);
    return real(ctx, id, now);
  });
  const report = await runBillingWork({
    now: new Date(Date.now() + DAY + 60_000),
    deadlineMs: Date.now() + 60_000,
    concurrency: 1,
    publicBaseUrl: api.url,
  });
  const smallId = created.find((c) => c.merchant === small.key)!.id;
  const mine = order.filter((id) => created.some((c) => c.id === id));
  expect(mine).toHaveLength(6);
  expect(mine.indexOf(smallId)).toBeLessThan(mine.length - 1);
  // Of this file's merchants' first round, the small merchant's is among the first two of these two.
  const firstBig = mine.findIndex((id) => id !== smallId);
  expect(Math.abs(mine.indexOf(smallId) - firstBig)).toBeLessThanOrEqual(report.merchants);
  expect((await small.invoices(smallId)).map((i) => i.status)).toEqual(['paid', 'paid']);
});

test('test clocks are not deployed on a stage without the sandbox (prod); a customer cannot name an unknown clock', async () => {
  const prod = stageRoutes({ sandbox: false });
  expect(prod.some((r) => r.path.startsWith('/test_helpers/'))).toBe(false);
  expect(
    stageRoutes({ sandbox: true })
      .filter((r) => r.path.startsWith('/test_helpers/'))
      .map((r) => r.name),
  ).toEqual(['CreateTestClock', 'GetTestClock', 'AdvanceTestClock']);
  const m = await merchant();
  const res = await m.request('POST', '/customers', { name: 'Ada', test_clock: 'clock_doesnotexist' });
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'test_clock' });
});
