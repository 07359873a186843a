/**
 * The "failing for 5 days" rule of webhook endpoints (issue 11; Standard Webhooks,
 * "Disabling failing endpoints"): an endpoint whose deliveries have all failed for
 * {@link ENDPOINT_FAILING_DISABLE_MS} is disabled, with a `disabled_reason`.
 *
 * Kept as a `failing_since` note (ISO 8601 UTC) on the endpoint item: set by the first failed
 * attempt after a success, cleared by any delivered one. The clock restarts when the merchant
 * changes the endpoint (`updated_at` later than the note: e.g. re-enabled or a new URL).
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredWebhookEndpoint } from '../domain/webhook-endpoint';
import { documentClient } from '../storage/client';
import { primaryKey } from '../storage/item-keys';
import { tableName } from '../storage/table-definition';
import { disableWebhookEndpoint } from '../storage/webhook-endpoints-repository';
import { ENDPOINT_FAILING_DISABLE_MS } from './delivery-settings';

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
