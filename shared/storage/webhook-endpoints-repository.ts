import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import {
  endpointReceives,
  type StoredWebhookEndpoint,
  WEBHOOK_ENDPOINT_FIELDS,
  type WebhookEndpoint,
  type WebhookEndpointFields,
} from '../domain/webhook-endpoint';
import { documentClient } from './client';
import { conditionalDelete, conditionalUpdate } from './conditional-write';
import { listPartition, listSortKey, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage, pickFields } from './list-items';
import { queryAllItems } from './query-pages';
import { tableName } from './table-definition';

/** The sealed-secret attributes a stored endpoint carries beside its API fields. */
const SECRET_FIELDS = ['secret_encrypted', 'previous_secret_encrypted', 'previous_secret_expires_at'] as const;

const toEndpoint = (item: Record<string, unknown>) => pickFields<WebhookEndpoint>(item, WEBHOOK_ENDPOINT_FIELDS);

const toStored = (item: Record<string, unknown>): StoredWebhookEndpoint => ({
  ...toEndpoint(item),
  ...pickFields<Pick<StoredWebhookEndpoint, (typeof SECRET_FIELDS)[number]>>(item, SECRET_FIELDS),
  merchant_id: String(item.merchant_id),
  failing_since: (item.failing_since as string | undefined) ?? null,
  slow_until: (item.slow_until as string | undefined) ?? null,
});

/**
 * Writes a new endpoint with its sealed secret (one conditional put). Item: the endpoint's
 * primary key, GSI1 (the merchant's endpoints, `created_at#id`), `entity: webhook_endpoint`,
 * the API fields, `secret_encrypted`, `previous_secret_encrypted: null`, `previous_secret_expires_at: null`.
 * @returns the endpoint as the API shows it (no secret)
 */
export async function createWebhookEndpoint(stored: StoredWebhookEndpoint): Promise<WebhookEndpoint> {
  // `failing_since` is absent until a delivery fails (the health note sets it with if_not_exists).
  const { failing_since: _notFailing, ...endpoint } = stored;
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...primaryKey.webhookEndpoint(endpoint.merchant_id, endpoint.webhook_endpoint_id),
        GSI1PK: listPartition.webhookEndpoints(endpoint.merchant_id),
        GSI1SK: listSortKey(endpoint.created_at, endpoint.webhook_endpoint_id),
        entity: 'webhook_endpoint',
        ...endpoint,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return toEndpoint(endpoint as unknown as Record<string, unknown>);
}

/**
 * One consistent read of an endpoint with its sealed secrets, for the delivery worker
 * (e.g. a redelivery to one endpoint).
 * @returns undefined when it does not exist for this merchant
 */
export async function getStoredWebhookEndpoint(merchantId: string, endpointId: string): Promise<StoredWebhookEndpoint | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.webhookEndpoint(merchantId, endpointId), ConsistentRead: true }),
  );
  return out.Item ? toStored(out.Item) : undefined;
}

/**
 * One consistent read of an endpoint as the API shows it (no secret).
 * @returns undefined when it does not exist for this merchant
 */
export async function getWebhookEndpoint(merchantId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
  const stored = await getStoredWebhookEndpoint(merchantId, endpointId);
  return stored ? toEndpoint(stored as unknown as Record<string, unknown>) : undefined;
}

/** A conditional update of an existing endpoint; undefined when it does not exist. */
async function updateExisting(
  merchantId: string,
  endpointId: string,
  values: Record<string, unknown>,
  extraSet: string[] = [],
): Promise<Record<string, unknown> | undefined> {
  const names: Record<string, string> = {};
  const attrValues: Record<string, unknown> = {};
  const sets = [...extraSet];
  Object.entries(values).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#f${i}`] = k;
    attrValues[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.webhookEndpoint(merchantId, endpointId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
    ExpressionAttributeValues: attrValues,
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? (out.attributes ?? {}) : undefined;
}

/**
 * Sets the given fields on an existing endpoint (one conditional update) and `updated_at`.
 * A `status` set by the merchant clears `disabled_reason` (it only explains a disable by the system).
 * @returns the endpoint after the write, or undefined when it does not exist
 */
export async function updateWebhookEndpoint(
  merchantId: string,
  endpointId: string,
  fields: WebhookEndpointFields,
): Promise<WebhookEndpoint | undefined> {
  const item = await updateExisting(merchantId, endpointId, {
    url: fields.url,
    enabled_events: fields.enabled_events,
    description: fields.description,
    status: fields.status,
    disabled_reason: fields.status !== undefined ? null : undefined,
    updated_at: new Date().toISOString(),
  });
  return item && toEndpoint(item);
}

/**
 * Replaces an endpoint's secret (one conditional update): the current sealed secret becomes
 * the previous one, signing until `previousExpiresAt`; a previous secret still in its
 * overlap is dropped (only the last two secrets are kept).
 * @param sealedSecret the new secret, sealed for this endpoint
 * @param now ISO 8601 UTC: the rotation's time (`updated_at`)
 * @param previousExpiresAt ISO 8601 UTC: end of the old secret's overlap
 * @returns the endpoint after the write, or undefined when it does not exist
 */
export async function rotateWebhookEndpointSecret(
  merchantId: string,
  endpointId: string,
  sealedSecret: string,
  now: string,
  previousExpiresAt: string,
): Promise<WebhookEndpoint | undefined> {
  // DynamoDB evaluates every right-hand side against the item before the update.
  const item = await updateExisting(
    merchantId,
    endpointId,
    { secret_encrypted: sealedSecret, previous_secret_expires_at: previousExpiresAt, updated_at: now },
    ['previous_secret_encrypted = secret_encrypted'],
  );
  return item && toEndpoint(item);
}

/**
 * Disables an endpoint on the system's behalf (the delivery worker, after its deliveries
 * failed for days): `status: disabled` with the reason shown in `disabled_reason`.
 * @param reason a short explanation for the merchant (no URL, no secret)
 * @param attemptedUrl the URL the failing attempts went to: when given, the disable is conditional on
 *   the endpoint still having it and being enabled (a merchant's change meanwhile stands)
 * @returns the endpoint after the write, or undefined when it does not exist (or changed meanwhile)
 */
export async function disableWebhookEndpoint(
  merchantId: string,
  endpointId: string,
  reason: string,
  attemptedUrl?: string,
): Promise<WebhookEndpoint | undefined> {
  if (attemptedUrl === undefined) {
    const item = await updateExisting(merchantId, endpointId, {
      status: 'disabled',
      disabled_reason: reason,
      updated_at: new Date().toISOString(),
    });
    return item && toEndpoint(item);
  }
  // The system's disable (410, 5 days of failures) only applies to the endpoint as it was
  // attempted: if the merchant re-pointed or disabled it meanwhile, their change stands.
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.webhookEndpoint(merchantId, endpointId),
    UpdateExpression: 'SET #status = :disabled, disabled_reason = :reason, updated_at = :now',
    ConditionExpression: 'attribute_exists(PK) AND #url = :url AND #status = :enabled',
    ExpressionAttributeNames: { '#status': 'status', '#url': 'url' },
    ExpressionAttributeValues: {
      ':disabled': 'disabled',
      ':enabled': 'enabled',
      ':reason': reason,
      ':now': new Date().toISOString(),
      ':url': attemptedUrl,
    },
    ReturnValues: 'ALL_NEW',
  });
  return out.written && out.attributes ? toEndpoint(out.attributes) : undefined;
}

