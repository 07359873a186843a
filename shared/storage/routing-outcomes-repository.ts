/**
 * Success-rate routing's outcome counters in the table (keys: ./item-keys.ts `routingOutcomeKeys`). One outcome is
 * one UpdateItem that `ADD`s to the counter of its (account, segment, minute bucket, write shard): one write per
 * outcome whatever the volume, no read before it. The shard is `stableHash(payment_id) mod ROUTING_OUTCOME_SHARDS`,
 * so a merchant's 2,000 outcomes a second spread over 8 partitions (250 writes/s each, a quarter of a partition's
 * 1,000 WCU: docs/routing.md "Outcomes"). A merchant's counters since a bucket are one Query per shard, in parallel.
 * Counters expire by TTL (`expires_at`) an hour after they leave the lookback.
 */
import { paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { ROUTING_OUTCOME_SHARDS, routingOutcomeKeys } from './item-keys';
import { stableHash } from './list-shards';
import { tableName } from './table-definition';

/** One counter as stored: the outcomes of one account in one segment in one bucket (one write shard). */
export interface StoredOutcomeCounter {
  merchant_connector_id: string;
  segment: string;
  /** Epoch ms, a multiple of the bucket length. */
  bucket_start_ms: number;
  /** Approvals and issuer declines counted. */
  attempts: number;
  /** Approvals among them. */
  successes: number;
  /** Epoch ms of the last outcome written to it. */
  updated_at_ms: number;
}

/** One outcome to count. */
export interface OutcomeToCount {
  merchant_connector_id: string;
  segment: string;
  success: boolean;
  /** Epoch ms when it became known. */
  at_ms: number;
  /** Chooses the write shard. */
  payment_id: string;
}

/**
 * Counts one outcome in its bucket (one UpdateItem, `ADD`).
 * @param bucketStartMs the bucket the outcome falls in
 * @param expiresAtS TTL, epoch seconds
 * @throws the document client's errors (the caller logs them: a lost outcome is a statistic, not money)
 */
export async function addRoutingOutcome(
  merchantId: string,
  outcome: OutcomeToCount,
  bucketStartMs: number,
  expiresAtS: number,
): Promise<void> {
  const shard = stableHash(outcome.payment_id) % ROUTING_OUTCOME_SHARDS;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: routingOutcomeKeys.counter(merchantId, shard, bucketStartMs, outcome.merchant_connector_id, outcome.segment),
      UpdateExpression:
        'ADD attempts :one, successes :s SET entity = :e, merchant_id = :m, merchant_connector_id = :a, #seg = :seg, bucket_start_ms = :b, updated_at_ms = :t, expires_at = :x',
      ExpressionAttributeNames: { '#seg': 'segment' },
      ExpressionAttributeValues: {
        ':one': 1,
        ':s': outcome.success ? 1 : 0,
        ':e': 'routing_outcome',
        ':m': merchantId,
        ':a': outcome.merchant_connector_id,
        ':seg': outcome.segment,
        ':b': bucketStartMs,
        ':t': outcome.at_ms,
        ':x': expiresAtS,
      },
    }),
  );
}

/**
 * The merchant's counters of buckets starting at or after `sinceBucketMs`: one Query per shard, in parallel,
 * each shard's counter as its own entry (the caller sums shards of one bucket).
 * @throws the document client's errors
 */
export async function routingOutcomeCounters(merchantId: string, sinceBucketMs: number): Promise<StoredOutcomeCounter[]> {
  const shards = Array.from({ length: ROUTING_OUTCOME_SHARDS }, (_, i) => i);
  const perShard = await Promise.all(
    shards.map(async (shard) => {
      const out: StoredOutcomeCounter[] = [];
      const pages = paginateQuery(
        { client: documentClient() },
        {
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND SK >= :since',
          ExpressionAttributeValues: {
            ':pk': routingOutcomeKeys.partition(merchantId, shard),
            ':since': routingOutcomeKeys.since(sinceBucketMs),
          },
        },
      );
      for await (const page of pages) {
        for (const item of page.Items ?? []) {
          out.push({
            merchant_connector_id: String(item.merchant_connector_id),
            segment: String(item.segment),
            bucket_start_ms: Number(item.bucket_start_ms),
            attempts: Number(item.attempts ?? 0),
            successes: Number(item.successes ?? 0),
            updated_at_ms: Number(item.updated_at_ms ?? item.bucket_start_ms),
          });
        }
      }
      return out;
    }),
  );
  return perShard.flat();
}
