/**
 * Two notes the delivery worker keeps on a webhook endpoint's item, each written only when it changes.
 *
 * The "failing for 5 days" rule of webhook endpoints (Standard Webhooks,
 * "Disabling failing endpoints"): an endpoint whose deliveries have all failed for
 * {@link ENDPOINT_FAILING_DISABLE_MS} is disabled, with a `disabled_reason`.
 *
 * Kept as a `failing_since` note (ISO 8601 UTC) on the endpoint item: set by the first failed
 * attempt after a success, cleared by any delivered one. The clock restarts when the merchant
 * changes the endpoint (`updated_at` later than the note: e.g. re-enabled or a new URL).
 *
 * The pace: an attempt that took `WEBHOOK_SLOW_ATTEMPT_MS` or more (5 s by default, a timeout
 * included) marks the endpoint slow until {@link SLOW_ENDPOINT_WINDOW_MS} later (`slow_until`, ISO
 * 8601 UTC); while it is slow its deliveries go through its merchant's slow lanes
 * (shared/webhooks/delivery-queue.ts), so it holds one batch of the worker at a time instead of the
 * merchant's ordinary lanes. Measured by latency, not by failures: an endpoint answering `200` after
 * 8 s is slow though every delivery succeeds (the endpoint circuits only count attempts without an
 * answer). Quick attempts write nothing; the mark lapses by itself.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredWebhookEndpoint } from '../domain/webhook-endpoint';
import { documentClient } from '../storage/client';
import { primaryKey } from '../storage/item-keys';
import { tableName } from '../storage/table-definition';
import { disableWebhookEndpoint } from '../storage/webhook-endpoints-repository';
import { ENDPOINT_FAILING_DISABLE_MS, SLOW_ENDPOINT_WINDOW_MS, slowAttemptMs } from './delivery-settings';

/** The `disabled_reason` the rule writes. */
export const FAILING_DISABLED_REASON =
  'Every delivery to this endpoint failed for 5 days; it was disabled. Fix the receiver and set its status to enabled.';

/** The `disabled_reason` written when the receiver answers 410 Gone. */
export const GONE_DISABLED_REASON = 'The endpoint answered 410 Gone, asking not to receive events any more; it was disabled.';

/**
 * Clears the endpoint's `failing_since` after a delivered attempt (conditional: only when
 * set, and only on an existing endpoint, so a deleted endpoint is not re-created).
 */
export async function noteEndpointDelivered(merchantId: string, endpointId: string): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.webhookEndpoint(merchantId, endpointId),
        UpdateExpression: 'REMOVE failing_since',
        ConditionExpression: 'attribute_exists(PK) AND attribute_exists(failing_since)',
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/**
 * Notes a failed attempt: sets `failing_since` if unset, and disables the endpoint when its
 * failures have lasted {@link ENDPOINT_FAILING_DISABLE_MS} (5 days), counted from the later of
 * `failing_since` and the endpoint's `updated_at` (a change by the merchant restarts the clock).
 * @param nowMs Unix epoch milliseconds
 * @returns true when this call disabled the endpoint
 */
export async function noteEndpointFailed(
  merchantId: string,
  endpoint: Pick<StoredWebhookEndpoint, 'webhook_endpoint_id' | 'failing_since' | 'updated_at' | 'status' | 'url'>,
  nowMs: number,
): Promise<boolean> {
  const endpointId = endpoint.webhook_endpoint_id;
  const now = new Date(nowMs).toISOString();
  let item: Record<string, unknown> | undefined;
  if (endpoint.failing_since) {
    // Already failing: decide from what was read, without rewriting the item on every failure.
    item = { ...endpoint };
  } else
    try {
      const out = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: primaryKey.webhookEndpoint(merchantId, endpointId),
          UpdateExpression: 'SET failing_since = if_not_exists(failing_since, :now)',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      item = out.Attributes;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  if (item?.status !== 'enabled') return false;
  const since = Math.max(Date.parse(String(item.failing_since)), Date.parse(String(item.updated_at ?? '')) || 0);
  if (!Number.isFinite(since) || nowMs - since < ENDPOINT_FAILING_DISABLE_MS) return false;
  await disableWebhookEndpoint(merchantId, endpointId, FAILING_DISABLED_REASON, String(item.url));
  return true;
}

/**
 * Whether the endpoint counts as slow now: its `slow_until` is later than `nowMs`.
 * @param nowMs Unix epoch milliseconds
 */
export function isEndpointSlow(endpoint: Pick<StoredWebhookEndpoint, 'slow_until'>, nowMs: number): boolean {
  return typeof endpoint.slow_until === 'string' && endpoint.slow_until > new Date(nowMs).toISOString();
}

/**
 * Notes how long an attempt took: one that took `WEBHOOK_SLOW_ATTEMPT_MS` or more ({@link slowAttemptMs})
 * marks the endpoint slow until `nowMs` + {@link SLOW_ENDPOINT_WINDOW_MS}. Written only when the mark
 * read with the endpoint ends within half the window (so a slow endpoint's item is written at most
 * about every 5 minutes, whatever its delivery rate), conditionally (concurrent attempts write it
 * once; a deleted endpoint is not re-created). A quick attempt writes nothing.
 * @param durationMs the attempt's duration, ms
 * @param nowMs Unix epoch milliseconds
 * @returns true when this call marked (or extended) the mark
 */
export async function noteEndpointPace(
  merchantId: string,
  endpoint: Pick<StoredWebhookEndpoint, 'webhook_endpoint_id' | 'slow_until'>,
  durationMs: number,
  nowMs: number,
): Promise<boolean> {
  if (durationMs < slowAttemptMs()) return false;
  const refreshBefore = new Date(nowMs + SLOW_ENDPOINT_WINDOW_MS / 2).toISOString();
  if (typeof endpoint.slow_until === 'string' && endpoint.slow_until >= refreshBefore) return false;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.webhookEndpoint(merchantId, endpoint.webhook_endpoint_id),
        UpdateExpression: 'SET slow_until = :until',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(slow_until) OR slow_until < :refresh)',
        ExpressionAttributeValues: { ':until': new Date(nowMs + SLOW_ENDPOINT_WINDOW_MS).toISOString(), ':refresh': refreshBefore },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
