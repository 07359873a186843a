/**
 * Collecting an invoice: charging it off-session through `createPayment`, and moving the invoice and
 * its subscription when a payment for it ends. One planner ({@link planInvoiceOutcome}, pure) decides every
 * change, whoever learns the payment's outcome: the create's first charge, the renewal worker, a payment
 * settled later (3-D Secure, a sync, a webhook, the reconciler: shared/operations/billing/invoice-settlement.ts).
 *
 * Once-only rules:
 * - the payment of try `n` of an invoice is created with the Idempotency-Key `invoice:<invoice_id>:attempt:<n>`,
 *   from which its payment id is derived: two workers at once, or a run that died after the processor call,
 *   find the same payment (never a second charge);
 * - every change is one conditional transaction on the invoice's and subscription's `updated_at`, with its
 *   events (the outbox); a payment already listed on the invoice is never counted twice;
 * - a try is written on its invoice as in flight before the processor is called, and a cancel never voids an
 *   invoice with a try in flight; every succeeded try pays its own invoice (docs/money-safety.md).
 * docs/api.md "Subscriptions and invoices" (Renewals, Dunning).
 */

import { addBillingMs, instantOf } from '../../domain/billing-period';
import { type DunningPolicy, dunningPolicyFrom, nextRetryAt } from '../../domain/dunning';
import { ApiError } from '../../domain/errors';
import type { EventType } from '../../domain/events';
import type { Payment } from '../../domain/payment';
import type { Invoice, Subscription } from '../../domain/subscription';
import { getPayment } from '../../storage/payments-repository';
import {
  getStoredInvoice,
  getStoredSubscription,
  type StoredInvoice,
  type StoredSubscription,
  SubscriptionChangedError,
  type SubscriptionWrite,
  writeSubscriptionChange,
} from '../../storage/subscriptions-repository';
import type { RequestContext } from '../request-context';

/** How long after a try whose outcome is not known yet (`Processing`) the renewal worker looks at it again: 1 hour. */
export const PENDING_RECHECK_MS = 3_600_000;

/** How long a renewal's payment waits on the absent payer when no scheduled try is left: 1 day. */
export const WAITING_PAYER_MS = 86_400_000;

/** Conditional writes tried before giving up to concurrent changes (the next path to see the payment retries). */
const ATTEMPTS = 3;

/** The stage's dunning policy (read once per container). */
let policy: DunningPolicy | undefined;
/** The stage's dunning policy, from `BILLING_RETRY_DAYS` and `BILLING_DUNNING_FINAL` (shared/domain/dunning.ts). */
export function stageDunningPolicy(): DunningPolicy {
  policy ??= dunningPolicyFrom();
  return policy;
}

/** The change a payment's outcome makes, or undefined when it makes none. */
export interface InvoiceOutcome {
  invoice: Invoice;
  /** The try in flight the invoice keeps after the change (null once the try's final outcome is applied). */
  charging: string | null;
  subscription: Subscription;
  /** When the subscription's next billing work is due, or null for none. */
  dueAt: string | null;
  events: { type: EventType; data: Subscription | Invoice }[];
}

/**
 * The `updated_at` of a change made at `now` to an item last changed at `prev`: `now`, or 1 ms after `prev` when
 * `now` is not later (a test clock's time can be behind an item's version). Always new, so a writer conditional on
 * the `updated_at` it read never passes over this change.
 */
export function nextVersion(prev: string, now: string): string {
  return instantOf(now) > instantOf(prev) ? now : addBillingMs(prev, 1);
}

const FINAL_STATUSES: readonly string[] = ['Succeeded', 'Failed', 'Cancelled'];

