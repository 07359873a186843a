import { conditionalUpdate } from './conditional-write';
import { deliveryKey, parseDeliveryId } from './deliveries-repository';
import { openDeliveryShards, openIndexKeys, openShards, primaryKey } from './item-keys';
import { queryUpTo } from './query-pages';
import { tableName } from './table-definition';

/**
 * The kinds of open operation the reconciler settles: `payment` (a processor call with an
 * unknown or pending outcome: a claim, or `Processing`), `awaiting_payer` (a payment in
 * `RequiresAction`: 3DS, a hosted page, a bank transfer or USSD code the payer has not used
 * yet — open by design, so kept apart from the age alarm), `refund` (`Pending`),
 * `customer_delete` (an interrupted delete) and `webhook_delivery` (a webhook delivery whose
 * next attempt is scheduled: shared/storage/deliveries-repository.ts) and `payout` (a payout whose send has a
 * claim, or that is `Processing`/`RequiresAction`, or a final one with a later look announced).
 */
export type OpenItemKind = 'payment' | 'awaiting_payer' | 'refund' | 'customer_delete' | 'webhook_delivery' | 'payout';

/** One entry of the open-operations index (GSI5), as the reconciler needs it. */
export interface OpenItem {
  kind: OpenItemKind;
  merchantId: string;
  /** Payment, refund or customer id; for `webhook_delivery` the delivery id `<event_id>:<webhook_endpoint_id>`. */
  id: string;
  /** ISO 8601 UTC: when it is next due. */
  dueAt: string;
  /** ISO 8601 UTC: since when it has been open. */
  openSince: string;
  /** How many reconciler checks it has had while open (for the back-off). */
  checks: number;
}

const KIND_OF: Record<string, OpenItemKind> = {
  payment: 'payment',
  refund: 'refund',
  customer: 'customer_delete',
  webhook_delivery: 'webhook_delivery',
  payout: 'payout',
};

const ID_ATTRIBUTE: Record<OpenItemKind, string> = {
  payment: 'payment_id',
  awaiting_payer: 'payment_id',
  refund: 'refund_id',
  customer_delete: 'customer_id',
  webhook_delivery: 'delivery_id',
  payout: 'payout_id',
};

function toOpenItem(item: Record<string, unknown>): OpenItem | undefined {
  let kind = KIND_OF[String(item.entity)];
  if (kind === 'payment' && item.status === 'RequiresAction' && !item.pending_operation) kind = 'awaiting_payer';
  if (!kind) return undefined;
  const id = String(item[ID_ATTRIBUTE[kind]] ?? '');
  if (!id) return undefined;
  const dueAt = String(item.GSI5SK).split('#')[0] ?? '';
  return {
    kind,
    merchantId: String(item.merchant_id),
    id,
    dueAt,
    openSince: String(item.open_since ?? item.updated_at ?? dueAt),
    checks: Number(item.reconcile_checks ?? 0),
  };
}

/**
 * Reads one shard of the open-operations index (Query on GSI5, never a Scan), in due
 * order, with only the attributes the reconciler needs.
 * @param shard a value from {@link openShards}
 * @param limit at most this many items (the rest wait for the next run)
 * @returns the open items, due first; `more` when the shard held more than `limit`
 */
export async function queryOpenItems(shard: string, limit: number): Promise<{ items: OpenItem[]; more: boolean }> {
  const page = await queryUpTo(
    {
      IndexName: 'GSI5',
      KeyConditionExpression: 'GSI5PK = :pk',
      ExpressionAttributeValues: { ':pk': shard },
      ProjectionExpression:
        'entity, merchant_id, payment_id, refund_id, customer_id, delivery_id, payout_id, GSI5SK, open_since, updated_at, reconcile_checks, #status, pending_operation',
      ExpressionAttributeNames: { '#status': 'status' },
    },
    limit,
    500,
    toOpenItem,
  );
  return { items: page.items, more: page.next !== undefined };
}

export { openDeliveryShards, openShards };

/**
 * Moves an open item's next check later (its GSI5 sort key) and counts the check,
 * without touching anything else. Conditional on the item still being open, so an
 * item settled meanwhile is not put back into the index.
 * @param nextCheckAt ISO 8601 UTC
 */
export async function deferOpenItem(item: OpenItem, nextCheckAt: string): Promise<void> {
  let key: { PK: string; SK: string };
  if (item.kind === 'webhook_delivery') {
    const { eventId, endpointId } = parseDeliveryId(item.id);
    key = deliveryKey(item.merchantId, eventId, endpointId);
  } else {
    key =
      item.kind === 'payment' || item.kind === 'awaiting_payer'
        ? primaryKey.payment(item.merchantId, item.id)
        : item.kind === 'refund'
          ? primaryKey.refund(item.merchantId, item.id)
          : item.kind === 'payout'
            ? primaryKey.payout(item.merchantId, item.id)
            : primaryKey.customer(item.merchantId, item.id);
  }
  // Refused by its condition: settled meanwhile, and left out of the index.
  await conditionalUpdate({
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET GSI5SK = :sk ADD reconcile_checks :one',
    ConditionExpression: 'attribute_exists(GSI5PK)',
    ExpressionAttributeValues: { ':sk': openIndexKeys(item.id, nextCheckAt).GSI5SK, ':one': 1 },
  });
}
