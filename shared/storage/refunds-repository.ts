import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { refundStatusEvent } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import { type PendingOperation, viewPendingOperation } from '../domain/pending-operation';
import { REFUND_FIELDS, type Refund, type RefundStatus } from '../domain/refund';
import { nextCheckAt } from '../settings/reconcile-settings';
import { documentClient } from './client';
import { conditionalTransaction, conditionalUpdate } from './conditional-write';
import { eventWrite } from './events-repository';
import { idLookup, listPartition, listSortKey, openIndexKeys, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage, pickFields } from './list-items';
import { shardCount, shardOf, shardPartition } from './list-shards';
import { queryPage } from './query-pages';
import { tableName } from './table-definition';

/**
 * The stored item of a refund (keys + the API object). Written by the refund
 * reservation transaction, before the processor is called: it carries the
 * pending `refund` operation and is an open operation (GSI5) due when its lease ends.
 * Its own list (the refunds of one payment, GSI1) is not sharded; `list_shards` (kept when above 1)
 * is how many list shards its later events are spread over.
 * @param writeShards the merchant's list shard `write` count at the reservation
 */
export function refundItem(
  merchantId: string,
  refund: Refund,
  pendingOperation: PendingOperation,
  writeShards = 1,
): Record<string, unknown> {
  const { pending_operation: _view, ...fields } = refund;
  return {
    ...primaryKey.refund(merchantId, refund.refund_id),
    GSI1PK: listPartition.refundsOfPayment(merchantId, refund.payment_id),
    GSI1SK: listSortKey(refund.created_at, refund.refund_id),
    // Every refund of the merchant (`GET /refunds`), spread over the merchant's list shards as its payments are.
    GSI2PK: shardPartition(listPartition.refunds(merchantId), shardOf(refund.refund_id, writeShards)),
    GSI2SK: listSortKey(refund.created_at, refund.refund_id),
    ...idLookup.refund(refund.refund_id),
    ...openIndexKeys(refund.refund_id, pendingOperation.lease_expires_at),
    open_since: refund.created_at,
    entity: 'refund',
    merchant_id: merchantId,
    ...(writeShards > 1 ? { list_shards: writeShards } : {}),
    ...fields,
    pending_operation: pendingOperation,
  };
}

/** A refund as stored: the API object plus reconciliation bookkeeping. */
export interface StoredRefund {
  refund: Refund;
  pendingOperation: PendingOperation | null;
  merchantId: string;
  reconcileChecks: number;
  /** How many list shards the refund's events go to (`list_shards` at its creation; absent = 1). */
  listShards: number;
}

function toStoredRefund(item: Record<string, unknown>): StoredRefund {
  const pendingOperation = (item.pending_operation as PendingOperation | undefined) ?? null;
  const refund = pickFields<Refund>(item, REFUND_FIELDS);
  refund.pending_operation = viewPendingOperation(pendingOperation);
  return {
    refund,
    pendingOperation,
    merchantId: String(item.merchant_id),
    reconcileChecks: Number(item.reconcile_checks ?? 0),
    listShards: shardCount(item.list_shards),
  };
}

const toRefund = (item: Record<string, unknown>) => toStoredRefund(item).refund;

/** One strongly consistent read of a refund with its bookkeeping; undefined when it does not exist for this merchant. */
export async function getStoredRefund(merchantId: string, refundId: string): Promise<StoredRefund | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.refund(merchantId, refundId), ConsistentRead: true }),
  );
  return out.Item ? toStoredRefund(out.Item) : undefined;
}

/** One read of a refund; undefined when it does not exist for this merchant. */
export async function getRefund(merchantId: string, refundId: string): Promise<Refund | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.refund(merchantId, refundId), ConsistentRead: true }),
  );
  return out.Item ? toRefund(out.Item) : undefined;
}

/**
 * Records the connector's answer on a `Pending` refund (conditional on it still being
 * Pending) and clears its pending operation: `Succeeded` (or `Failed` without a
 * release — use releaseFailedRefund for declines) leaves the open-operations index and
 * writes `refund.succeeded` in the same transaction (the outbox); a `Pending` answer with
 * the processor's id stays in the index, due after the minimum age (one UpdateItem, no event).
 * @param before the refund as the caller read it (the event's data is it with the settlement applied)
 * @param eventShards how many list shards its event is spread over: the refund's `list_shards`
 *   (StoredRefund.listShards) or the request's `write` count; default 1 (shard 0, always read)
 * @returns the refund after the write
 */
export async function settleRefund(
  merchantId: string,
  before: Refund,
  status: RefundStatus,
  connectorRefundId: string | null,
  note: { code: string | null; message: string | null } = { code: null, message: null },
  eventShards = 1,
): Promise<Refund> {
  const settled = await writeSettlement(merchantId, before, status, connectorRefundId, note, eventShards);
  // Undefined: settled meanwhile by a concurrent sync or webhook; that settlement stands.
  return settled ?? ((await getRefund(merchantId, before.refund_id)) as Refund);
}