/**
 * What a payment attempted for an invoice changes (pure). The payment is added to the invoice's tries when it is
 * not listed yet; then by its status:
 * - `Succeeded`: invoice `paid`; a subscription waiting on it (incomplete, past_due, unpaid) becomes `active`;
 *   its next work is the end of its period.
 * - `Failed`: `invoice.payment_failed`. The first invoice of an `incomplete` subscription is not retried (the
 *   payer is asked again, as at Stripe). A renewal's next try is planned on the dunning schedule
 *   (`subscription.past_due` when it was active); with none left, or after a hard decline, the subscription
 *   becomes `canceled` (reason `payment_failed`, invoice `uncollectible`) or `unpaid`, as the stage says.
 * - `RequiresAction` (a processor asking for the absent payer): counted as a try, the subscription `past_due`,
 *   the next try at the schedule's next time, or {@link WAITING_PAYER_MS} later when none is left (the worker
 *   cancels the waiting payment first; a payer who completes it meanwhile pays the invoice).
 * - `Processing` (not known yet): counted as a try; the worker looks again after {@link PENDING_RECHECK_MS}.
 * A subscription canceled while a try was in flight (its invoice left open, docs/money-safety.md "Billing: a cancel
 * never strands a renewal's money"): a success pays the invoice, a failure or cancellation voids it, a try not final yet is
 * looked at again after {@link PENDING_RECHECK_MS}; it stays canceled.
 * A success of the invoice's own try landing on an invoice voided or marked uncollectible meanwhile (its try the
 * voiding could not see) marks it `paid` with `invoice.paid`: the payer's money always pays the period it was taken
 * for. A final outcome of the try in flight (`charging`) ends it (`charging` null).
 * @param now ISO 8601 UTC: real time, or the subscription's test clock's
 * @param charging the invoice's try in flight (shared/storage/subscriptions-repository.ts `StoredInvoice`), or null
 * @returns undefined when nothing changes: the payment is not one of the invoice's, or is listed already and not
 *   final, or the invoice is closed and the payment's outcome does not reopen it
 */
export function planInvoiceOutcome(
  subscription: Subscription,
  invoice: Invoice,
  payment: Pick<Payment, 'payment_id' | 'status' | 'amount' | 'error_code'>,
  now: string,
  dunning: DunningPolicy,
  currentDueAt: string | null,
  charging: string | null = null,
): InvoiceOutcome | undefined {
  const final = FINAL_STATUSES.includes(payment.status);
  // No payment id: no payment could be created (the saved method is gone); nothing to list, and no try in flight.
  const ownTry = payment.payment_id !== '' && payment.payment_id === charging;
  const afterCharging = payment.payment_id === '' || (ownTry && final) ? null : charging;
  const listed = payment.payment_id === '' || invoice.payment_ids.includes(payment.payment_id);
  const latest = subscription.latest_invoice_id === invoice.invoice_id;
  const listedInv = (): Invoice =>
    listed
      ? { ...invoice, updated_at: now }
      : {
          ...invoice,
          attempt_count: invoice.attempt_count + 1,
          payment_ids: [...invoice.payment_ids, payment.payment_id],
          updated_at: now,
        };
  if (invoice.status !== 'open') {
    if (payment.status === 'Succeeded' && (listed || ownTry) && invoice.status !== 'paid') {
      const inv: Invoice = { ...listedInv(), status: 'paid', amount_paid: payment.amount, next_payment_attempt: null };
      return { invoice: inv, charging: afterCharging, subscription, dueAt: currentDueAt, events: [{ type: 'invoice.paid', data: inv }] };
    }
    if (afterCharging !== charging)
      return { invoice: { ...invoice, updated_at: now }, charging: afterCharging, subscription, dueAt: currentDueAt, events: [] };
    return undefined;
  }
  if (listed && !final) return undefined;
  const inv: Invoice = listedInv();
  const first = latest && subscription.status === 'incomplete';
  let sub: Subscription = subscription;
  let dueAt = currentDueAt;
  const events: InvoiceOutcome['events'] = [];
  const becomes = (status: Subscription['status'], extra: Partial<Subscription> = {}) => {
    sub = { ...sub, status, ...extra, updated_at: now };
  };
  if (subscription.status === 'canceled') {
    // Canceled while this try was in flight: the try decides the invoice; nothing is tried again.
    inv.next_payment_attempt = null;
    if (payment.status === 'Succeeded') {
      Object.assign(inv, { status: 'paid', amount_paid: payment.amount });
      events.push({ type: 'invoice.paid', data: inv });
      if (latest) dueAt = null;
    } else if (final) {
      if (payment.status === 'Failed') events.push({ type: 'invoice.payment_failed', data: inv });
      inv.status = 'void';
      if (latest) dueAt = null;
    } else if (latest) {
      dueAt = addBillingMs(now, PENDING_RECHECK_MS);
    }
    return { invoice: inv, charging: afterCharging, subscription: sub, dueAt, events };
  }
  if (payment.status === 'Succeeded') {
    Object.assign(inv, { status: 'paid', amount_paid: payment.amount, next_payment_attempt: null });
    events.push({ type: 'invoice.paid', data: inv });
    if (latest && ['incomplete', 'past_due', 'unpaid'].includes(subscription.status)) {
      becomes('active');
      events.push({ type: 'subscription.updated', data: sub });
    }
    if (latest && sub.status !== 'canceled') dueAt = sub.current_period_end;
  } else if (payment.status === 'Cancelled') {
    // A waiting try the worker canceled before the next: it ends, nothing else changes.
    return { invoice: { ...invoice, updated_at: now }, charging: afterCharging, subscription, dueAt: currentDueAt, events: [] };
  } else if (payment.status === 'Failed' || payment.status === 'RequiresAction') {
    // A first charge waiting on the payer (3-D Secure in their session) has not failed: no event until it ends.
    if (!(first && payment.status === 'RequiresAction')) events.push({ type: 'invoice.payment_failed', data: inv });
    if (first || !latest) {
      inv.next_payment_attempt = null;
      if (first) dueAt = null;
    } else {
      // A waiting payer is not a decline and never final: the next try keeps to the schedule (a day later when
      // none is left), and the worker cancels the waiting payment before it.
      const waiting = payment.status === 'RequiresAction';
      const next = waiting
        ? (nextRetryAt(dunning, invoice.created_at, inv.attempt_count, null) ?? addBillingMs(now, WAITING_PAYER_MS))
        : nextRetryAt(dunning, invoice.created_at, inv.attempt_count, payment.error_code);
      inv.next_payment_attempt = next;
      if (next) {
        dueAt = next;
        if (subscription.status !== 'past_due') {
          becomes('past_due');
          events.push({ type: 'subscription.past_due', data: sub });
        }
      } else if (dunning.final === 'canceled') {
        inv.status = 'uncollectible';
        becomes('canceled', { canceled_at: now, cancellation_details: { reason: 'payment_failed' } });
        events.push({ type: 'subscription.canceled', data: sub });
        dueAt = null;
      } else {
        becomes('unpaid');
        events.push({ type: 'subscription.updated', data: sub });
        dueAt = null;
      }
    }
  } else {
    // Processing: the outcome is not known yet; look again later.
    inv.next_payment_attempt = null;
    if (latest && !first) dueAt = addBillingMs(now, PENDING_RECHECK_MS);
  }
  return { invoice: inv, charging: afterCharging, subscription: sub, dueAt, events };
}

