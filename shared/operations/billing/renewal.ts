/**
 * The billing work of one subscription that fell due (docs/api.md "Renewals"): what the renewal worker and a test
 * clock's advance do for each due entry. Each step reads the subscription (consistent) and its latest invoice
 * and does the one thing due, then looks again, until nothing is due at `now`:
 * - its latest invoice is open: settle a try whose outcome arrived, look again later at one still pending,
 *   cancel a try still waiting on the absent payer, or make the next try (shared/operations/billing/invoice-collection.ts);
 *   of a subscription canceled while a try was in flight, settle that try only ({@link settleCanceled});
 * - its period ends at the end of billing time (9999-12-31T23:59:59Z): nothing more (no period starts there);
 * - its period ended and `cancel_at_period_end`: canceled at the period's end (`subscription.canceled`);
 * - its period (or trial) ended: the next period starts where the last ended (never skipped, so a worker that
 *   was stopped catches up period by period), with its invoice (id derived from the subscription and the
 *   period start: a conditional put that succeeds once) in one transaction with the subscription, then tried.
 * Nothing here is answered to a client: errors are thrown for the caller to log and retry later (the entry
 * stays due).
 */
import { addBillingMs, instantOf, isLastBillingTime, nextPeriodEnd } from '../../domain/billing-period';
import { ApiError } from '../../domain/errors';
import type { Payment } from '../../domain/payment';
import { type Invoice, invoiceIdFor, type Subscription } from '../../domain/subscription';
import { getPayment } from '../../storage/payments-repository';
import { ItemExistsError } from '../../storage/storage-errors';
import {
  getStoredInvoice,
  getStoredSubscription,
  type StoredInvoice,
  type StoredSubscription,
  SubscriptionChangedError,
  writeSubscriptionChange,
} from '../../storage/subscriptions-repository';
import { cancelPayment } from '../payments/payment-capture-void';
import type { RequestContext } from '../request-context';
import { applyPaymentToInvoice, chargeInvoice, nextVersion, PENDING_RECHECK_MS } from './invoice-collection';

/** Steps of one subscription per call: enough for a renewal and its try, bounded so a bug cannot loop. */
const MAX_STEPS = 8;

/** What a call did, for the worker's report. */
export type RenewalOutcome = 'renewed' | 'retried' | 'settled' | 'canceled' | 'waiting' | 'busy' | 'not_due';

/**
 * Does the billing work of a subscription that is due at `now` (see the module comment).
 * @param ctx the merchant and the public base URL (for a payment's hosted page); no Idempotency-Key
 * @param now ISO 8601 UTC: real time, or the test clock's time the advance has reached
 * @returns the last thing done (`not_due` when nothing was due)
 * @throws storage errors, OutcomeUnknownError (a try whose outcome could not be recorded; the same try resumes
 *   it next time)
 */
export async function workDueSubscription(ctx: RequestContext, subscriptionId: string, now: string): Promise<RenewalOutcome> {
  let outcome: RenewalOutcome = 'not_due';
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const stored = await getStoredSubscription(ctx.merchantId, subscriptionId);
    // Times compared as instants (shared/domain/billing-period.ts), never as text.
    if (!stored || !stored.dueAt || instantOf(stored.dueAt) > instantOf(now)) return outcome;
    const s = stored.subscription;
    const latest = s.latest_invoice_id ? await getStoredInvoice(ctx.merchantId, s.latest_invoice_id) : undefined;
    try {
      const did =
        latest?.invoice.status === 'open'
          ? await collect(ctx, stored, latest, now)
          : await renew(ctx.merchantId, stored, latest?.invoice, now);
      if (did === 'busy') return did;
      outcome = did;
    } catch (err) {
      // Another run changed it meanwhile (or holds the same try): look again.
      if (err instanceof SubscriptionChangedError || err instanceof ItemExistsError) continue;
      if (err instanceof ApiError && err.code === 'idempotency_key_in_use') return 'busy';
      throw err;
    }
  }
  return outcome;
}

