import { listPartition, openShards } from './item-keys';
import { shardPartitions } from './list-shards';
import { queryPages, type TableQuery } from './query-pages';

/**
 * Whether any item of the query matches, following pages until the first match (a FilterExpression
 * leaves pages empty, so one page is not enough).
 */
async function anyMatch(input: TableQuery): Promise<boolean> {
  for await (const page of queryPages(input, 500)) {
    if ((page.Count ?? 0) > 0) return true;
  }
  return false;
}

/**
 * Whether a merchant connector account holds open operations: an open item of the open-operations
 * index (GSI5: a payment `Processing`/`RequiresAction` or holding an unsettled processor call, a `Pending`
 * refund) that names the account, or a payment of the merchant in `RequiresCapture` on it (GSI2, the
 * merchant's status partitions). Queries only, never a Scan: the GSI5 shards are read with a filter on
 * the merchant and account — the same reads one reconciler run makes, paid only when an account is deleted
 * (docs/capacity.md) — and they stop at the first match.
 * @param readShards the merchant's list shard `read` count (its status partitions)
 */
export async function accountHasOpenItems(merchantId: string, merchantConnectorId: string, readShards = 1): Promise<boolean> {
  const values = { ':m': merchantId, ':a': merchantConnectorId };
  const open = openShards().map((shard) =>
    anyMatch({
      IndexName: 'GSI5',
      KeyConditionExpression: 'GSI5PK = :pk',
      FilterExpression: 'merchant_id = :m AND (merchant_connector_id = :a OR pending_operation.merchant_connector_id = :a)',
      ExpressionAttributeValues: { ':pk': shard, ...values },
      ProjectionExpression: 'PK',
    }),
  );
  const authorized = shardPartitions(listPartition.paymentsByStatus(merchantId, 'RequiresCapture'), readShards).map((partition) =>
    anyMatch({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      FilterExpression: 'merchant_connector_id = :a',
      ExpressionAttributeValues: { ':pk': partition, ':a': merchantConnectorId },
      ProjectionExpression: 'PK',
    }),
  );
  return (await Promise.all([...open, ...authorized])).some(Boolean);
}
