/**
 * Reading one refund, apart from the refund operations that call processors (shared/operations/refunds/refund-operations.ts
 * re-exports it), so `GET /refunds/{refund_id}` loads neither routing nor a connector unless asked to sync, at cold start or after.
 */
import { resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { Refund } from '../../domain/refund';
import { getRefund as readRefund } from '../../storage/refunds-repository';

/**
 * Reads a refund of the merchant.
 * @throws ApiError 404 when it does not exist for this merchant
 */
export async function getRefund(merchantId: string, refundId: string): Promise<Refund> {
  const refund = isIdOf('refund', refundId) ? await readRefund(merchantId, refundId) : undefined;
  if (!refund) throw resourceNotFound('refund', 'refund_id');
  return refund;
}