/**
 * Applies a payment's outcome to its invoice ({@link planInvoiceOutcome}), re-reading and retrying on a concurrent
 * change.
 * @returns the subscription after the change (as read when nothing was to change)
 * @throws storage errors; ApiError 409 `concurrent_update` (transient) after {@link ATTEMPTS} lost races
 */
export async function applyPaymentToInvoice(
  merchantId: string,
  first: StoredSubscription,
  firstInvoice: StoredInvoice,
  payment: Payment,
  now: string,
): Promise<Subscription> {
  let stored = first;
  let current = firstInvoice;
  for (let tries = 1; ; tries += 1) {
    const { invoice, charging } = current;
    const plan = planInvoiceOutcome(stored.subscription, invoice, payment, now, stageDunningPolicy(), stored.dueAt, charging);
    if (!plan) return stored.subscription;
    // Always a new version of the invoice (the condition of every other writer), even when the clock's `now` is behind it.
    const invoiceAfter = { ...plan.invoice, updated_at: nextVersion(invoice.updated_at, now) };
    for (const e of plan.events) if (e.data === plan.invoice) e.data = invoiceAfter;
    const subscriptionChanged = plan.subscription !== stored.subscription || plan.dueAt !== stored.dueAt;
    const change: SubscriptionWrite = {
      invoice: { after: invoiceAfter, readAt: invoice.updated_at, charging: plan.charging },
      events: plan.events,
    };
    if (subscriptionChanged) {
      const after = { ...plan.subscription, updated_at: nextVersion(stored.subscription.updated_at, now) };
      change.subscription = { after, readAt: stored.subscription.updated_at, listShards: stored.listShards, dueAt: plan.dueAt };
      for (const e of change.events) if (e.data === plan.subscription) e.data = after;
    }
    try {
      await writeSubscriptionChange(merchantId, change);
      return change.subscription?.after ?? stored.subscription;
    } catch (err) {
      if (!(err instanceof SubscriptionChangedError)) throw err;
      if (tries >= ATTEMPTS) throw concurrentChange();
      const again = await getStoredSubscription(merchantId, stored.subscription.subscription_id);
      const againInvoice = await getStoredInvoice(merchantId, invoice.invoice_id);
      if (!again || !againInvoice) throw err;
      stored = again;
      current = againInvoice;
    }
  }
}

