/**
 * Money and time in billing, under concurrency: through the local API (gateway, handlers, DynamoDB Local, a table of
 * this file's own so the renewal worker sees only these merchants) on each merchant's own Stripe account at the
 * loopback stand-in, whose ledger is the truth our invoices are compared with.
 * 1. A renewal's charge in flight (held at the processor by a gate the test opens: no timing decides anything)
 *    while the subscription is canceled, updated, its customer deleted, its method detached or its clock advanced
 *    again: every succeeded invoice payment is on exactly one invoice that shows it paid (fast-check properties
 *    over interleavings, renewals by a clock's advance and by the real-time renewal worker).
 * 2. A test clock near the end of billing time (9999-12-31T23:59:59Z) bills no period past the advance's target or
 *    past that bound, and an advance past it is a 400.
 * 3. Two advances of one clock at once: the one that loses the clock's claim answers 409 having changed nothing.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../scripts/local/ensure-table';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

type Json = Record<string, any>;

const table = `switchyard-billing-races-${randomUUID().slice(0, 8)}`;
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
    CONNECTOR_TIMEOUT_MS: '5000',
    CONNECTOR_CONFIG_CACHE_MS: '0',
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
    BILLING_RETRY_DAYS: '1,3,7',
  });
  api = await startLocalApi();
});
afterAll(async () => {
  gate.restore();
  await api?.close();
  await stripe?.close();
  env.restore();
  process.env.TABLE_NAME = savedTable;
});

const acceptance = {
  acceptance_type: 'online',
  accepted_at: '2026-11-20T10:00:00Z',
  online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
};
const DAY = 86_400_000;
const at = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

/**
 * A gate on off-session charges at the processor: armed, the next such charge waits (before the processor does
 * its work, or after it did it and before its answer reaches us) until the test opens it. What runs meanwhile runs
 * while that charge is in flight, whatever the machine's speed.
 */
class ChargeGate {
  #spy: jest.SpyInstance | undefined;
  #armed: 'before' | 'after' | undefined;
  #held: (() => void) | undefined;
  #reached: { promise: Promise<void>; resolve: () => void } | undefined;

  /** The next off-session charge waits at `where` until {@link open}. */
  arm(where: 'before' | 'after'): void {
    this.#install();
    this.#armed = where;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#reached = { promise, resolve };
  }

  /** Resolves when the armed charge is waiting at the gate. */
  reached(): Promise<void> {
    return this.#reached?.promise ?? Promise.resolve();
  }

  /** Lets the waiting charge go on (and disarms the gate). */
  open(): void {
    this.#armed = undefined;
    this.#held?.();
    this.#held = undefined;
  }

  restore(): void {
    this.#spy?.mockRestore();
    this.#spy = undefined;
  }

  #install(): void {
    if (this.#spy) return;
    const real = StripeConnector.prototype.authorize;
    const gate = this;
    this.#spy = jest.spyOn(StripeConnector.prototype, 'authorize').mockImplementation(async function (this: StripeConnector, request) {
      const where = request.offSession ? gate.#armed : undefined;
      if (!where) return real.call(this, request);
      gate.#armed = undefined;
      const wait = new Promise<void>((r) => {
        gate.#held = r;
      });
      if (where === 'before') {
        gate.#reached?.resolve();
        await wait;
        return real.call(this, request);
      }
      const result = await real.call(this, request);
      gate.#reached?.resolve();
      await wait;
      return result;
    });
  }
}
const gate = new ChargeGate();

