/**
 * The payout reads: one payout and the list (no processor call: the GET handlers' bundles load no connector).
 */
import { invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Payout, PayoutStatus } from '../../domain/payout';
import { getStoredPayout, listPayouts as queryPayouts, type StoredPayout } from '../../storage/payouts-repository';
import { cursorItem } from '../list-cursor';

/**
 * The merchant's payout, read strongly consistent.
 * @throws ApiError 404 `resource_missing` (param `payout_id`) when there is none
 */
export async function loadPayout(merchantId: string, payoutId: string): Promise<StoredPayout> {
  const stored = isIdOf('payout', payoutId) ? await getStoredPayout(merchantId, payoutId) : undefined;
  if (!stored) throw resourceNotFound('payout', 'payout_id');
  return stored;
}

/**
 * `GET /payouts/{id}`: one payout of the merchant.
 * @throws ApiError 404 `resource_missing` when the merchant has none with this id
 */
export async function getPayout(merchantId: string, payoutId: string): Promise<Payout> {
  return (await loadPayout(merchantId, payoutId)).payout;
}

/**
 * `GET /payouts`: the merchant's payouts, newest first: all, in one `status`, or of one `customer_id` (not both);
 * `created[…]` and the pagination of every list. A Query on an index per shard, never a Scan.
 * @param readShards the merchant's list shard `read` count
 * @throws ApiError 400 `resource_missing` (param `starting_after`/`ending_before`) for an unknown cursor;
 *   `parameter_invalid` (param `customer_id`) with both filters
 */
export async function listPayouts(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PayoutStatus; customer_id?: string },
  readShards = 1,
): Promise<ListPage<Payout>> {
  if (filters.status && filters.customer_id) {
    throw invalidRequest('parameter_invalid', 'Filter by status or by customer_id, not both.', 'customer_id');
  }
  const after = await cursorItem(
    query,
    'payout',
    { noun: 'payout', idPhrase: 'a payout id' },
    async (id) => (await getStoredPayout(merchantId, id))?.payout,
  );
  if (filters.customer_id && !isIdOf('customer', filters.customer_id)) return { data: [], has_more: false };
  return queryPayouts(merchantId, query, filters, after, readShards);
}
