import { invalidRequest } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Payment } from '../../domain/payment';
import type { PaymentStatus } from '../../domain/payment-status';
import { listPayments as queryPayments, getPayment as readPayment } from '../../storage/payments-repository';
import { cursorItem } from '../list-cursor';

/**
 * Lists the merchant's payments, newest first: all, in one `status`, of one `customer_id` (the payments linked to
 * that customer, GSI3) or of one `payment_link_id` (the payments its checkout page created, GSI3) — one filter at most.
 * @param readShards the merchant's list shard `read` count (RequestContext.listShards); default 1
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor; `parameter_invalid` (param
 *   the second filter) with more than one filter
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus; customer_id?: string; payment_link_id?: string },
  readShards = 1,
): Promise<ListPage<Payment>> {
  const named = (['status', 'customer_id', 'payment_link_id'] as const).filter((f) => filters[f] !== undefined);
  if (named.length > 1) {
    throw invalidRequest('parameter_invalid', 'Filter by status, customer_id or payment_link_id, one at a time (not both).', named[1]);
  }
  const after = await cursorItem(
    query,
    'payment',
    { noun: 'payment', idPhrase: 'a payment id' },
    async (id) => (await readPayment(merchantId, id))?.payment,
  );
  if (filters.customer_id && !isIdOf('customer', filters.customer_id)) return { data: [], has_more: false };
  if (filters.payment_link_id && !isIdOf('paymentLink', filters.payment_link_id)) return { data: [], has_more: false };
  return queryPayments(merchantId, query, filters, after, readShards);
}
