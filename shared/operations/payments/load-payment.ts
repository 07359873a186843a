import { resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { getPayment as readPayment, type StoredPayment } from '../../storage/payments-repository';

/**
 * Reads a payment of the merchant.
 * @throws ApiError 404 when the id is malformed or no such payment exists for this merchant
 * (apart from ./payment-state.ts, which brings the claim and storage-retry code, so `GET /payments/{id}` loads none at cold start)
 */
export async function loadPayment(merchantId: string, paymentId: string): Promise<StoredPayment> {
  const stored = isIdOf('payment', paymentId) ? await readPayment(merchantId, paymentId) : undefined;
  if (!stored) throw resourceNotFound('payment', 'payment_id');
  return stored;
}