/** The next work on an open invoice (see the module comment). */
async function collect(ctx: RequestContext, stored: StoredSubscription, read: StoredInvoice, now: string): Promise<RenewalOutcome> {
  const s = stored.subscription;
  if (s.status === 'incomplete') return clearDue(ctx.merchantId, stored, now);
  const { invoice, charging } = read;
  // The try to look at: the one in flight (listed or not yet), else the last listed.
  const lastId = charging ?? invoice.payment_ids.at(-1);
  const last = lastId ? (await getPayment(ctx.merchantId, lastId))?.payment : undefined;
  if (s.status === 'canceled') return settleCanceled(ctx, stored, read, last, now);
  if (last) {
    const unapplied =
      last.status === 'Succeeded' || (last.status === 'Failed' && invoice.next_payment_attempt === null && s.status !== 'unpaid');
    if (unapplied) {
      await applyPaymentToInvoice(ctx.merchantId, stored, read, last, now);
      return 'settled';
    }
    if (last.status === 'Processing') {
      await writeDue(ctx.merchantId, stored, addBillingMs(now, PENDING_RECHECK_MS), now);
      return 'waiting';
    }
    if (last.status === 'RequiresAction') {
      // The payer never came back: the waiting payment is canceled before another is tried (never two live tries).
      const canceled = await cancelPayment(ctx, last.payment_id, 'abandoned');
      if (canceled.status !== 'Cancelled') {
        await applyPaymentToInvoice(ctx.merchantId, stored, read, canceled, now);
        return 'settled';
      }
    }
  }
  try {
    await chargeInvoice(ctx, stored, read, now);
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 400 || err.code === 'idempotency_key_in_use' || err.code === 'concurrent_update')
      throw err;
    // The saved method cannot be charged any more (detached, its customer deleted): a try that can never pay. Its
    // payment was never created (the method is checked first), so the try in flight ends with it.
    const again = await getStoredInvoice(ctx.merchantId, invoice.invoice_id);
    if (!again) throw err;
    if (again.charging && (await getPayment(ctx.merchantId, again.charging))) throw err;
    await applyPaymentToInvoice(
      ctx.merchantId,
      stored,
      again,
      { payment_id: '', status: 'Failed', amount: invoice.amount_due, error_code: 'payment_method_unusable' } as never,
      now,
    );
  }
  return 'retried';
}

/**
 * The open invoice of a subscription canceled while a try was in flight (docs/money-safety.md "Billing: a cancel
 * never strands a renewal's money"): the try decides it. A final outcome is applied (a success pays the invoice; a failure or a
 * cancellation voids it); one still `Processing` is looked at again later (the reconciler settles the payment, and
 * the invoice follows); one waiting on the absent payer is canceled first (the processor orders that against the
 * payer's own answer). An invoice with no try in flight, or whose try's payment was never created (its charger died
 * before it), is voided: should that try's charge still land, its success pays the voided invoice (the planner).
 */
async function settleCanceled(
  ctx: RequestContext,
  stored: StoredSubscription,
  read: StoredInvoice,
  last: Payment | undefined,
  now: string,
): Promise<RenewalOutcome> {
  const { invoice, charging } = read;
  if (charging && last) {
    if (last.status === 'Processing') {
      await writeDue(ctx.merchantId, stored, addBillingMs(now, PENDING_RECHECK_MS), now);
      return 'waiting';
    }
    const outcome = last.status === 'RequiresAction' ? await cancelPayment(ctx, last.payment_id, 'abandoned') : last;
    if (outcome.status === 'RequiresAction' || outcome.status === 'Processing') {
      await writeDue(ctx.merchantId, stored, addBillingMs(now, PENDING_RECHECK_MS), now);
      return 'waiting';
    }
    await applyPaymentToInvoice(ctx.merchantId, stored, read, outcome, now);
    return 'settled';
  }
  const voided: Invoice = { ...invoice, status: 'void', next_payment_attempt: null, updated_at: nextVersion(invoice.updated_at, now) };
  const after = { ...stored.subscription, updated_at: nextVersion(stored.subscription.updated_at, now) };
  await writeSubscriptionChange(ctx.merchantId, {
    subscription: { after, readAt: stored.subscription.updated_at, listShards: stored.listShards, dueAt: null },
    invoice: { after: voided, readAt: invoice.updated_at, charging },
    events: [],
  });
  return 'canceled';
}

