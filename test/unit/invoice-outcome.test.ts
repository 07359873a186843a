/**
 * The dunning rules (shared/domain/dunning.ts) and the one planner of invoice outcomes
 * (shared/operations/billing/invoice-collection.ts `planInvoiceOutcome`), pure: what each payment outcome does to an
 * invoice and its subscription, and when the subscription's next billing work is due.
 */
import {
  DEFAULT_DUNNING_POLICY,
  type DunningPolicy,
  dunningPolicyFrom,
  isRetryableDecline,
  nextRetryAt,
} from '../../shared/domain/dunning';
import type { Invoice, Subscription } from '../../shared/domain/subscription';
import { PENDING_RECHECK_MS, planInvoiceOutcome, WAITING_PAYER_MS } from '../../shared/operations/billing/invoice-collection';

const DAY = 86_400_000;
const T0 = '2026-03-01T00:00:00.000Z';
const at = (ms: number) => new Date(new Date(T0).getTime() + ms).toISOString();

function subscription(over: Partial<Subscription> = {}): Subscription {
  return {
    subscription_id: 'sub_1',
    customer_id: 'cus_1',
    payment_method_id: 'pm_1',
    amount: 1000,
    currency: 'NGN',
    interval: 'month',
    interval_count: 1,
    trial_period_days: null,
    status: 'active',
    billing_cycle_anchor: '2026-02-01T00:00:00.000Z',
    current_period_start: T0,
    current_period_end: '2026-04-01T00:00:00.000Z',
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: null,
    latest_invoice_id: 'in_1',
    test_clock: null,
    metadata: {},
    created_at: '2026-02-01T00:00:00.000Z',
    updated_at: T0,
    ...over,
  };
}

function invoice(over: Partial<Invoice> = {}): Invoice {
  return {
    invoice_id: 'in_1',
    subscription_id: 'sub_1',
    customer_id: 'cus_1',
    amount_due: 1000,
    amount_paid: 0,
    currency: 'NGN',
    period_start: T0,
    period_end: '2026-04-01T00:00:00.000Z',
    status: 'open',
    attempt_count: 0,
    next_payment_attempt: T0,
    payment_ids: [],
    created_at: T0,
    updated_at: T0,
    ...over,
  };
}

const pay = (id: string, status: string, error_code: string | null = null) =>
  ({ payment_id: id, status, amount: 1000, error_code }) as never;
const policy = DEFAULT_DUNNING_POLICY;

describe('dunning rules', () => {
  test('the default: tries at 0, 1, 3 and 7 days, then canceled', () => {
    expect(policy).toEqual({ retryDays: [1, 3, 7], final: 'canceled' });
    expect(nextRetryAt(policy, T0, 1, 'insufficient_funds')).toBe(at(DAY));
    expect(nextRetryAt(policy, T0, 2, 'card_declined')).toBe(at(3 * DAY));
    expect(nextRetryAt(policy, T0, 3, null)).toBe(at(7 * DAY));
    expect(nextRetryAt(policy, T0, 4, null)).toBeNull();
  });
  test('hard declines are never retried; unknown codes count as soft', () => {
    for (const code of ['stolen_card', 'lost_card', 'pickup_card', 'expired_card', 'fraudulent']) {
      expect(isRetryableDecline(code)).toBe(false);
      expect(nextRetryAt(policy, T0, 1, code)).toBeNull();
    }
    expect(isRetryableDecline('do_not_honor')).toBe(true);
    expect(isRetryableDecline(undefined)).toBe(true);
  });
  test('the stage setting: days ascending and final status; a value that does not parse keeps the default', () => {
    expect(dunningPolicyFrom({ BILLING_RETRY_DAYS: '2, 5', BILLING_DUNNING_FINAL: 'unpaid' })).toEqual({
      retryDays: [2, 5],
      final: 'unpaid',
    });
    expect(dunningPolicyFrom({ BILLING_RETRY_DAYS: '' }).retryDays).toEqual([]);
    expect(dunningPolicyFrom({ BILLING_RETRY_DAYS: '3,1' }).retryDays).toEqual([1, 3, 7]);
    expect(dunningPolicyFrom({ BILLING_RETRY_DAYS: 'x' }).retryDays).toEqual([1, 3, 7]);
    expect(dunningPolicyFrom({ BILLING_DUNNING_FINAL: 'delete' }).final).toBe('canceled');
  });
});