/**
 * Deletes an endpoint (one conditional delete): it receives nothing afterwards.
 * @returns true when it was deleted now, false when it did not exist
 */
export async function deleteWebhookEndpoint(merchantId: string, endpointId: string): Promise<boolean> {
  const out = await conditionalDelete({
    TableName: tableName(),
    Key: primaryKey.webhookEndpoint(merchantId, endpointId),
    ConditionExpression: 'attribute_exists(PK)',
  });
  return out.written;
}

/**
 * Lists a merchant's endpoints, newest first: Query on GSI1 (never a Scan).
 * @param startingAfter the endpoint named by `starting_after`, already read by the caller
 */
export async function listWebhookEndpoints(
  merchantId: string,
  query: ListQuery,
  startingAfter?: WebhookEndpoint,
): Promise<ListPage<WebhookEndpoint>> {
  const location: ListLocation = { indexName: 'GSI1', partitionValue: listPartition.webhookEndpoints(merchantId) };
  const after =
    startingAfter &&
    cursorOf(
      primaryKey.webhookEndpoint(merchantId, startingAfter.webhook_endpoint_id),
      startingAfter.created_at,
      startingAfter.webhook_endpoint_id,
    );
  return listPage({ ...location, startAfter: after }, query, toEndpoint);
}

/**
 * The ids of a merchant's endpoints, oldest first (`created_at`, then id): a Query on GSI1 (never a
 * Scan) projecting only the list sort key. The index is eventually consistent: an endpoint written a
 * moment ago may be missing.
 */
export async function listWebhookEndpointIdsOldestFirst(merchantId: string): Promise<string[]> {
  const items = await queryAllItems({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.webhookEndpoints(merchantId) },
    ProjectionExpression: 'GSI1SK',
    ScanIndexForward: true,
  });
  return items.map((item) => String(item.GSI1SK ?? '').slice(String(item.GSI1SK ?? '').indexOf('#') + 1));
}

/** Most keys one BatchGetItem takes (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const BATCH_GET_LIMIT = 100;

/**
 * Every enabled endpoint of a merchant with its sealed secrets, for the delivery worker. The
 * merchant's endpoint ids come from a Query on GSI1 (all pages; never a Scan); the items
 * themselves are then read strongly consistently (BatchGetItem, `ConsistentRead`), so a just
 * rotated secret, a new URL or a disable is always what the delivery uses. (An endpoint created
 * in the last moment may still be missing from the index: it gets the next events.)
 * @param eventType when given, only the endpoints that subscribe to it (`enabled_events` lists it or `*`)
 * @returns the endpoints; open their secrets with `signingSecrets()` (shared/webhooks/endpoint-secrets.ts)
 */
export async function listEndpointsForDelivery(merchantId: string, eventType?: EventType): Promise<StoredWebhookEndpoint[]> {
  const keys = await queryAllItems({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.webhookEndpoints(merchantId) },
    ProjectionExpression: 'PK, SK',
    ScanIndexForward: false,
  });
  const endpoints: StoredWebhookEndpoint[] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) {
    let request: Record<string, unknown>[] | undefined = keys.slice(i, i + BATCH_GET_LIMIT);
    for (let round = 0; request && request.length > 0 && round < 5; round += 1) {
      const out: BatchGetCommandOutput = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: request, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        const stored = toStored(item);
        if (eventType === undefined ? stored.status === 'enabled' : endpointReceives(stored, eventType)) endpoints.push(stored);
      }
      request = out.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined;
    }
    if (request && request.length > 0) throw new Error('DynamoDB left endpoint keys unprocessed; the delivery is retried.');
  }
  return endpoints.sort((x, y) => (x.created_at < y.created_at ? 1 : x.created_at > y.created_at ? -1 : 0));
}
