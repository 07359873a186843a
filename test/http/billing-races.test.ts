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
 * 3. Two advances of one clock at once: the one that loses the clock's claim answers 409 having changed nothing; also
 *    when the clock is `advancing` (an earlier advance stopped at its bound) and a target is the clock's own time,
 *    which goes on with the work left at that time (and is refused 400 on a `ready` clock).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ensureTable } from '../../scripts/local/ensure-table';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { periodBoundary } from '../../shared/domain/billing-period';
import { runBillingWork } from '../../shared/operations/billing/renewal-worker';
import * as paymentOperations from '../../shared/operations/payments/create-payment';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

type Json = Record<string, any>;

// Each example drives several requests through the local API on a shared machine: time enough for that, never a verdict.
jest.setTimeout(180_000);

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

  #amount: number | undefined;

  /** The next off-session charge (of `amount` minor units, when given) waits at `where` until {@link open}. */
  arm(where: 'before' | 'after', amount?: number): void {
    this.#install();
    // A charge a failed run left waiting goes on first.
    this.#held?.();
    this.#held = undefined;
    this.#armed = where;
    this.#amount = amount;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#reached = { promise, resolve };
  }

  /**
   * Resolves when the armed charge is waiting at the gate; rejects when `work` (what makes the charge) ends first,
   * so a run that makes no such charge fails at once instead of waiting for ever.
   */
  reached(work?: Promise<unknown>): Promise<void> {
    const reached = this.#reached?.promise ?? Promise.resolve();
    if (!work) return reached;
    return Promise.race([
      reached,
      work.then(() => {
        throw new Error('the work ended without making the charge the gate waits for');
      }),
    ]);
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
      const where = request.offSession && (gate.#amount === undefined || gate.#amount === request.amount) ? gate.#armed : undefined;
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
  /** Every payment of the merchant made for an invoice (all pages). */
  const subscriptionPayments = async (): Promise<Json[]> => {
    const all: Json[] = [];
    for (let after = ''; ; ) {
      const page = await ok('GET', `/payments?limit=100${after ? `&starting_after=${after}` : ''}`);
      all.push(...(page.data as Json[]));
      if (!page.has_more || page.data.length === 0) break;
      after = page.data.at(-1).payment_id;
    }
    return all.filter((p) => p.metadata?.invoice_id);
  };
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
  const all = await m.subscriptionPayments();
  const payments = all.filter((p) => subscriptionIds.includes(p.metadata.subscription_id));
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
  // No money at the processor for a payment we do not know (the cards' saving payments are of 500).
  const known = new Set(all.map((p) => p.payment_id as string));
  for (const [id, e] of Object.entries(ledger)) {
    if (e.amountCaptured > 0 && e.amount !== 500 && !known.has(id)) problems.push(`the processor holds a charge ${id} we do not know`);
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
    gate.arm('before', 2100);
    const advancing = m.advance(clockId, at(sub.current_period_end, 60_000));
    await gate.reached(advancing);
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
  test('a try whose payment did not exist yet when the worker settled its canceled subscription: the invoice is voided, and the charge that lands after pays it', async () => {
    const m = await merchant();
    const customer = await m.customer();
    const pm = await m.save(customer);
    const amount = 2250;
    const sub = await m.ok('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount,
      currency: 'USD',
      interval: 'month',
    });
    // The renewal's charger stops after marking its try on the invoice, before its payment is created.
    const real = paymentOperations.createPayment;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const atCreate = new Promise<void>((r) => {
      reached = r;
    });
    const spy = jest.spyOn(paymentOperations, 'createPayment').mockImplementation(async (ctx, body) => {
      if (body.amount === amount && body.off_session) {
        reached();
        await held;
      }
      return real(ctx, body);
    });
    try {
      const run = (ms: number) =>
        runBillingWork({ now: new Date(at(sub.current_period_end, ms)), deadlineMs: Date.now() + 20_000, publicBaseUrl: api.url });
      const charging = run(60_000);
      await atCreate;
      await m.ok('POST', `/subscriptions/${sub.subscription_id}/cancel`);
      let renewal = (await m.invoices(sub.subscription_id))[1]!;
      // The cancel saw the try in flight: not voided under it.
      expect(renewal).toMatchObject({ status: 'open', next_payment_attempt: null });
      // Another run settles the canceled subscription: the try's payment does not exist yet, so the invoice is voided.
      await run(2 * 60_000);
      renewal = (await m.invoices(sub.subscription_id))[1]!;
      expect(renewal).toMatchObject({ status: 'void', amount_paid: 0 });
      release();
      await charging;
      renewal = (await m.invoices(sub.subscription_id))[1]!;
      expect(renewal).toMatchObject({ status: 'paid', amount_paid: amount, attempt_count: 1 });
      expect((await m.events('invoice.paid')).some((e) => e.data.invoice_id === renewal.invoice_id)).toBe(true);
      await expectMoneyInvariant(m, [sub.subscription_id]);
    } finally {
      release();
      spy.mockRestore();
    }
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
    for (const [t, code] of [
      ['9999-12-31T23:59:59.001Z', 'test_clock_time_invalid'],
      ['+010000-01-01T00:00:00Z', 'parameter_invalid'],
    ]) {
      const r = await m.advance(clockId, t!);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code, param: 'frozen_time' });
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
    gate.arm('before', 2400);
    const toMarch = m.advance(clockId, '2026-03-11T00:00:00.000Z');
    await gate.reached(toMarch);
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

/** What runs while a renewal's charge is held at the processor. */
type Interference = 'cancel' | 'update_method' | 'cancel_at_period_end' | 'delete_customer' | 'detach' | 'renew_again';

describe('property: any interleaving of a charge in flight with changes to its subscription keeps the money invariant', () => {
  let m: Merchant;
  let amount = 3000;
  beforeAll(async () => {
    m = await merchant();
  });

  test('first charges, renewals by a clock advance and by the real-time renewal worker', async () => {
    await fc.assert(
      fc
        .asyncProperty(
          fc.record({
            phase: fc.constantFrom<'first' | 'renewal'>('first', 'renewal', 'renewal'),
            onClock: fc.boolean(),
            where: fc.constantFrom<'before' | 'after'>('before', 'after'),
            declines: fc.boolean(),
            during: fc.array(
              fc.constantFrom<Interference>('cancel', 'update_method', 'cancel_at_period_end', 'delete_customer', 'detach', 'renew_again'),
              { minLength: 1, maxLength: 2 },
            ),
            after: fc.constantFrom<Interference | 'none'>('none', 'cancel', 'update_method', 'delete_customer'),
          }),
          async ({ phase, onClock, where, declines, during, after }) => {
            amount += 1;
            const start = '2026-04-01T00:00:00.000Z';
            const clockId = onClock ? await m.clock(start) : undefined;
            const customer = await m.customer(clockId);
            const knownStripePms = new Set(stripe.customersOf(m.account.secretKey).flatMap((c) => c.paymentMethodIds));
            const pm = await m.save(customer);
            const stripePm = stripe
              .customersOf(m.account.secretKey)
              .flatMap((c) => c.paymentMethodIds)
              .find((id) => !knownStripePms.has(id));
            const pm2 = await m.save(customer, '5555555555554444');
            const createBody = { customer_id: customer, payment_method_id: pm, amount, currency: 'USD', interval: 'month' };
            // The charge held: the first period's (the create's own), or the first renewal's.
            let creating: Promise<Awaited<ReturnType<Merchant['request']>>> | undefined;
            let sub: Json;
            if (phase === 'first') {
              gate.arm(where, amount);
              creating = m.request('POST', '/subscriptions', createBody);
              await gate.reached(creating);
              // Written before its charge: found by its customer while the charge is in flight.
              sub = (await m.ok('GET', `/subscriptions?customer_id=${customer}`)).data[0];
            } else {
              sub = await m.ok('POST', '/subscriptions', createBody);
              expect(sub.status).toBe('active');
            }
            if (declines && stripePm) {
              stripe.declineCharges(
                stripePm,
                { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
                m.account.secretKey,
              );
            }
            const renewalAt = sub.current_period_end as string;
            // Renewal: the clock's advance, or a real-time worker run as of just after the period's end.
            let clockAt = start;
            const renew = async (ms: number) => {
              if (clockId) {
                // A clock only goes forward: a renewal already reached by an earlier advance is not asked for again.
                const target = at(renewalAt, ms);
                if (target <= clockAt) return;
                const res = await m.advance(clockId, target);
                expect([200, 409]).toContain(res.status);
                if (res.status === 200) clockAt = res.body.frozen_time;
              } else {
                await runBillingWork({ now: new Date(at(renewalAt, ms)), deadlineMs: Date.now() + 20_000, publicBaseUrl: api.url });
              }
            };
            const interfere = async (op: Interference | 'none') => {
              let res: Awaited<ReturnType<Merchant['request']>> | undefined;
              switch (op) {
                case 'cancel':
                  res = await m.request('POST', `/subscriptions/${sub.subscription_id}/cancel`);
                  break;
                case 'update_method':
                  res = await m.request('PUT', `/subscriptions/${sub.subscription_id}`, { payment_method_id: pm2 });
                  break;
                case 'cancel_at_period_end':
                  res = await m.request('PUT', `/subscriptions/${sub.subscription_id}`, { cancel_at_period_end: true });
                  break;
                case 'delete_customer':
                  res = await m.request('DELETE', `/customers/${customer}`);
                  break;
                case 'detach':
                  res = await m.request('DELETE', `/payment_methods/${pm}`);
                  break;
                case 'renew_again':
                  await renew(2 * 60_000);
                  return;
                case 'none':
                  return;
              }
              // Each answers as it may in the state it finds (canceled, deleted, detached): never a 5xx.
              expect(res.status).toBeLessThan(500);
            };
            if (creating) {
              for (const op of during) await interfere(op);
              gate.open();
              expect((await creating).status).toBe(200);
              await renew(60_000);
            } else {
              gate.arm(where, amount);
              const renewing = renew(60_000);
              await gate.reached(renewing);
              for (const op of during) await interfere(op);
              gate.open();
              await renewing;
            }
            await interfere(after);
            // Later: the dunning retries, a try left in flight at a cancel settled.
            await renew(10 * DAY);
            await expectMoneyInvariant(m, [sub.subscription_id]);
            const s = await m.ok('GET', `/subscriptions/${sub.subscription_id}`);
            const invoices = await m.invoices(sub.subscription_id);
            // A canceled subscription's invoices are settled: paid, void or uncollectible, none left open.
            if (s.status === 'canceled') expect(invoices.filter((i) => i.status === 'open')).toEqual([]);
            // The renewal's invoice shows its charge's truth.
            // The held charge's invoice shows its truth: a charge the processor made before any change pays it.
            const heldInvoice = phase === 'first' ? invoices[0] : invoices.find((i) => i.period_start === renewalAt);
            if (heldInvoice && !declines && where === 'after') expect(heldInvoice.status).toBe('paid');
            // Tidy: no real-time renewal of this run is left for the next runs' worker.
            if (s.status !== 'canceled' && !clockId) await m.ok('POST', `/subscriptions/${sub.subscription_id}/cancel`);
          },
        )
        .afterEach(() => gate.open()),
      { numRuns: 8 },
    );
  }, 360_000);
});

describe('property: two advances of one clock at once, many times', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await merchant();
  });

  /**
   * A target: `months` after the start (a day past that period boundary), or `same`: the clock's own time when the race
   * starts (accepted only while the clock is `advancing`, to go on with the work left at that time; refused 400 on a
   * `ready` clock).
   */
  const targetArb = fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant('same' as const));

  test('the clock ends at a winner’s target; nothing is billed past it; every period up to it billed once', async () => {
    await fc.assert(
      fc
        .asyncProperty(
          targetArb,
          targetArb,
          fc.constantFrom<'free' | 'held'>('free', 'held'),
          // The clock is `advancing` when the race starts: an earlier advance stopped at its bound (one piece of work)
          // at the first renewal's time, with the second subscription's renewal of that very time left.
          fc.boolean(),
          async (a, b, how, stopped) => {
            // Held: the first advance must make a charge; a `same` target on a ready clock makes none.
            fc.pre(!(how === 'held' && a === 'same' && !stopped));
            const start = '2026-01-10T00:00:00.000Z';
            const clockId = await m.clock(start);
            const customer = await m.customer(clockId);
            const pm = await m.save(customer);
            const amount = 4000 + (a === 'same' ? 0 : a * 10) + (b === 'same' ? 0 : b) + (stopped ? 100 : 0);
            const subs: Json[] = [];
            for (const each of [amount, amount + 1000])
              subs.push(
                await m.ok('POST', '/subscriptions', {
                  customer_id: customer,
                  payment_method_id: pm,
                  amount: each,
                  currency: 'USD',
                  interval: 'month',
                }),
              );
            const target = (t: number | 'same', same: string) => (t === 'same' ? same : at(periodBoundary(start, 'month', 1, t), DAY));
            if (stopped) {
              process.env.TEST_CLOCK_MAX_ADVANCE_STEPS = '1';
              try {
                const first = await m.advance(clockId, target(1, start));
                expect(first.body).toMatchObject({ status: 'advancing', frozen_time: periodBoundary(start, 'month', 1, 1) });
              } finally {
                delete process.env.TEST_CLOCK_MAX_ADVANCE_STEPS;
              }
            }
            const before = await m.ok('GET', `/test_helpers/test_clocks/${clockId}`);
            const [targetA, targetB] = [target(a, before.frozen_time), target(b, before.frozen_time)];
            let answers: { status: number; body: Json }[];
            if (how === 'held') {
              gate.arm('before');
              const first = m.advance(clockId, targetA);
              await gate.reached(first);
              const second = await m.advance(clockId, targetB);
              // While the first holds the clock, the second changes nothing.
              expect(second.status).toBe(409);
              expect(second.body.error.code).toBe('test_clock_advancing');
              gate.open();
              answers = [await first, second];
            } else {
              answers = await Promise.all([m.advance(clockId, targetA), m.advance(clockId, targetB)]);
            }
            for (const answer of answers) {
              expect([200, 400, 409]).toContain(answer.status);
              if (answer.status === 409) expect(['test_clock_advancing', 'concurrent_update']).toContain(answer.body.error.code);
            }
            const won = answers.filter((x) => x.status === 200).map((x) => x.body.frozen_time as string);
            const clock = await m.ok('GET', `/test_helpers/test_clocks/${clockId}`);
            if (won.length === 0) {
              // Only two `same` targets on a ready clock: both refused, the clock unchanged.
              expect([a, b, stopped, answers.map((x) => x.status)]).toEqual(['same', 'same', false, [400, 400]]);
              expect(clock).toMatchObject({ status: 'ready', frozen_time: start });
            } else {
              expect(clock.status).toBe('ready');
              expect(won).toContain(clock.frozen_time);
            }
            // Billed: every period of each subscription that started by the clock's time, once; none after it.
            const expected = [];
            for (let n = 0; periodBoundary(start, 'month', 1, n) <= clock.frozen_time; n += 1)
              expected.push(periodBoundary(start, 'month', 1, n));
            for (const sub of subs) expect((await m.invoices(sub.subscription_id)).map((i) => i.period_start)).toEqual(expected);
            await expectMoneyInvariant(
              m,
              subs.map((sub) => sub.subscription_id),
            );
          },
        )
        .afterEach(() => {
          gate.open();
          delete process.env.TEST_CLOCK_MAX_ADVANCE_STEPS;
        }),
      // Always drawn besides the random runs: the same target while advancing, holding the clock's last charge against a
      // later target, and racing one.
      {
        numRuns: 5,
        examples: [
          ['same', 2, 'held', true],
          [3, 'same', 'free', true],
        ],
      },
    );
  }, 360_000);
});
