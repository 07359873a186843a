import { invalidRequest } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Refund } from '../../domain/refund';
import { listRefunds as queryRefunds, getRefund as readRefund } from '../../storage/refunds-repository';
import { loadPayment } from '../payment-state';

/**
 * Lists the refunds of one payment, newest first.
 * @throws ApiError 404 unknown payment; 400 `resource_missing` for an unknown `starting_after`
 */
export async function listRefunds(merchantId: string, paymentId: string, query: ListQuery): Promise<ListPage<Refund>> {
  await loadPayment(merchantId, paymentId);
  let after: Refund | undefined;
  if (query.startingAfter) {
    after = isIdOf('refund', query.startingAfter) ? await readRefund(merchantId, query.startingAfter) : undefined;
    if (!after || after.payment_id !== paymentId) {
      throw invalidRequest(
        'resource_missing',
        'No such refund of this payment for starting_after: it must be a refund id from a previous page.',
        'starting_after',
      );
    }
  }
  return queryRefunds(merchantId, paymentId, query, after);
}
