import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EventData } from '../domain/events';
import type { ActiveAlgorithm, RoutingProfile } from '../domain/routing-profile';
import { documentClient } from './client';
import { conditionalTransaction } from './conditional-write';
import { eventWrite } from './events-repository';
import { connectorConfig, routingAlgorithmKeys } from './item-keys';
import { countOneMore, initialiseCounter, LimitReachedError } from './limit-counters';
import { queryAllItems, queryPages } from './query-pages';
import { ConditionFailedError } from './storage-errors';
import { tableName } from './table-definition';

/**
 * A routing algorithm as stored: `routing_algorithm_id` (`routing_…`), `name`, `description`,
 * `algorithm` (`{type, data}`), `created_at`, `modified_at` (ISO 8601 UTC). Immutable once written.
 */
export interface StoredRoutingAlgorithm {
  routing_algorithm_id: string;
  name: string;
  description: string | null;
  algorithm: unknown;
  created_at: string;
  modified_at: string;
}

const toAlgorithm = (item: Record<string, unknown>): StoredRoutingAlgorithm => ({
  routing_algorithm_id: String(item.routing_algorithm_id),
  name: String(item.name),
  description: (item.description as string | null | undefined) ?? null,
  algorithm: item.algorithm,
  created_at: String(item.created_at),
  modified_at: String(item.modified_at ?? item.created_at),
});

/**
 * Writes a new routing algorithm and one more on the merchant's algorithm counter, only while it counts fewer
 * than `cap`, in one TransactWriteItems (shared/storage/limit-counters.ts), so the cap holds whatever runs at the
 * same time. A merchant without a counter (algorithms created before counters existed) gets one first, counted
 * by one consistent Query of its algorithm partition. A transaction cancelled only by a conflict with another
 * (a create racing for the counter) is tried again.
 * @param cap the most algorithms a merchant may keep
 * @throws LimitReachedError when the merchant has `cap` algorithms
 */
export async function createRoutingAlgorithm(merchantId: string, algorithm: StoredRoutingAlgorithm, cap: number): Promise<void> {
  const send = () =>
    conditionalTransaction(
      [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...routingAlgorithmKeys.algorithm(merchantId, algorithm.routing_algorithm_id),
              entity: 'routing_algorithm',
              merchant_id: merchantId,
              ...algorithm,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        countOneMore(routingAlgorithmKeys.count(merchantId), cap),
      ],
      { retryConflicts: true },
    );
  // The second item is the counter: its condition refuses a create at the cap, or when the merchant has no counter yet.
  const first = await send();
  if (first.written) return;
  if (!first.conditionFailed[1]) throw first.error;
  // Refused by the counter: at the cap, or no counter yet (then it is counted now, and the create tried again).
  await ensureAlgorithmCounter(merchantId);
  const second = await send();
  if (second.written) return;
  if (second.conditionFailed[1]) throw new LimitReachedError(cap);
  throw second.error;
}

/**
 * Gives the merchant its algorithm counter when it has none: reads it, and when missing counts the algorithms
 * with one consistent Query (`Select: COUNT`, paged) and writes that count (`attribute_not_exists`: a counter
 * written meanwhile by a concurrent create is kept).
 */
async function ensureAlgorithmCounter(merchantId: string): Promise<void> {
  const key = routingAlgorithmKeys.count(merchantId);
  const counter = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (counter.Item) return;
  let count = 0;
  const pages = queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': routingAlgorithmKeys.partition(merchantId), ':prefix': routingAlgorithmKeys.algorithmPrefix },
    Select: 'COUNT',
    ConsistentRead: true,
  });
  for await (const page of pages) count += page.Count ?? 0;
  await initialiseCounter(key, count);
}

/** One read of an algorithm; undefined when it does not exist for this merchant. */
export async function getRoutingAlgorithm(merchantId: string, algorithmId: string): Promise<StoredRoutingAlgorithm | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: routingAlgorithmKeys.algorithm(merchantId, algorithmId), ConsistentRead: true }),
  );
  return out.Item ? toAlgorithm(out.Item) : undefined;
}

/** Every algorithm of the merchant (one Query of its partition, at most 100), newest first. */
export async function listRoutingAlgorithms(merchantId: string): Promise<StoredRoutingAlgorithm[]> {
  const items = await queryAllItems({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': routingAlgorithmKeys.partition(merchantId), ':prefix': routingAlgorithmKeys.algorithmPrefix },
  });
  return items
    .map(toAlgorithm)
    .sort((a, b) =>
      a.created_at === b.created_at
        ? b.routing_algorithm_id.localeCompare(a.routing_algorithm_id)
        : b.created_at.localeCompare(a.created_at),
    );
}

/** What a profile write sets; undefined leaves a field. */
export interface ProfileChange {
  active_algorithm?: ActiveAlgorithm | null;
  default_fallback?: string[] | null;
  auto_retries?: RoutingProfile['auto_retries'];
  payout_priority?: string[] | null;
}

/**
 * Writes the merchant's routing profile, guarded by the version read (`null`: no profile yet), in one
 * TransactWriteItems with, when given, condition checks that each named account is live (not deleted,
 * not being deleted) and the event of the change (`routing.activated`).
 * @param before the profile read (null when none)
 * @param liveAccounts `merchant_connector_id`s that must still exist, unchanged in that respect, when this commits
 * @returns the profile after the write
 * @throws ConditionFailedError when the profile changed, or a named account was deleted, since read
 */
export async function writeRoutingProfile(
  merchantId: string,
  before: RoutingProfile | null,
  change: ProfileChange,
  liveAccounts: readonly string[],
  event?: { type: 'routing.activated'; data: EventData },
): Promise<RoutingProfile> {
  const now = new Date().toISOString();
  const after: RoutingProfile = {
    active_algorithm: change.active_algorithm !== undefined ? change.active_algorithm : (before?.active_algorithm ?? null),
    default_fallback: change.default_fallback !== undefined ? change.default_fallback : (before?.default_fallback ?? null),
    auto_retries: change.auto_retries !== undefined ? change.auto_retries : (before?.auto_retries ?? null),
    payout_priority: change.payout_priority !== undefined ? change.payout_priority : (before?.payout_priority ?? null),
    version: (before?.version ?? 0) + 1,
    updated_at: now,
  };
  const guard =
    before === null
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': before.version } };
  const checks = [...new Set(liveAccounts)].map((id) => ({
    ConditionCheck: {
      TableName: tableName(),
      Key: connectorConfig.account(merchantId, id),
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at) AND attribute_not_exists(deleting_since)',
    },
  }));
  const out = await conditionalTransaction([
    {
      Put: {
        TableName: tableName(),
        Item: { ...connectorConfig.profile(merchantId), entity: 'routing_profile', merchant_id: merchantId, ...after },
        ...guard,
      },
    },
    ...checks,
    ...(event ? [eventWrite(merchantId, event.type, event.data, now).put] : []),
  ]);
  // Any cancellation (the profile's version, a named account, a conflict) is answered as a change since read.
  if (!out.written) throw new ConditionFailedError(undefined);
  return after;
}
