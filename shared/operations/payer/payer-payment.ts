import { ApiError } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { findPaymentOwner, getPayment, type StoredPayment } from '../../storage/payments-repository';

/*
 * The payer-facing pages (no api-key; the payment id is the capability, as a processor's hosted
 * checkout link is): the hosted authentication step page (./authentication-page-submission.ts), the return
 * route every processor sends the payer back to (./payer-return.ts) and the sandbox's pages. Each handler
 * loads only its own file at cold start: the pages that only show a payment load no processor call.
 */

/**
 * A payment found by its id alone, with its merchant.
 * @throws ApiError 404 when no payment has this id
 */
export async function payerPayment(paymentId: string): Promise<{ merchantId: string; stored: StoredPayment }> {
  const merchantId = isIdOf('payment', paymentId) ? await findPaymentOwner(paymentId) : undefined;
  const stored = merchantId ? await getPayment(merchantId, paymentId) : undefined;
  if (!merchantId || !stored)
    throw new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such payment. Check the link you followed.');
  return { merchantId, stored };
}
