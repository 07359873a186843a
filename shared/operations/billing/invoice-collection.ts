/**
 * Collecting an invoice (issue 24): charging it off-session through `createPayment`, and moving the invoice and
 * its subscription when a payment for it ends. One planner ({@link planInvoiceOutcome}, pure) decides every
 * change, whoever learns the payment's outcome: the create's first charge, the renewal worker, a payment
 * settled later (3-D Secure, a sync, a webhook, the reconciler: shared/operations/billing/invoice-settlement.ts).
 *
 * Once-only rules:
 * - the payment of try `n` of an invoice is created with the Idempotency-Key `invoice:<invoice_id>:attempt:<n>`,
 *   from which its payment id is derived: two workers at once, or a run that died after the processor call,
 *   find the same payment (never a second charge);
 * - every change is one conditional transaction on the invoice's and subscription's `updated_at`, with its
 *   events (the outbox); a payment already listed on the invoice is never counted twice.
 * docs/api.md "Subscriptions and invoices" (Renewals, Dunning).
 */

import { type DunningPolicy, dunningPolicyFrom, nextRetryAt } from '../../domain/dunning';
import { ApiError } from '../../domain/errors';
import type { EventType } from '../../domain/events';
import type { Payment } from '../../domain/payment';
import type { Invoice, Subscription } from '../../domain/subscription';
import {
  getStoredSubscription,
  getInvoice as readInvoice,
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
  subscription: Subscription;
  /** When the subscription's next billing work is due, or null for none. */
  dueAt: string | null;
  events: { type: EventType; data: Subscription | Invoice }[];
}

const addMs = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

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
 * @param now ISO 8601 UTC: real time, or the subscription's test clock's
 * @returns undefined when the invoice is not open, or the payment is listed already and not final
 */
export function planInvoiceOutcome(
  subscription: Subscription,
  invoice: Invoice,
  payment: Pick<Payment, 'payment_id' | 'status' | 'amount' | 'error_code'>,
  now: string,
  dunning: DunningPolicy,
  currentDueAt: string | null,
): InvoiceOutcome | undefined {
  if (invoice.status !== 'open') return undefined;
  // No payment id: no payment could be created (the saved method is gone); nothing to list.
  const listed = payment.payment_id === '' || invoice.payment_ids.includes(payment.payment_id);
  const final = payment.status === 'Succeeded' || payment.status === 'Failed';
  if (listed && !final) return undefined;
  const inv: Invoice = listed
    ? { ...invoice, updated_at: now }
    : {
        ...invoice,
        attempt_count: invoice.attempt_count + 1,
        payment_ids: [...invoice.payment_ids, payment.payment_id],
        updated_at: now,
      };
  const latest = subscription.latest_invoice_id === invoice.invoice_id;
  const first = latest && subscription.status === 'incomplete';
  let sub: Subscription = subscription;
  let dueAt = currentDueAt;
  const events: InvoiceOutcome['events'] = [];
  const becomes = (status: Subscription['status'], extra: Partial<Subscription> = {}) => {
    sub = { ...sub, status, ...extra, updated_at: now };
  };
  if (payment.status === 'Succeeded') {
    Object.assign(inv, { status: 'paid', amount_paid: payment.amount, next_payment_attempt: null });
    events.push({ type: 'invoice.paid', data: inv });
    if (latest && ['incomplete', 'past_due', 'unpaid'].includes(subscription.status)) {
      becomes('active');
      events.push({ type: 'subscription.updated', data: sub });
    }
    if (latest && sub.status !== 'canceled') dueAt = sub.current_period_end;
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
        ? (nextRetryAt(dunning, invoice.created_at, inv.attempt_count, null) ?? addMs(now, WAITING_PAYER_MS))
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
    if (latest && !first) dueAt = addMs(now, PENDING_RECHECK_MS);
  }
  return { invoice: inv, subscription: sub, dueAt, events };
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
  firstInvoice: Invoice,
  payment: Payment,
  now: string,
): Promise<Subscription> {
  let stored = first;
  let invoice = firstInvoice;
  for (let tries = 1; ; tries += 1) {
    const plan = planInvoiceOutcome(stored.subscription, invoice, payment, now, stageDunningPolicy(), stored.dueAt);
    if (!plan) return stored.subscription;
    const subscriptionChanged = plan.subscription !== stored.subscription || plan.dueAt !== stored.dueAt;
    const change: SubscriptionWrite = { invoice: { after: plan.invoice, readAt: invoice.updated_at }, events: plan.events };
    if (subscriptionChanged) {
      const after = plan.subscription === stored.subscription ? { ...plan.subscription, updated_at: now } : plan.subscription;
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
      const againInvoice = await readInvoice(merchantId, invoice.invoice_id);
      if (!again || !againInvoice) throw err;
      stored = again;
      invoice = againInvoice;
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
 * outcome applied to the invoice and the subscription.
 * @param now ISO 8601 UTC (real, or the test clock's): the time of the changes
 * @throws ApiError from createPayment (e.g. 409 `idempotency_key_in_use` while another run holds the same try);
 *   OutcomeUnknownError when the outcome could not be recorded (the same try resumes it); storage errors
 */
export async function chargeInvoice(ctx: RequestContext, stored: StoredSubscription, invoice: Invoice, now: string): Promise<Subscription> {
  const attempt = invoice.attempt_count + 1;
  // The create schema is loaded when a charge is made, not by every subscription or customer handler (issue 27).
  const [{ createPaymentBodySchema }, { createPayment }] = await Promise.all([
    import('../../schemas/payment-schemas'),
    import('../payment-operations'),
  ]);
  const body = createPaymentBodySchema.parse({
    amount: invoice.amount_due,
    currency: invoice.currency,
    customer_id: stored.subscription.customer_id,
    payment_method_id: stored.subscription.payment_method_id,
    off_session: true,
    confirm: true,
    metadata: { subscription_id: stored.subscription.subscription_id, invoice_id: invoice.invoice_id },
  });
  const payment = await createPayment({ ...ctx, idempotencyKey: `invoice:${invoice.invoice_id}:attempt:${attempt}` }, body);
  return applyPaymentToInvoice(ctx.merchantId, stored, invoice, payment, now);
}
