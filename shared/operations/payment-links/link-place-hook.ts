/**
 * Registers payment links' step after a payment's outcome (shared/operations/payments/settled-payment-hooks.ts): a
 * payment made on a reusable link's checkout page that ends `Failed` or `Cancelled` after the request that made it (the
 * reconciler, a processor's webhook, the 3-D Secure/PIN/OTP payer pages, a sync) gives back the place it took under
 * `max_payments` at once, not only when its payer comes back to the completion route. Importing this module is the
 * registration.
 */
import type { Payment } from '../../domain/payment';
import { logger } from '../../observability/logger';
import { releaseLinkPlace } from '../../storage/payment-links-repository';
import { onSettledPayment } from '../payments/settled-payment-hooks';

/**
 * Gives back the link place of a payment that took one (`payment_link_id` of a reusable link; a payment's single-use
 * link, `payment_link`, holds none) once it is `Failed` or `Cancelled`; any other status keeps it. The release is
 * at most once per payment (`releaseLinkPlace`), so this and the completion route never give back the same place twice.
 * Logs, never throws, when storage fails: the place then stays taken until the payer's return gives it back.
 */
export async function releaseLinkPlaceAfterPayment(merchantId: string, payment: Payment): Promise<void> {
  if (!payment.payment_link_id || payment.payment_link) return;
  if (payment.status !== 'Failed' && payment.status !== 'Cancelled') return;
  try {
    await releaseLinkPlace(merchantId, payment.payment_link_id, payment.payment_id);
  } catch (err) {
    logger.warn('a failed link payment kept its link place (storage failed on its release)', {
      payment_link_id: payment.payment_link_id,
      payment_id: payment.payment_id,
      error: (err as Error).name,
    });
  }
}

onSettledPayment(releaseLinkPlaceAfterPayment);