describe('planInvoiceOutcome', () => {
  test('a renewal paid: invoice paid, subscription unchanged, next work at the period end', () => {
    const plan = planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Succeeded'), T0, policy, T0)!;
    expect(plan.invoice).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      attempt_count: 1,
      payment_ids: ['pay_1'],
      next_payment_attempt: null,
    });
    expect(plan.subscription.status).toBe('active');
    expect(plan.dueAt).toBe('2026-04-01T00:00:00.000Z');
    expect(plan.events.map((e) => e.type)).toEqual(['invoice.paid']);
  });
  test('a soft decline: past_due once, next try on the schedule', () => {
    const plan = planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Failed', 'insufficient_funds'), T0, policy, T0)!;
    expect(plan.subscription.status).toBe('past_due');
    expect(plan.invoice).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: at(DAY) });
    expect(plan.dueAt).toBe(at(DAY));
    expect(plan.events.map((e) => e.type)).toEqual(['invoice.payment_failed', 'subscription.past_due']);
    // Already past due: no second past_due event.
    const again = planInvoiceOutcome(
      plan.subscription,
      plan.invoice,
      pay('pay_2', 'Failed', 'insufficient_funds'),
      at(DAY),
      policy,
      at(DAY),
    )!;
    expect(again.events.map((e) => e.type)).toEqual(['invoice.payment_failed']);
    expect(again.invoice.next_payment_attempt).toBe(at(3 * DAY));
  });
  test('the last try failing: canceled (payment_failed, uncollectible), or unpaid with the invoice left open', () => {
    const fourth = invoice({ attempt_count: 3, payment_ids: ['p1', 'p2', 'p3'] });
    const sub = subscription({ status: 'past_due' });
    const canceled = planInvoiceOutcome(sub, fourth, pay('p4', 'Failed', 'card_declined'), at(7 * DAY), policy, at(7 * DAY))!;
    expect(canceled.subscription).toMatchObject({
      status: 'canceled',
      canceled_at: at(7 * DAY),
      cancellation_details: { reason: 'payment_failed' },
    });
    expect(canceled.invoice).toMatchObject({ status: 'uncollectible', attempt_count: 4, next_payment_attempt: null });
    expect(canceled.dueAt).toBeNull();
    const unpaidPolicy: DunningPolicy = { ...policy, final: 'unpaid' };
    const unpaid = planInvoiceOutcome(sub, fourth, pay('p4', 'Failed', 'card_declined'), at(7 * DAY), unpaidPolicy, at(7 * DAY))!;
    expect(unpaid.subscription.status).toBe('unpaid');
    expect(unpaid.invoice.status).toBe('open');
    expect(unpaid.dueAt).toBeNull();
  });
  test('a hard decline on the first renewal try is final at once', () => {
    const plan = planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Failed', 'stolen_card'), T0, policy, T0)!;
    expect(plan.subscription.status).toBe('canceled');
    expect(plan.invoice.status).toBe('uncollectible');
  });
  test('a first invoice (incomplete) that fails is not retried; one waiting on the payer announces nothing yet', () => {
    const sub = subscription({ status: 'incomplete' });
    const failed = planInvoiceOutcome(sub, invoice(), pay('pay_1', 'Failed', 'card_declined'), T0, policy, null)!;
    expect(failed.subscription.status).toBe('incomplete');
    expect(failed.invoice).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null });
    expect(failed.dueAt).toBeNull();
    const waiting = planInvoiceOutcome(sub, invoice(), pay('pay_1', 'RequiresAction'), T0, policy, null)!;
    expect(waiting.events).toEqual([]);
    expect(waiting.invoice.attempt_count).toBe(1);
  });
  test('a renewal waiting on the absent payer: past_due, next try on the schedule, a day later when none is left', () => {
    const plan = planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'RequiresAction'), T0, policy, T0)!;
    expect(plan.subscription.status).toBe('past_due');
    expect(plan.dueAt).toBe(at(DAY));
    const last = planInvoiceOutcome(
      subscription({ status: 'past_due' }),
      invoice({ attempt_count: 3, payment_ids: ['a', 'b', 'c'] }),
      pay('d', 'RequiresAction'),
      at(7 * DAY),
      policy,
      at(7 * DAY),
    )!;
    expect(last.subscription.status).toBe('past_due');
    expect(last.dueAt).toBe(at(7 * DAY + WAITING_PAYER_MS));
  });
  test('an outcome not known yet: counted, looked at again after an hour; listed already and not final: nothing', () => {
    const plan = planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Processing'), T0, policy, T0)!;
    expect(plan.invoice.attempt_count).toBe(1);
    expect(plan.dueAt).toBe(at(PENDING_RECHECK_MS));
    expect(plan.events).toEqual([]);
    expect(planInvoiceOutcome(subscription(), plan.invoice, pay('pay_1', 'Processing'), T0, policy, T0)).toBeUndefined();
    // Settled later: counted once.
    const settled = planInvoiceOutcome(subscription(), plan.invoice, pay('pay_1', 'Succeeded'), T0, policy, plan.dueAt)!;
    expect(settled.invoice).toMatchObject({ status: 'paid', attempt_count: 1, payment_ids: ['pay_1'] });
  });
  test('an invoice not open changes nothing; a past_due subscription paid becomes active', () => {
    expect(planInvoiceOutcome(subscription(), invoice({ status: 'paid' }), pay('x', 'Succeeded'), T0, policy, T0)).toBeUndefined();
    const plan = planInvoiceOutcome(
      subscription({ status: 'past_due' }),
      invoice({ attempt_count: 1, payment_ids: ['a'] }),
      pay('b', 'Succeeded'),
      T0,
      policy,
      T0,
    )!;
    expect(plan.subscription.status).toBe('active');
    expect(plan.events.map((e) => e.type)).toEqual(['invoice.paid', 'subscription.updated']);
  });

  test('a try in flight at a cancel decides the invoice: paid on success, void on failure, looked at again while pending', () => {
    const canceled = subscription({ status: 'canceled', canceled_at: T0, cancellation_details: { reason: 'cancellation_requested' } });
    const open = invoice({ next_payment_attempt: null });
    const paid = planInvoiceOutcome(canceled, open, pay('pay_1', 'Succeeded'), T0, policy, T0, 'pay_1')!;
    expect(paid.invoice).toMatchObject({ status: 'paid', amount_paid: 1000, attempt_count: 1, payment_ids: ['pay_1'] });
    expect(paid).toMatchObject({ charging: null, dueAt: null });
    expect(paid.subscription.status).toBe('canceled');
    expect(paid.events.map((e) => e.type)).toEqual(['invoice.paid']);
    const failed = planInvoiceOutcome(canceled, open, pay('pay_1', 'Failed', 'card_declined'), T0, policy, T0, 'pay_1')!;
    expect(failed.invoice).toMatchObject({ status: 'void', amount_paid: 0, next_payment_attempt: null });
    expect(failed).toMatchObject({ charging: null, dueAt: null });
    expect(failed.subscription.status).toBe('canceled');
    const pending = planInvoiceOutcome(canceled, open, pay('pay_1', 'Processing'), T0, policy, T0, 'pay_1')!;
    expect(pending.invoice).toMatchObject({ status: 'open', payment_ids: ['pay_1'] });
    expect(pending).toMatchObject({ charging: 'pay_1', dueAt: at(PENDING_RECHECK_MS) });
  });
  test("the invoice's own try landing on it voided meanwhile pays it; another payment does not", () => {
    const voided = invoice({ status: 'void', next_payment_attempt: null });
    const canceled = subscription({ status: 'canceled' });
    const plan = planInvoiceOutcome(canceled, voided, pay('pay_1', 'Succeeded'), T0, policy, null, 'pay_1')!;
    expect(plan.invoice).toMatchObject({ status: 'paid', amount_paid: 1000, payment_ids: ['pay_1'], attempt_count: 1 });
    expect(plan.charging).toBeNull();
    expect(plan.events.map((e) => e.type)).toEqual(['invoice.paid']);
    expect(planInvoiceOutcome(canceled, voided, pay('pay_2', 'Succeeded'), T0, policy, null, 'pay_1')).toBeUndefined();
    expect(planInvoiceOutcome(canceled, voided, pay('pay_2', 'Succeeded'), T0, policy, null, null)).toBeUndefined();
    // Its failure only ends the try.
    const ended = planInvoiceOutcome(canceled, voided, pay('pay_1', 'Failed'), T0, policy, null, 'pay_1')!;
    expect(ended.invoice.status).toBe('void');
    expect(ended.charging).toBeNull();
    expect(ended.events).toEqual([]);
  });
  test('a final outcome of the try in flight ends it; one not final keeps it', () => {
    expect(planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Failed'), T0, policy, T0, 'pay_1')!.charging).toBeNull();
    expect(planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'RequiresAction'), T0, policy, T0, 'pay_1')!.charging).toBe('pay_1');
    expect(planInvoiceOutcome(subscription(), invoice(), pay('pay_1', 'Succeeded'), T0, policy, T0, 'pay_1')!.charging).toBeNull();
    // A try that could not be created (its method unusable) ends the one in flight too.
    expect(
      planInvoiceOutcome(subscription(), invoice(), pay('', 'Failed', 'payment_method_unusable'), T0, policy, T0, 'pay_1')!.charging,
    ).toBeNull();
  });
});