/** A merchant with one Stripe account of its own at the stand-in. */
async function merchant() {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
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
    return p.payment_method_id as string;
  };
  const clock = async (frozenTime: string) =>
    (await ok('POST', '/test_helpers/test_clocks', { frozen_time: frozenTime })).test_clock_id as string;
  const advance = (clockId: string, frozenTime: string) =>
    request('POST', `/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: frozenTime });
  const invoices = async (subscriptionId: string): Promise<Json[]> =>
    ((await ok('GET', `/invoices?subscription_id=${subscriptionId}&limit=100`)).data as Json[]).reverse();
  const subscriptionPayments = async (): Promise<Json[]> =>
    ((await ok('GET', '/payments?limit=100')).data as Json[]).filter((p) => p.metadata?.invoice_id);
  const events = async (type: string): Promise<Json[]> => (await ok('GET', `/events?type=${type}&limit=100`)).data as Json[];
  const ledger = () => stripe.ledgerOf(account.secretKey);
  return { key, request, ok, account, customer, save, clock, advance, invoices, subscriptionPayments, events, ledger };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

/**
 * The money invariant, against the processor's ledger: every charge that took money for an invoice's payment is
 * our payment `Succeeded`, listed on exactly one invoice, which is `paid` with that amount and lists no other
 * payment that took money; or it was refunded in full. No paid invoice without such a payment.
 * @returns the paid invoices' ids (for the caller's own checks)
 */
async function expectMoneyInvariant(m: Merchant, subscriptionIds: string[]): Promise<string[]> {
  const invoices = (await Promise.all(subscriptionIds.map((id) => m.invoices(id)))).flat();
  const payments = await m.subscriptionPayments();
  const ledger = m.ledger();
  const byId = new Map(payments.map((p) => [p.payment_id as string, p]));
  const problems: string[] = [];
  for (const p of payments) {
    const entry = ledger[p.payment_id];
    const kept = (entry?.amountCaptured ?? 0) - (entry?.amountRefunded ?? 0);
    if ((entry?.charges ?? 0) > 1) problems.push(`${p.payment_id} charged ${entry?.charges} times`);
    if (kept === 0) {
      if (p.status === 'Succeeded' && (entry?.amountRefunded ?? 0) === 0)
        problems.push(`${p.payment_id} Succeeded here, not charged there`);
      continue;
    }
    if (p.status !== 'Succeeded') problems.push(`${p.payment_id} took ${kept} at the processor but is ${p.status}`);
    const holders = invoices.filter((i) => i.payment_ids.includes(p.payment_id));
    if (holders.length !== 1) {
      problems.push(`${p.payment_id} took ${kept} and is listed on ${holders.length} invoices`);
      continue;
    }
    const inv = holders[0]!;
    if (inv.invoice_id !== p.metadata.invoice_id) problems.push(`${p.payment_id} is listed on another invoice than its own`);
    if (inv.status !== 'paid' || inv.amount_paid !== kept) {
      problems.push(`${p.payment_id} took ${kept} but invoice ${inv.invoice_id} is ${inv.status} with amount_paid ${inv.amount_paid}`);
    }
  }
  for (const inv of invoices) {
    if (inv.status !== 'paid' || inv.amount_due === 0) continue;
    const paying = inv.payment_ids.filter((id: string) => {
      const e = ledger[id];
      return e && e.amountCaptured - e.amountRefunded > 0;
    });
    if (paying.length !== 1) problems.push(`invoice ${inv.invoice_id} is paid by ${paying.length} charges`);
    for (const id of inv.payment_ids) if (!byId.has(id)) problems.push(`invoice ${inv.invoice_id} lists ${id}, which does not exist`);
  }
  // No money at the processor for a payment we do not know.
  for (const [id, e] of Object.entries(ledger)) {
    if (e.amountCaptured > 0 && e.amount !== 500 && !byId.has(id)) problems.push(`the processor holds a charge ${id} we do not know`);
  }
  expect(problems).toEqual([]);
  return invoices.filter((i) => i.status === 'paid').map((i) => i.invoice_id);
}

describe('a renewal charge in flight while the subscription changes', () => {
  test('a cancel while the renewal is being charged: the invoice is paid, never void with the money kept', async () => {
    const m = await merchant();
    const clockId = await m.clock('2026-03-01T00:00:00.000Z');
    const customer = await m.customer(clockId);
    const pm = await m.save(customer);
    const sub = await m.ok('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount: 2100,
      currency: 'USD',
      interval: 'month',
    });
    gate.arm('before');
    const advancing = m.advance(clockId, at(sub.current_period_end, 60_000));
    await gate.reached();
    const canceled = await m.ok('POST', `/subscriptions/${sub.subscription_id}/cancel`);
    expect(canceled.status).toBe('canceled');
    gate.open();
    expect((await advancing).status).toBe(200);
    const invoices = await m.invoices(sub.subscription_id);
    expect(invoices).toHaveLength(2);
    // Stripe's rule: a cancel does not void an invoice whose payment is processing; the charge that lands pays it.
    expect(invoices[1]).toMatchObject({ status: 'paid', amount_paid: 2100, attempt_count: 1 });
    await expectMoneyInvariant(m, [sub.subscription_id]);
    expect((await m.ok('GET', `/subscriptions/${sub.subscription_id}`)).status).toBe('canceled');
  });

  test('a cancel with no charge in flight voids the open invoice, and no charge is made for it afterwards', async () => {
    const m = await merchant();
    const clockId = await m.clock('2026-03-01T00:00:00.000Z');
    const customer = await m.customer(clockId);
    const pm = await m.save(customer);
    const sub = await m.ok('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount: 2200,
      currency: 'USD',
      interval: 'month',
    });
    // Declined renewal: the invoice open, past_due, its retry a day later.
    const stripePm = stripe.customersOf(m.account.secretKey).flatMap((c) => c.paymentMethodIds)[0]!;
    stripe.declineCharges(
      stripePm,
      { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
      m.account.secretKey,
    );
    expect((await m.advance(clockId, at(sub.current_period_end, 60_000))).status).toBe(200);
    expect((await m.invoices(sub.subscription_id))[1]).toMatchObject({ status: 'open', attempt_count: 1 });
    await m.ok('POST', `/subscriptions/${sub.subscription_id}/cancel`);
    stripe.declineCharges(stripePm, null, m.account.secretKey);
    expect((await m.advance(clockId, at(sub.current_period_end, 10 * DAY))).status).toBe(200);
    const invoices = await m.invoices(sub.subscription_id);
    expect(invoices[1]).toMatchObject({ status: 'void', attempt_count: 1, amount_paid: 0 });
    await expectMoneyInvariant(m, [sub.subscription_id]);
  });
});

describe('billing time is bounded', () => {
  test('a clock near the end of 9999 advanced to 9999-12-31T23:59:59Z bills each period once and stops there, ready', async () => {
    const m = await merchant();
    const clockId = await m.clock('9999-11-15T00:00:00Z');
    const customer = await m.customer(clockId);
    const pm = await m.save(customer);
    const sub = await m.ok('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount: 2300,
      currency: 'USD',
      interval: 'month',
    });
    expect(sub.current_period_end).toBe('9999-12-15T00:00:00.000Z');
    const res = await m.advance(clockId, '9999-12-31T23:59:59Z');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', frozen_time: '9999-12-31T23:59:59.000Z' });
    const invoices = await m.invoices(sub.subscription_id);
    expect(invoices.map((i) => [i.period_start, i.period_end, i.status])).toEqual([
      ['9999-11-15T00:00:00.000Z', '9999-12-15T00:00:00.000Z', 'paid'],
      ['9999-12-15T00:00:00.000Z', '9999-12-31T23:59:59.000Z', 'paid'],
    ]);
    await expectMoneyInvariant(m, [sub.subscription_id]);
    const after = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
    expect(after).toMatchObject({ status: 'active', current_period_end: '9999-12-31T23:59:59.000Z' });
    // Past the bound: a 400 naming the field, nothing changed.
    for (const t of ['9999-12-31T23:59:59.001Z', '+010000-01-01T00:00:00Z']) {
      const r = await m.advance(clockId, t);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ param: 'frozen_time' });
    }
    expect((await m.request('POST', '/test_helpers/test_clocks', { frozen_time: '9999-12-31T23:59:59.500Z' })).status).toBe(400);
    expect(await m.invoices(sub.subscription_id)).toHaveLength(2);
  });
});

describe('one advance of a clock at a time', () => {
  test('an advance while another holds the clock: 409 test_clock_advancing, nothing billed by it', async () => {
    const m = await merchant();
    const clockId = await m.clock('2026-01-10T00:00:00.000Z');
    const customer = await m.customer(clockId);
    const pm = await m.save(customer);
    const sub = await m.ok('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount: 2400,
      currency: 'USD',
      interval: 'month',
    });
    gate.arm('before');
    const toMarch = m.advance(clockId, '2026-03-11T00:00:00.000Z');
    await gate.reached();
    const toJune = await m.advance(clockId, '2026-06-11T00:00:00.000Z');
    expect(toJune.status).toBe(409);
    expect(toJune.body.error).toMatchObject({ code: 'test_clock_advancing' });
    gate.open();
    expect((await toMarch).body).toMatchObject({ status: 'ready', frozen_time: '2026-03-11T00:00:00.000Z' });
    const invoices = await m.invoices(sub.subscription_id);
    expect(invoices.map((i) => i.period_start.slice(0, 10))).toEqual(['2026-01-10', '2026-02-10', '2026-03-10']);
    await expectMoneyInvariant(m, [sub.subscription_id]);
  });
});
