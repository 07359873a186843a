/**
 * Subscriptions (docs/api.md "Subscriptions and invoices"): Stripe's model, owned by Switchyard. A subscription bills a
 * customer a fixed amount each period by charging the customer's saved payment method off-session through
 * `createPayment` (never a processor's plan API). docs/api.md "Subscriptions and invoices".
 *
 * This module creates, updates and cancels subscriptions (reads and lists: ./subscription-reads.ts) and bills the first period; renewals and
 * dunning are the renewal worker's (./renewal.ts, ./renewal-worker.ts), collecting an invoice is
 * ./invoice-collection.ts's. A subscription of a customer living on a test clock takes its times from the clock.
 */
import { periodBoundary, trialEnd } from '../../domain/billing-period';
import { ApiError, invalidRequest } from '../../domain/errors';
import type { EventType } from '../../domain/events';
import { isIdOf, newId } from '../../domain/ids';
import { type Invoice, invoiceIdFor, type Subscription } from '../../domain/subscription';
import type { CreateSubscriptionBody, UpdateSubscriptionBody } from '../../schemas/subscription-schemas';
import { keyedHash } from '../../security/keyed-hash';
import { registerBillingMerchant } from '../../storage/billing-directory-repository';
import { getCustomer } from '../../storage/customers-repository';
import { shardCount } from '../../storage/list-shards';
import { ItemExistsError } from '../../storage/storage-errors';
import {
  getStoredInvoice,
  getStoredSubscription,
  listSubscriptions as querySubscriptions,
  type StoredInvoice,
  type StoredSubscription,
  SubscriptionChangedError,
  type SubscriptionWrite,
  writeSubscriptionChange,
} from '../../storage/subscriptions-repository';
import { savedMethodToCharge } from '../payment-methods/saved-methods';
import type { RequestContext } from '../request-context';
import { chargeInvoice, concurrentChange, nextVersion } from './invoice-collection';
import { loadSubscription } from './subscription-reads';
import { clockTime } from './test-clocks';

/** Attempts of a change that lost its optimistic condition to a concurrent one. */
const CHANGE_ATTEMPTS = 3;

/** 409 `subscription_unexpected_state`: the operation is not allowed in the subscription's status. */
function subscriptionState(operation: string, status: string): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'subscription_unexpected_state',
    `This subscription has status ${status}; ${operation} is not allowed on a canceled subscription.`,
  );
}

/**
 * Checks that the customer exists and that the saved method is its own, active and saved for off-session use.
 * @throws ApiError 400 `resource_missing` (param `customer_id` or `payment_method_id`), `payment_method_unusable`
 *   (param `payment_method_id`, or `off_session` for a method saved for on-session use only)
 */
async function checkMethod(merchantId: string, customerId: string, paymentMethodId: string): Promise<string | null> {
  const customer = isIdOf('customer', customerId) ? await getCustomer(merchantId, customerId) : undefined;
  if (!customer) throw invalidRequest('resource_missing', 'No such customer (check customer_id).', 'customer_id');
  const testClock = customer.test_clock ?? null;
  try {
    await savedMethodToCharge(merchantId, paymentMethodId, customerId, true);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payment_method_unusable' && err.param === 'off_session') {
      throw invalidRequest(
        'payment_method_unusable',
        'This payment method was saved for on-session use only: a subscription charges it without the payer. Save it with setup_future_usage off_session.',
        'payment_method_id',
      );
    }
    throw err;
  }
  return testClock;
}

/** The time of a change to a subscription: its test clock's, or real time. */
export async function subscriptionNow(merchantId: string, s: Pick<Subscription, 'test_clock'>): Promise<string> {
  return s.test_clock ? clockTime(merchantId, s.test_clock) : new Date().toISOString();
}

/** The subscription id of a create: derived from its Idempotency-Key when sent (a retried create finds the first). */
async function subscriptionIdOf(ctx: RequestContext): Promise<string> {
  if (!ctx.idempotencyKey) return newId('subscription');
  return `sub_${(await keyedHash(`id:sub:${ctx.merchantId}:subscriptions:${ctx.idempotencyKey}`)).slice(0, 32)}`;
}

