/**
 * Partition key values → patterns (`MERCHANT#mer_1#PAYMENT#pay_ab…` → `MERCHANT#<m>#PAYMENT#<pay>`),
 * and what a pattern's hottest partition is shared by (its scope). Pure functions.
 */
import { DEFAULT_OPEN_INDEX_SHARDS } from '../../shared/storage/item-keys';

/** Partitions the open-operations index (GSI5) is spread over by default (shared/storage/item-keys.ts `DEFAULT_OPEN_INDEX_SHARDS`; a stage sets `OPEN_INDEX_SHARDS`). */
export const OPEN_INDEX_SHARD_COUNT = DEFAULT_OPEN_INDEX_SHARDS;

/**
 * Who shares the hottest partition of a pattern:
 * - `item`: one entity (payment, refund, event, delivery, idempotency record…): its own operations only;
 * - `merchant`: every operation of one merchant (not sharded);
 * - `merchant-list`: one merchant's list index entries (payments, payments by status, events, events by
 *   type, customers), spread over the merchant's N list shards (`…#S<k>`) by a hash of the item id;
 * - `global-sharded`: every merchant, spread over {@link OPEN_INDEX_SHARD_COUNT} shards (`OPEN#<k>`);
 * - `global`: every merchant, one partition (e.g. today's idempotency records `idempotency#<function>`);
 * - `api-key`: one API key.
 */
export type PartitionScope = 'item' | 'merchant' | 'merchant-list' | 'global' | 'global-sharded' | 'api-key';

/**
 * Turns a partition key value into its pattern: the merchant id becomes `<m>`, `<prefix>_<id>` ids
 * `<prefix>`, long hex strings (hashes) `<hash>`, shard numbers `<k>` (`…#S3` → `…#S<k>`, `OPEN#7` →
 * `OPEN#<k>`, a routing outcome counter partition `…#ROUTING_OUTCOMES#<k>`), a rate-limit counter's window and shard `<window>#<k>`. Status and event-type values
 * stay: each is a partition of its own.
 * @param merchantIds the merchant ids of the run (replaced by `<m>`)
 */
export function keyPattern(value: string, merchantIds: readonly string[] = []): string {
  let p = value;
  for (const m of merchantIds) p = p.split(m).join('<m>');
  return p
    .replace(/\b([a-z]{2,8})_[0-9A-Za-z]{12,}\b/g, '<$1>')
    .replace(/\b[0-9a-f]{32,}\b/gi, '<hash>')
    .replace(/#S\d+$/, '#S<k>')
    .replace(/^(OPEN|OPENWH)#\d+/, '$1#<k>')
    .replace(/#ROUTING_OUTCOMES#\d+$/, '#ROUTING_OUTCOMES#<k>')
    .replace(/^RATELIMIT#(.+)#(read|write)#\d+#\d+$/, 'RATELIMIT#$1#$2#<window>#<k>');
}

const MERCHANT_LIST = /^MERCHANT#<m>#(PAYMENTS(#STATUS#[^#]+)?|EVENTS(#TYPE#[^#]+)?|CUSTOMERS)(#S<k>)?$/;

/** The scope of a pattern ({@link PartitionScope}). */
export function patternScope(pattern: string): PartitionScope {
  if (pattern.startsWith('APIKEY#')) return 'api-key';
  // One merchant's counter of one class in one second, on one of its shards: the model gives its
  // operation the writes of the busiest such item, as for a merchant's own partition.
  if (pattern.startsWith('RATELIMIT#')) return 'merchant';
  if (/^(OPEN|OPENWH)#<k>/.test(pattern)) return 'global-sharded';
  const withoutMerchant = pattern.replace(/<m>|<k>/g, '');
  if (/<[a-z_]+>/.test(withoutMerchant)) return 'item';
  if (pattern.includes('<m>')) return MERCHANT_LIST.test(pattern) ? 'merchant-list' : 'merchant';
  return 'global';
}

/**
 * The pattern of a merchant-list partition without its shard suffix (`…#PAYMENTS#S<k>` and
 * `…#PAYMENTS` are the same list), so shard 0 and shards k ≥ 1 are one row.
 */
export const listBase = (pattern: string): string => pattern.replace(/#S<k>$/, '');

/**
 * The partition pattern idempotency records will have once they move to a partition per record hash
 * (Powertools' default layout): `IDEMPOTENCY#<hash>`, scope `item`.
 */
export const HASHED_IDEMPOTENCY_PATTERN = 'IDEMPOTENCY#<hash>';

/** Whether a pattern is the partition of today's idempotency records (`idempotency#<function name>`). */
export const isIdempotencyPattern = (pattern: string): boolean => /^idempotency#/i.test(pattern) || pattern === HASHED_IDEMPOTENCY_PATTERN;
