/**
 * An invoice's payment settling after the request that made it: a subscription's charge that
 * answered `RequiresAction` or `Processing` (3-D Secure for the payer, a lost processor answer) later
 * succeeds or fails through a step, a sync, a webhook or the reconciler. The invoice (and its
 * subscription, when it was waiting on its first payment) then follows the payment: `paid` and `active`
 * on success, `invoice.payment_failed` on failure. The payment names its invoice in its metadata
 * (`subscription_id`, `invoice_id`, written by the subscription's charge); only an invoice that already
 * lists the payment is moved, so an unrelated payment with such metadata changes nothing.
 */
import type { Payment } from '../../domain/payment';
import type { Subscription } from '../../domain/subscription';
import { logger } from '../../observability/logger';
import { getStoredInvoice, getStoredSubscription, type StoredInvoice } from '../../storage/subscriptions-repository';

/**
 * Moves the invoice a settled payment was charged for (see the module comment), through the one planner of
 * invoice outcomes (./invoice-collection.ts): paid, or its next try planned on the dunning schedule. Does nothing
 * for a payment without an invoice, one not `Succeeded`/`Failed`, an invoice not `open`, or one that does not
 * list it; except the invoice's own try in flight landing on an invoice voided meanwhile, which pays it.
 * @returns the subscription after the change, or undefined when nothing was to change
 * @throws storage errors; ApiError 409 `concurrent_update` after repeated lost races (the worker settles it later)
 */
export async function settleInvoiceOfPayment(merchantId: string, payment: Payment): Promise<Subscription | undefined> {
  const invoiceId = payment.metadata?.invoice_id;
  const subscriptionId = payment.metadata?.subscription_id;
  if (!invoiceId || !subscriptionId || (payment.status !== 'Succeeded' && payment.status !== 'Failed')) return undefined;
  // The invoice first: a charge answered in its own request is not listed yet (its charger records it), so this
  // costs one read, not two.
  const read: StoredInvoice | undefined = await getStoredInvoice(merchantId, invoiceId);
  if (!read || read.invoice.subscription_id !== subscriptionId) return undefined;
  const { invoice, charging } = read;
  const listed = invoice.payment_ids.includes(payment.payment_id);
  // The invoice's own try landing after a cancel voided the invoice (its charger gone): the planner pays the invoice.
  const landedOnClosed = charging === payment.payment_id && invoice.status !== 'open' && invoice.status !== 'paid';
  if (!landedOnClosed && (invoice.status !== 'open' || !listed)) return undefined;
  const stored = await getStoredSubscription(merchantId, subscriptionId);
  if (!stored) return undefined;
  // Billing's collection rules are loaded here, for a subscription's payment only: every payment handler reaches
  // this function, and a one-off payment never needs them (a cold start loads what the request uses).
  const [{ applyPaymentToInvoice }, { subscriptionNow }] = await Promise.all([
    import('./invoice-collection'),
    import('./subscription-operations'),
  ]);
  return applyPaymentToInvoice(merchantId, stored, read, payment, await subscriptionNow(merchantId, stored.subscription));
}

/** {@link settleInvoiceOfPayment} after a payment's outcome is recorded: a failure is logged, never the payment's answer's. */
export async function trySettleInvoiceOfPayment(merchantId: string, payment: Payment): Promise<void> {
  try {
    await settleInvoiceOfPayment(merchantId, payment);
  } catch (err) {
    logger.error('settling the invoice of a payment failed', { payment_id: payment.payment_id, error: (err as Error).name });
  }
}
