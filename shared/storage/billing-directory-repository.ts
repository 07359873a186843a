/**
 * The billing directory and the due entries it leads to (docs/api.md "Renewals"): how the renewal worker finds work
 * without a Scan and without a partition every merchant writes.
 * - A merchant gets one directory item (`<merchant>#BILLING`, GSI5 `BILLING_MERCHANTS#<0..3>`) when it first
 *   has billing work (its first subscription or saved method with an expiry): a conditional put, made once per
 *   container (then remembered), so no request writes it again.
 * - Its due work sits in its own GSI5 partitions (`billingDue.partitions`), sorted by due time.
 * docs/capacity.md "Renewals" gives the cost.
 */
import { conditionalPut } from './conditional-write';
import { billingDirectoryKeys, billingDirectoryPartitions, billingDue, primaryKey } from './item-keys';
import { queryAllItems, queryPage } from './query-pages';
import { tableName } from './table-definition';

/** Merchants this container already knows are in the directory. */
const registered = new Set<string>();

/**
 * Puts the merchant in the billing directory, once (see the module comment).
 * @throws storage errors (the caller decides whether its own write stands without it; the next one retries)
 */
export async function registerBillingMerchant(merchantId: string): Promise<void> {
  if (registered.has(merchantId)) return;
  // Refused by its condition: the merchant is in the directory already.
  await conditionalPut({
    TableName: tableName(),
    Item: {
      ...primaryKey.billingMerchant(merchantId),
      ...billingDirectoryKeys(merchantId),
      entity: 'billing_merchant',
      merchant_id: merchantId,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  registered.add(merchantId);
}

/** Every merchant of the directory (Queries of its partitions, paged). */
export async function listBillingMerchants(): Promise<string[]> {
  const merchants: string[] = [];
  for (const partition of billingDirectoryPartitions()) {
    const items = await queryAllItems({
      IndexName: 'GSI5',
      KeyConditionExpression: 'GSI5PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'GSI5SK',
    });
    for (const item of items) if (typeof item.GSI5SK === 'string') merchants.push(item.GSI5SK);
  }
  return merchants;
}

/**
 * A merchant's billing work due at or before `until`, earliest first in each of its partitions (one Query each).
 * @param limitPerPartition the most entries read from each partition
 * @returns ids (`sub_…`, `pm_…`) with their due time
 */
export async function dueBillingWork(
  merchantId: string,
  until: string,
  limitPerPartition: number,
): Promise<{ id: string; dueAt: string }[]> {
  const pages = await Promise.all(
    billingDue.partitions(merchantId).map((pk) =>
      queryPage({
        IndexName: 'GSI5',
        KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK <= :until',
        ExpressionAttributeValues: { ':pk': pk, ':until': `${until}#~` },
        ProjectionExpression: 'GSI5SK',
        Limit: limitPerPartition,
      }),
    ),
  );
  const due: { id: string; dueAt: string }[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      const [dueAt = '', id = ''] = String(item.GSI5SK).split('#');
      due.push({ id, dueAt });
    }
  }
  return due.sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0));
}