/** 409 `concurrent_update` (transient): other requests kept changing the subscription while this one tried. */
export function concurrentChange(): ApiError {
  return new ApiError(
    409,
    'api_error',
    'concurrent_update',
    'Another request changed this subscription at the same moment; nothing was changed. Retry the request.',
  ).asTransient();
}

/**
 * Tries to collect an open invoice once more: try `attempt_count + 1`, a payment created off-session through the
 * subscription's saved method with the Idempotency-Key `invoice:<id>:attempt:<n>` (see the module comment), its
 * outcome applied to the invoice and the subscription. Before the processor is called the try is written on the
 * invoice as in flight (`charging`, one conditional write on its `updated_at`): a cancel that voided the invoice
 * first makes this write fail and nothing is charged; a cancel after it sees the try and leaves the invoice open
 * for the try's outcome (docs/money-safety.md "Billing: a cancel never strands a renewal's money"). A try already in flight (its
 * charger died before the processor was called) is made again under the same key: never a second charge.
 * A charge the processor refused (createPayment's 502 `connector_error`, the payment recorded `Failed`) is a failed try.
 * @param now ISO 8601 UTC (real, or the test clock's): the time of the changes
 * @throws SubscriptionChangedError when the invoice changed since it was read (nothing was charged); ApiError from
 *   createPayment (e.g. 409 `idempotency_key_in_use` while another run holds the same try); OutcomeUnknownError
 *   when the outcome could not be recorded (the same try resumes it); storage errors
 */
export async function chargeInvoice(
  ctx: RequestContext,
  stored: StoredSubscription,
  read: StoredInvoice,
  now: string,
): Promise<Subscription> {
  const { invoice } = read;
  if (invoice.status !== 'open') throw new SubscriptionChangedError();
  const attempt = invoice.attempt_count + 1;
  const idempotencyKey = `invoice:${invoice.invoice_id}:attempt:${attempt}`;
  // The create schema is loaded when a charge is made, not by every subscription or customer handler at cold start.
  const [{ createPaymentBodySchema }, { createPayment }, { idempotentId }] = await Promise.all([
    import('../../schemas/payment-schemas'),
    import('../payments/create-payment'),
    import('../../security/keyed-hash'),
  ]);
  // The payment id createPayment derives from the key (shared/operations/payments/create-payment.ts).
  const paymentId = await idempotentId('pay', ctx.merchantId, 'payments', idempotencyKey);
  let current = read;
  if (read.charging !== paymentId) {
    const marked: Invoice = { ...invoice, updated_at: nextVersion(invoice.updated_at, now) };
    await writeSubscriptionChange(ctx.merchantId, {
      invoice: { after: marked, readAt: invoice.updated_at, charging: paymentId },
      events: [],
    });
    current = { invoice: marked, charging: paymentId };
  }
  const body = {
    ...createPaymentBodySchema.parse({
      amount: invoice.amount_due,
      currency: invoice.currency,
      customer_id: stored.subscription.customer_id,
      payment_method_id: stored.subscription.payment_method_id,
      off_session: true,
      confirm: true,
    }),
    // Our own ids, set after the merchant-input schema: its metadata refinement refuses any value holding a
    // card-number-shaped digit run, which random hex holds about once in 10,000 ids (shared/schemas/card-number-refinement.ts).
    metadata: { subscription_id: stored.subscription.subscription_id, invoice_id: invoice.invoice_id },
  };
  let payment: Payment;
  try {
    payment = await createPayment({ ...ctx, idempotencyKey }, body);
  } catch (err) {
    // The processor refused the charge (e.g. the method was detached or its customer deleted while the try was in
    // flight): the payment is recorded Failed, and that is the try's outcome, not an error of the renewal.
    if (!(err instanceof ApiError) || err.type !== 'connector_error') throw err;
    const refused = (await getPayment(ctx.merchantId, paymentId))?.payment;
    if (refused?.status !== 'Failed') throw err;
    payment = refused;
  }
  return applyPaymentToInvoice(ctx.merchantId, stored, current, payment, now);
}