/** A subscription whose period (or trial) ended with nothing owed: canceled at period end, or renewed. */
async function renew(merchantId: string, stored: StoredSubscription, latest: Invoice | undefined, now: string): Promise<RenewalOutcome> {
  const s = stored.subscription;
  if (!['trialing', 'active', 'past_due'].includes(s.status)) return clearDue(merchantId, stored, now);
  if (instantOf(s.current_period_end) > instantOf(now)) {
    await writeDue(merchantId, stored, s.current_period_end, now);
    return 'not_due';
  }
  if (s.cancel_at_period_end) {
    const after: Subscription = {
      ...s,
      status: 'canceled',
      canceled_at: s.current_period_end,
      cancellation_details: { reason: 'cancellation_requested' },
      updated_at: nextVersion(s.updated_at, now),
    };
    await writeSubscriptionChange(merchantId, {
      subscription: { after, readAt: s.updated_at, listShards: stored.listShards, dueAt: null },
      events: [{ type: 'subscription.canceled', data: after }],
    });
    return 'canceled';
  }
  // Billing time ends at 9999-12-31T23:59:59Z (shared/domain/billing-period.ts): a period ending there is the last.
  if (isLastBillingTime(s.current_period_end)) return clearDue(merchantId, stored, now);
  const start = s.current_period_end;
  const end = nextPeriodEnd(s.billing_cycle_anchor, s.interval, s.interval_count, start);
  const invoiceId = invoiceIdFor(s.subscription_id, start);
  if (latest?.invoice_id === invoiceId) return clearDue(merchantId, stored, now);
  const invoice: Invoice = {
    invoice_id: invoiceId,
    subscription_id: s.subscription_id,
    customer_id: s.customer_id ?? latest?.customer_id ?? '',
    amount_due: s.amount,
    amount_paid: 0,
    currency: s.currency,
    period_start: start,
    period_end: end,
    status: 'open',
    attempt_count: 0,
    next_payment_attempt: now,
    payment_ids: [],
    created_at: now,
    updated_at: now,
  };
  const after: Subscription = {
    ...s,
    status: s.status === 'trialing' ? 'active' : s.status,
    current_period_start: start,
    current_period_end: end,
    latest_invoice_id: invoiceId,
    updated_at: nextVersion(s.updated_at, now),
  };
  await writeSubscriptionChange(merchantId, {
    subscription: { after, readAt: s.updated_at, listShards: stored.listShards, dueAt: now },
    invoice: { after: invoice, readAt: undefined, charging: null },
    events: [
      { type: 'invoice.created', data: invoice },
      { type: 'subscription.updated', data: after },
    ],
  });
  return 'renewed';
}

/** Moves (or removes: null) the subscription's due entry, nothing else. */
async function writeDue(merchantId: string, stored: StoredSubscription, dueAt: string | null, now: string): Promise<void> {
  // Always a new updated_at (the condition of every other writer), even when the clock's `now` is behind it.
  const after = { ...stored.subscription, updated_at: nextVersion(stored.subscription.updated_at, now) };
  await writeSubscriptionChange(merchantId, {
    subscription: { after, readAt: stored.subscription.updated_at, listShards: stored.listShards, dueAt },
    events: [],
  });
}

async function clearDue(merchantId: string, stored: StoredSubscription, now: string): Promise<RenewalOutcome> {
  await writeDue(merchantId, stored, null, now);
  return 'not_due';
}
