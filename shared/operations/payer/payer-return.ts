// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../billing/invoice-settlement-hook';
import '../payment-links/link-place-hook';
import type { Payment } from '../../domain/payment';
import { canApply } from '../../domain/payment-status';
import { logger } from '../../observability/logger';
import { wholeNumberSetting } from '../../settings/whole-number-setting';
import { claimReturnSync, type StoredPayment } from '../../storage/payments-repository';
import { claimInFlight } from '../payments/payment-state';
import { reconcilePayment } from '../payments/payment-sync';
import { payerPayment } from './payer-payment';

/**
 * How long after one sync on the return route the next may ask the processor about the same payment,
 * milliseconds: `PAYER_RETURN_SYNC_COOLDOWN_MS`, default 10 000 (read on every call). Inside it the route
 * answers from what is stored: a payer reloading the page, or anyone replaying the link, cannot spend the
 * processor account's rate limit (the webhook and the reconciler settle the payment meanwhile).
 */
export function payerReturnSyncCooldownMs(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberSetting(env.PAYER_RETURN_SYNC_COOLDOWN_MS, { min: 0 }, 10_000);
}

/**
 * Whether the return route may ask the processor about this payment now: only an open payment (a
 * status a processor's answer settles, or a claim whose lease ended) outside its cooldown, taken with one
 * conditional write (`last_synced_at`) so that at most one container per cooldown gets the turn. A
 * storage failure there answers no (nothing is asked; the reconciler settles the payment).
 */
async function mayAskProcessor(merchantId: string, stored: StoredPayment): Promise<boolean> {
  if (claimInFlight(stored)) return false;
  if (!stored.pendingOperation && !canApply('connector_update', stored.payment.status)) return false;
  try {
    return await claimReturnSync(merchantId, stored.payment.payment_id, new Date(), payerReturnSyncCooldownMs());
  } catch (err) {
    logger.warn('return sync cooldown could not be taken; answering from the stored payment', {
      payment_id: stored.payment.payment_id,
      error: (err as Error).name,
    });
    return false;
  }
}

/**
 * The payer is back from a 3DS page, a processor's hosted page or a step: the payment is synced
 * with its processor when it is still open (best effort: a processor or storage failure leaves
 * the reconciler to settle it, and the payer still gets an answer), then returned so the caller
 * can redirect to the merchant's `return_url`. The processor is asked at most once per payment per
 * {@link payerReturnSyncCooldownMs} (`last_synced_at`); otherwise the stored payment is the answer.
 * @param deadlineMs the request's processor-call deadline (epoch ms)
 * @param publicBaseUrl this API's public base URL (for a step's hosted page, should the sync name one)
 * @throws ApiError 404 when no payment has this id
 */
export async function payerReturn(paymentId: string, deadlineMs: number, publicBaseUrl: string): Promise<Payment> {
  const { merchantId, stored } = await payerPayment(paymentId);
  if (!(await mayAskProcessor(merchantId, stored))) return stored.payment;
  try {
    return (await reconcilePayment({ merchantId, deadlineMs, publicBaseUrl }, stored)).payment;
  } catch (err) {
    logger.warn('sync on the payer return failed; the reconciler will settle the payment', {
      payment_id: paymentId,
      error: (err as Error).name,
    });
    return stored.payment;
  }
}

/**
 * Where the return route sends the payer: the merchant's `return_url` with `payment_id` and
 * `status` added to its query (existing query parameters are kept), or null when the payment
 * has none.
 */
export function merchantReturnLocation(payment: Payment): string | null {
  if (!payment.return_url) return null;
  const url = new URL(payment.return_url);
  url.searchParams.set('payment_id', payment.payment_id);
  url.searchParams.set('status', payment.status);
  return url.toString();
}