/** The write of {@link settleRefund}: the refund after it, or undefined when it was not `Pending` any more (nothing written). */
async function writeSettlement(
  merchantId: string,
  before: Refund,
  status: RefundStatus,
  connectorRefundId: string | null,
  note: { code: string | null; message: string | null },
  eventShards: number,
): Promise<Refund | undefined> {
  const now = new Date().toISOString();
  const update = {
    TableName: tableName(),
    Key: primaryKey.refund(merchantId, before.refund_id),
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
  };
  if (status === 'Pending') {
    const open = openIndexKeys(before.refund_id, nextCheckAt(0));
    const out = await conditionalUpdate({
      ...update,
      UpdateExpression:
        'SET #status = :status, connector_refund_id = :cref, error_code = :ecode, error_message = :emsg, updated_at = :now, GSI5PK = :openPk, GSI5SK = :openSk REMOVE pending_operation',
      ExpressionAttributeValues: {
        ':status': status,
        ':cref': connectorRefundId,
        ':ecode': note.code,
        ':emsg': note.message,
        ':pending': 'Pending',
        ':now': now,
        ':openPk': open.GSI5PK,
        ':openSk': open.GSI5SK,
      },
      ReturnValues: 'ALL_NEW',
    });
    return out.written ? toRefund(out.attributes ?? {}) : undefined;
  }
  // A final status writes its event (the outbox) in the same transaction.
  const after: Refund = {
    ...before,
    status,
    connector_refund_id: connectorRefundId,
    error_code: note.code,
    error_message: note.message,
    pending_operation: null,
    updated_at: now,
  };
  const type = refundStatusEvent(before.status, status);
  const out = await conditionalTransaction([
    {
      Update: {
        ...update,
        UpdateExpression:
          'SET #status = :status, connector_refund_id = :cref, error_code = :ecode, error_message = :emsg, updated_at = :now REMOVE GSI5PK, GSI5SK, open_since, pending_operation, reconcile_checks',
        ExpressionAttributeValues: {
          ':status': status,
          ':cref': connectorRefundId,
          ':ecode': note.code,
          ':emsg': note.message,
          ':pending': 'Pending',
          ':now': now,
        },
      },
    },
    ...(type ? [eventWrite(merchantId, type, after, now, eventShards).put] : []),
  ]);
  if (out.written) return after;
  if (out.conditionFailed[0]) return undefined;
  throw out.error;
}

/**
 * Hands a refund's claim over (docs/money-safety.md, "Convergence"): the request that made the refund call is ending
 * without having recorded the processor's answer, so the claim's lease is cut to `leaseEndsAt` and the refund
 * becomes due in the open-operations index (GSI5) then (see `handOverClaim` in payments-repository.ts). One
 * conditional `UpdateItem`: the refund still `Pending` with the very claim read (`started_at`).
 * @param claim the refund's claim as the request wrote it
 * @param leaseEndsAt ISO 8601 UTC
 * @param signal aborts the call (the request's own end)
 * @returns `handedOver: true`, or, when the condition failed (the settle write the request thought failed was in
 *   fact applied, or a webhook settled it), the refund as stored now
 * @throws the SDK's error for anything but a failed condition (storage unavailable)
 */
export async function handOverRefundClaim(
  merchantId: string,
  refundId: string,
  claim: PendingOperation,
  leaseEndsAt: string,
  signal?: AbortSignal,
): Promise<{ handedOver: true } | { handedOver: false; current: StoredRefund | undefined }> {
  const out = await conditionalUpdate(
    {
      TableName: tableName(),
      Key: primaryKey.refund(merchantId, refundId),
      UpdateExpression: 'SET #pending.#lease = :lease, GSI5SK = :openSk',
      ConditionExpression: '#status = :pendingStatus AND #pending.#started = :started',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#pending': 'pending_operation',
        '#lease': 'lease_expires_at',
        '#started': 'started_at',
      },
      ExpressionAttributeValues: {
        ':pendingStatus': 'Pending',
        ':lease': leaseEndsAt,
        ':openSk': openIndexKeys(refundId, leaseEndsAt).GSI5SK,
        ':started': claim.started_at,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    { abortSignal: signal },
  );
  if (out.written) return { handedOver: true };
  return { handedOver: false, current: out.current ? toStoredRefund(out.current) : undefined };
}

/**
 * Lists the refunds of one payment, newest first (Query on GSI1).
 * @param startingAfter the refund named by `starting_after`, already read by the caller
 */
export async function listRefunds(
  merchantId: string,
  paymentId: string,
  query: ListQuery,
  startingAfter?: Refund,
): Promise<ListPage<Refund>> {
  const location: ListLocation = { indexName: 'GSI1', partitionValue: listPartition.refundsOfPayment(merchantId, paymentId) };
  const after =
    startingAfter && cursorOf(primaryKey.refund(merchantId, startingAfter.refund_id), startingAfter.created_at, startingAfter.refund_id);
  return listPage({ ...location, startAfter: after }, query, toRefund);
}

/**
 * Lists every refund of the merchant, newest first (Query on GSI2, every read shard). Refunds written before this
 * list existed are not in it: they stay listed under their payment.
 * @param startingAfter the refund named by `starting_after`, already read by the caller
 */
export async function listMerchantRefunds(
  merchantId: string,
  query: ListQuery,
  startingAfter: Refund | undefined,
  readShards = 1,
): Promise<ListPage<Refund>> {
  const location: ListLocation = { indexName: 'GSI2', partitionValue: listPartition.refunds(merchantId), readShards };
  const after =
    startingAfter && cursorOf(primaryKey.refund(merchantId, startingAfter.refund_id), startingAfter.created_at, startingAfter.refund_id);
  return listPage({ ...location, startAfter: after }, query, toRefund);
}

/**
 * Finds which merchant owns a refund, from its id alone (Query on GSI4) — for
 * connector webhooks, which name our refund id but no merchant.
 * @returns the merchant id, or undefined when no refund has this id
 */
export async function findRefundOwner(refundId: string): Promise<string | undefined> {
  const key = idLookup.refund(refundId);
  const { items } = await queryPage({
    IndexName: 'GSI4',
    KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
    ExpressionAttributeValues: { ':pk': key.GSI4PK, ':sk': key.GSI4SK },
    ProjectionExpression: 'merchant_id',
    Limit: 1,
  });
  return items[0]?.merchant_id as string | undefined;
}
