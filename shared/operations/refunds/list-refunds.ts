import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Refund } from '../../domain/refund';
import { listMerchantRefunds, listRefunds as queryRefunds, getRefund as readRefund } from '../../storage/refunds-repository';
import { cursorItem } from '../list-cursor';
import { loadPayment } from '../payments/load-payment';

/**
 * Lists the refunds of one payment, newest first.
 * @throws ApiError 404 unknown payment; 400 `resource_missing` for an unknown `starting_after`
 */
export async function listRefunds(merchantId: string, paymentId: string, query: ListQuery): Promise<ListPage<Refund>> {
  await loadPayment(merchantId, paymentId);
  const after = await cursorItem(
    query,
    'refund',
    { noun: 'refund of this payment', idPhrase: 'a refund id' },
    (id) => readRefund(merchantId, id),
    (r) => r.payment_id === paymentId,
  );
  return queryRefunds(merchantId, paymentId, query, after);
}

/**
 * Lists every refund of the merchant, newest first, or of one payment (`payment_id`: as
 * `GET /payments/{payment_id}/refunds`), as Stripe's `GET /v1/refunds`.
 * @param readShards the merchant's list shard `read` count
 * @throws ApiError 400 `resource_missing` for an unknown `starting_after`; 404 for an unknown `payment_id` (as its own list)
 */
export async function listAllRefunds(
  merchantId: string,
  query: ListQuery,
  filters: { payment_id?: string },
  readShards = 1,
): Promise<ListPage<Refund>> {
  if (filters.payment_id) {
    if (!isIdOf('payment', filters.payment_id)) return { data: [], has_more: false };
    return listRefunds(merchantId, filters.payment_id, query);
  }
  const after = await cursorItem(query, 'refund', { noun: 'refund', idPhrase: 'a refund id' }, (id) => readRefund(merchantId, id));
  return listMerchantRefunds(merchantId, query, after, readShards);
}
