import { invalidRequest } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Payment } from '../../domain/payment';
import type { PaymentStatus } from '../../domain/payment-status';
import { listPayments as queryPayments, getPayment as readPayment } from '../../storage/payments-repository';

/**
 * Lists the merchant's payments, newest first.
 * @param readShards the merchant's list shard `read` count (RequestContext.listShards); default 1
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus },
  readShards = 1,
): Promise<ListPage<Payment>> {
  let after: Payment | undefined;
  if (query.startingAfter) {
    after = isIdOf('payment', query.startingAfter) ? (await readPayment(merchantId, query.startingAfter))?.payment : undefined;
    if (!after)
      throw invalidRequest(
        'resource_missing',
        'No such payment for starting_after: it must be a payment id from a previous page.',
        'starting_after',
      );
  }
  return queryPayments(merchantId, query, filters, after, readShards);
}