/**
 * Creates a subscription. A customer on a test clock gives it the clock's time and the clock. With a trial:
 * `trialing`, its period the trial, a paid invoice of 0 for it and no charge (Stripe). Without: `incomplete` with an open invoice for the first period, then the invoice is
 * charged off-session (`createPayment`, Idempotency-Key derived from the invoice id, so a retried create never
 * charges twice): Succeeded → invoice `paid`, subscription `active`; Failed → invoice open with one attempt,
 * subscription `incomplete`; RequiresAction / Processing → both stay so until the payment settles
 * (./invoice-settlement.ts). Its renewal is then due at the end of its period (or trial).
 * A retry with the same Idempotency-Key resumes the first (its charge, if it did not happen) and answers it.
 * @throws ApiError 400 (see {@link checkMethod}); 422 `idempotency_key_reused` when the key was used for another body
 * @throws OutcomeUnknownError (from createPayment) when the charge's outcome could not be recorded: a retry resumes
 */
export async function createSubscription(ctx: RequestContext, body: CreateSubscriptionBody): Promise<Subscription> {
  const testClock = await checkMethod(ctx.merchantId, body.customer_id, body.payment_method_id);
  const subscriptionId = await subscriptionIdOf(ctx);
  const now = testClock ? await clockTime(ctx.merchantId, testClock) : new Date().toISOString();
  if (!testClock) await registerBillingMerchant(ctx.merchantId);
  const trial = body.trial_period_days !== undefined;
  const anchor = trial ? trialEnd(now, body.trial_period_days ?? 0) : now;
  const periodEnd = trial ? anchor : periodBoundary(anchor, body.interval, body.interval_count, 1);
  const invoiceId = invoiceIdFor(subscriptionId, now);
  const subscription: Subscription = {
    subscription_id: subscriptionId,
    customer_id: body.customer_id,
    payment_method_id: body.payment_method_id,
    amount: body.amount,
    currency: body.currency,
    interval: body.interval,
    interval_count: body.interval_count,
    trial_period_days: body.trial_period_days ?? null,
    status: trial ? 'trialing' : 'incomplete',
    billing_cycle_anchor: anchor,
    current_period_start: now,
    current_period_end: periodEnd,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: null,
    latest_invoice_id: invoiceId,
    test_clock: testClock,
    metadata: body.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  const invoice: Invoice = {
    invoice_id: invoiceId,
    subscription_id: subscriptionId,
    customer_id: body.customer_id,
    amount_due: trial ? 0 : body.amount,
    amount_paid: 0,
    currency: body.currency,
    period_start: now,
    period_end: periodEnd,
    status: trial ? 'paid' : 'open',
    attempt_count: 0,
    next_payment_attempt: null,
    payment_ids: [],
    created_at: now,
    updated_at: now,
  };
  const listShards = shardCount(ctx.listShards?.write ?? 1);
  try {
    await writeSubscriptionChange(ctx.merchantId, {
      // A trial's end is due; a charged first period's end is set when its invoice is paid.
      subscription: { after: subscription, readAt: undefined, listShards, dueAt: trial ? periodEnd : null },
      invoice: { after: invoice, readAt: undefined, charging: null },
      events: [
        { type: 'subscription.created', data: subscription },
        { type: 'invoice.created', data: invoice },
        ...(trial ? [{ type: 'invoice.paid' as EventType, data: invoice }] : []),
      ],
    });
  } catch (err) {
    if (!(err instanceof ItemExistsError)) throw err;
    return resumeCreate(ctx, subscriptionId, body);
  }
  if (trial) return subscription;
  return chargeFirst(ctx, { subscription, listShards, dueAt: null }, { invoice, charging: null }, now);
}

/** A retried create (same Idempotency-Key): the first one's subscription, its first invoice charged if it was not. */
async function resumeCreate(ctx: RequestContext, subscriptionId: string, body: CreateSubscriptionBody): Promise<Subscription> {
  const stored = await getStoredSubscription(ctx.merchantId, subscriptionId);
  if (!stored) throw concurrentChange();
  const s = stored.subscription;
  if (s.amount !== body.amount || s.currency !== body.currency || s.customer_id !== body.customer_id) {
    throw new ApiError(
      422,
      'idempotency_error',
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
    );
  }
  if (s.status !== 'incomplete' || !s.latest_invoice_id) return s;
  const invoice = await getStoredInvoice(ctx.merchantId, s.latest_invoice_id);
  if (!invoice || invoice.invoice.status !== 'open' || invoice.invoice.attempt_count > 0) return s;
  return chargeFirst(ctx, stored, invoice, await subscriptionNow(ctx.merchantId, s));
}

/**
 * Charges the first invoice of a subscription ({@link chargeInvoice}); when it changed before its try could be
 * written (a cancel voided it: nothing was charged), answers the subscription as it is now.
 */
async function chargeFirst(ctx: RequestContext, stored: StoredSubscription, invoice: StoredInvoice, now: string): Promise<Subscription> {
  try {
    return await chargeInvoice(ctx, stored, invoice, now);
  } catch (err) {
    if (!(err instanceof SubscriptionChangedError)) throw err;
    return (await loadSubscription(ctx.merchantId, stored.subscription.subscription_id)).subscription;
  }
}

/**
 * Applies `change` to the subscription with a conditional write and `subscription.updated` (or the given event),
 * retried on a concurrent change, at the subscription's time (its test clock's, or real). Its billing work follows:
 * a subscription that becomes `canceled` has none left and its open invoice is voided; one `past_due` or `unpaid`
 * whose payment method was replaced has its open invoice tried again at once (the renewal worker, or its test
 * clock's next advance); otherwise its due work is kept.
 */
async function changeSubscription(
  merchantId: string,
  subscriptionId: string,
  change: (s: Subscription, now: string) => Promise<Subscription | undefined>,
  eventType: EventType,
): Promise<Subscription> {
  for (let tries = 1; ; tries += 1) {
    const stored = await loadSubscription(merchantId, subscriptionId);
    const before = stored.subscription;
    const now = await subscriptionNow(merchantId, before);
    const after = await change(before, now);
    if (!after) return before;
    after.updated_at = nextVersion(before.updated_at, after.updated_at);
    const write: SubscriptionWrite = {
      subscription: { after, readAt: before.updated_at, listShards: stored.listShards, dueAt: stored.dueAt },
      events: [{ type: eventType, data: after }],
    };
    const canceling = after.status === 'canceled' && before.status !== 'canceled';
    const retryNow = (after.status === 'past_due' || after.status === 'unpaid') && after.payment_method_id !== before.payment_method_id;
    let inFlight = false;
    if ((canceling || retryNow) && before.latest_invoice_id) {
      const stored = await getStoredInvoice(merchantId, before.latest_invoice_id);
      if (stored?.invoice.status === 'open') {
        const { invoice, charging } = stored;
        // A try in flight is never voided under: its outcome decides the invoice (paid, or void on a failure).
        inFlight = canceling && charging !== null;
        const updatedAt = nextVersion(invoice.updated_at, now);
        const invoiceAfter: Invoice = canceling
          ? { ...invoice, status: inFlight ? 'open' : 'void', next_payment_attempt: null, updated_at: updatedAt }
          : { ...invoice, next_payment_attempt: now, updated_at: updatedAt };
        write.invoice = { after: invoiceAfter, readAt: invoice.updated_at, charging };
        if (retryNow && write.subscription) write.subscription.dueAt = now;
      }
    }
    // Canceled: no billing work left, but settling a try in flight (the renewal worker, or the clock's next advance).
    if (canceling && write.subscription) write.subscription.dueAt = inFlight ? now : null;
    try {
      await writeSubscriptionChange(merchantId, write);
      return after;
    } catch (err) {
      if (!(err instanceof SubscriptionChangedError)) throw err;
      if (tries >= CHANGE_ATTEMPTS) throw concurrentChange();
    }
  }
}

/**
 * Sets the saved payment method (checked as at create), `cancel_at_period_end` and/or the metadata (replaced whole).
 * A new method on a `past_due` or `unpaid` subscription has its open invoice tried again at once (Stripe retries
 * on the new default method); `cancel_at_period_end: true` cancels it when its period ends instead of renewing.
 * @throws ApiError 404 unknown; 409 `subscription_unexpected_state` when canceled; 400 as at create for the method
 */
export async function updateSubscription(merchantId: string, subscriptionId: string, body: UpdateSubscriptionBody): Promise<Subscription> {
  return changeSubscription(
    merchantId,
    subscriptionId,
    async (s, now) => {
      if (s.status === 'canceled') throw subscriptionState('an update', s.status);
      if (body.payment_method_id !== undefined && body.payment_method_id !== s.payment_method_id) {
        // A subscription still updatable has its customer (a deleted customer's are canceled).
        await checkMethod(merchantId, s.customer_id ?? '', body.payment_method_id);
      }
      return {
        ...s,
        ...(body.payment_method_id !== undefined ? { payment_method_id: body.payment_method_id } : {}),
        ...(body.cancel_at_period_end !== undefined ? { cancel_at_period_end: body.cancel_at_period_end } : {}),
        ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
        updated_at: now,
      };
    },
    'subscription.updated',
  );
}

/**
 * Cancels a subscription now: `canceled`, `canceled_at`, `cancellation_details.reason` `cancellation_requested`,
 * and `subscription.canceled`. Its open invoice, if any, is voided (nothing collects it any more); no more billing.
 * @throws ApiError 404 unknown; 409 `subscription_unexpected_state` when already canceled
 */
export async function cancelSubscription(merchantId: string, subscriptionId: string): Promise<Subscription> {
  return changeSubscription(
    merchantId,
    subscriptionId,
    async (s, now) => {
      if (s.status === 'canceled') throw subscriptionState('a cancel', s.status);
      return {
        ...s,
        status: 'canceled',
        canceled_at: now,
        cancellation_details: { reason: 'cancellation_requested' },
        updated_at: now,
      };
    },
    'subscription.canceled',
  );
}

/**
 * A customer delete's step: every subscription of the customer is canceled
 * (`cancellation_details.reason: customer_deleted`, `subscription.canceled`; one already canceled keeps its
 * reason, `subscription.updated`) and unlinked (`customer_id: null`, out of the customer's list), so it
 * never renews. Pages through the customer's list (GSI3) until it is empty or `deadlineMs` passes.
 * @returns whether none is left linked (as far as the index shows)
 * @throws storage errors (the delete stays open: a retried DELETE or the reconciler resumes it)
 */
export async function cancelSubscriptionsOfCustomer(merchantId: string, customerId: string, deadlineMs: number): Promise<boolean> {
  for (;;) {
    const page = await querySubscriptions(merchantId, { limit: 100 }, { customer_id: customerId }, undefined);
    if (page.data.length === 0) return true;
    for (const s of page.data) {
      if (Date.now() > deadlineMs) return false;
      const wasCanceled = s.status === 'canceled';
      await changeSubscription(
        merchantId,
        s.subscription_id,
        async (current, now) =>
          current.customer_id !== customerId
            ? undefined
            : current.status === 'canceled'
              ? { ...current, customer_id: null, updated_at: now }
              : {
                  ...current,
                  customer_id: null,
                  status: 'canceled',
                  canceled_at: now,
                  cancellation_details: { reason: 'customer_deleted' },
                  updated_at: now,
                },
        wasCanceled ? 'subscription.updated' : 'subscription.canceled',
      );
    }
    if (!page.has_more && page.data.length < 100) return true;
  }
}
