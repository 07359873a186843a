import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/storage/client';
import { openIndexKeys } from '../../shared/storage/item-keys';
import { tableName } from '../../shared/storage/table-definition';

/**
 * One-off migration for a table written before the open-operations index existed: gives
 * every item that is open — a payment in `Processing`/`RequiresAction` or holding a claim
 * (`pending_operation`), a `Pending` refund — its GSI5 keys, due now, so the reconciler
 * settles it at its next run. An operator's migration, not service code: it lives under
 * scripts/ and is bundled into no Lambda. It is the project's only Scan, because the items it
 * looks for are by definition on no index (pre-GSI5 `Pending` refunds have none at all): a
 * filtered, paginated Scan run once per table; items that already carry GSI5 keys are skipped
 * by the filter and by the condition.
 * @param options `dryRun` counts without writing; `nowIso` the due time (default now)
 * @returns how many open items were found and how many were indexed
 */
export async function backfillOpenIndex(options: { dryRun?: boolean; nowIso?: string } = {}): Promise<{ found: number; indexed: number }> {
  const now = options.nowIso ?? new Date().toISOString();
  let found = 0;
  let indexed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          'attribute_not_exists(GSI5PK) AND ((entity = :payment AND (#status IN (:processing, :action) OR attribute_exists(pending_operation))) OR (entity = :refund AND #status = :pending))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':payment': 'payment',
          ':refund': 'refund',
          ':processing': 'Processing',
          ':action': 'RequiresAction',
          ':pending': 'Pending',
        },
        ProjectionExpression: 'PK, SK, entity, payment_id, refund_id, updated_at',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      found += 1;
      if (options.dryRun) continue;
      const id = String(item.entity === 'refund' ? item.refund_id : item.payment_id);
      const keys = openIndexKeys(id, now);
      try {
        await documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: item.PK, SK: item.SK },
            UpdateExpression: 'SET GSI5PK = :pk, GSI5SK = :sk, open_since = if_not_exists(open_since, :since)',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI5PK)',
            ExpressionAttributeValues: { ':pk': keys.GSI5PK, ':sk': keys.GSI5SK, ':since': String(item.updated_at ?? now) },
          }),
        );
        indexed += 1;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { found, indexed };
}
