/**
 * An invoice's payment settling after the request that made it (issue 24): a subscription's charge that
 * answered `RequiresAction` or `Processing` (3-D Secure for the payer, a lost processor answer) later
 * succeeds or fails through a step, a sync, a webhook or the reconciler. The invoice (and its
 * subscription, when it was waiting on its first payment) then follows the payment: `paid` and `active`
 * on success, `invoice.payment_failed` on failure. The payment names its invoice in its metadata
 * (`subscription_id`, `invoice_id`, written by the subscription's charge); only an invoice that already
 * lists the payment is moved, so an unrelated payment with such metadata changes nothing.
 */
import type { Payment } from '../../domain/payment';
import type { Invoice, Subscription } from '../../domain/subscription';
import { logger } from '../../observability/logger';
import {
  getStoredSubscription,
  getInvoice as readInvoice,
  SubscriptionChangedError,
  type SubscriptionWrite,
  writeSubscriptionChange,
} from '../../storage/subscriptions-repository';

/** Conditional writes tried before giving up to a concurrent change (the next settlement path retries). */
const ATTEMPTS = 3;

/**
 * Moves the invoice a settled payment was charged for (see the module comment). Does nothing for a payment
 * without an invoice, one not `Succeeded`/`Failed`, an invoice not `open`, or one that does not list it.
 * @returns the invoice after the change, or undefined when nothing was to change
 * @throws storage errors
 */
export async function settleInvoiceOfPayment(merchantId: string, payment: Payment): Promise<Invoice | undefined> {
  const invoiceId = payment.metadata?.invoice_id;
  const subscriptionId = payment.metadata?.subscription_id;
  if (!invoiceId || !subscriptionId || (payment.status !== 'Succeeded' && payment.status !== 'Failed')) return undefined;
  for (let tries = 1; tries <= ATTEMPTS; tries += 1) {
    const invoice: Invoice | undefined = await readInvoice(merchantId, invoiceId);
    const stored = await getStoredSubscription(merchantId, subscriptionId);
    if (!invoice || !stored || invoice.subscription_id !== subscriptionId) return undefined;
    if (invoice.status !== 'open' || !invoice.payment_ids.includes(payment.payment_id)) return undefined;
    const now = new Date().toISOString();
    const paid = payment.status === 'Succeeded';
    if (!paid) {
      // The attempt is counted already (the charge listed it): announce the failure, change nothing else.
      const change: SubscriptionWrite = { invoice: { after: { ...invoice, updated_at: now }, readAt: invoice.updated_at }, events: [] };
      change.events.push({ type: 'invoice.payment_failed', data: change.invoice!.after });
      try {
        await writeSubscriptionChange(merchantId, change);
        return change.invoice!.after;
      } catch (err) {
        if (!(err instanceof SubscriptionChangedError)) throw err;
        continue;
      }
    }
    const invoiceAfter: Invoice = { ...invoice, status: 'paid', amount_paid: payment.amount, updated_at: now };
    const s = stored.subscription;
    const activate = s.status === 'incomplete' && s.latest_invoice_id === invoice.invoice_id;
    const subAfter: Subscription = { ...s, status: 'active', updated_at: now };
    const change: SubscriptionWrite = {
      invoice: { after: invoiceAfter, readAt: invoice.updated_at },
      events: [{ type: 'invoice.paid', data: invoiceAfter }],
    };
    if (activate) {
      change.subscription = { after: subAfter, readAt: s.updated_at, listShards: stored.listShards };
      change.events.push({ type: 'subscription.updated', data: subAfter });
    }
    try {
      await writeSubscriptionChange(merchantId, change);
      return invoiceAfter;
    } catch (err) {
      if (!(err instanceof SubscriptionChangedError)) throw err;
    }
  }
  logger.warn('an invoice kept changing while its payment settled it; the next settlement of the payment retries', {
    payment_id: payment.payment_id,
  });
  return undefined;
}

/** {@link settleInvoiceOfPayment} after a payment's outcome is recorded: a failure is logged, never the payment's answer's. */
export async function trySettleInvoiceOfPayment(merchantId: string, payment: Payment): Promise<void> {
  try {
    await settleInvoiceOfPayment(merchantId, payment);
  } catch (err) {
    logger.error('settling the invoice of a payment failed', { payment_id: payment.payment_id, error: (err as Error).name });
  }
}
