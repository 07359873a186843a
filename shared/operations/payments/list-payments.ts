import { invalidRequest } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Payment } from '../../domain/payment';
import type { PaymentStatus } from '../../domain/payment-status';
import { listPayments as queryPayments, getPayment as readPayment } from '../../storage/payments-repository';
import { cursorItem } from '../list-cursor';

/**
 * Lists the merchant's payments, newest first: all, in one `status`, or of one `customer_id` (the payments
 * linked to that customer, GSI3) — a status or a customer, not both (as `GET /subscriptions`).
 * @param readShards the merchant's list shard `read` count (RequestContext.listShards); default 1
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor; `parameter_invalid` (param
 *   `customer_id`) with both filters
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus; customer_id?: string },
  readShards = 1,
): Promise<ListPage<Payment>> {
  if (filters.status && filters.customer_id) {
    throw invalidRequest('parameter_invalid', 'Filter by status or by customer_id, not both.', 'customer_id');
  }
  const after = await cursorItem(
    query,
    'payment',
    { noun: 'payment', idPhrase: 'a payment id' },
    async (id) => (await readPayment(merchantId, id))?.payment,
  );
  if (filters.customer_id && !isIdOf('customer', filters.customer_id)) return { data: [], has_more: false };
  return queryPayments(merchantId, query, filters, after, readShards);
}
