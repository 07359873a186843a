/**
 * Registers billing's step after a payment's outcome (shared/operations/payments/settled-payment-hooks.ts): a
 * subscription invoice's payment that settles after the request that made it (3-D Secure, a lost answer) moves its
 * invoice. Importing this module is the registration; billing's code is loaded by an invoice's payment only.
 */
import type { Payment } from '../../domain/payment';
import { onSettledPayment } from '../payments/settled-payment-hooks';

/** Moves the invoice of a payment that names one in its metadata (`invoice_id`); logs, never throws, on failure. */
export async function settleInvoiceAfterPayment(merchantId: string, payment: Payment): Promise<void> {
  if (!payment.metadata?.invoice_id) return;
  await (await import('./invoice-settlement')).trySettleInvoiceOfPayment(merchantId, payment);
}

onSettledPayment(settleInvoiceAfterPayment);
