/**
 * A refund's hold on its payment's refundable amount: the payment's `amount_refunded` counts a refund from its
 * reservation (before the processor is called) and gives its amount back when the processor declines it. Each is one
 * transaction over the payment item, the refund item and the refund's event (the outbox), so the payment's refundable
 * remainder and its refunds never disagree.
 */
import { type PendingOperation, viewPendingOperation } from '../domain/pending-operation';
import type { Refund } from '../domain/refund';
import { conditionalTransaction } from './conditional-write';
import { eventWrite } from './events-repository';
import { primaryKey } from './item-keys';
import { type ListShards, SINGLE_LIST_SHARD, shardCount } from './list-shards';
import { toStoredPayment } from './payments-repository';
import { getStoredRefund, refundItem } from './refunds-repository';
import { ItemExistsError, RefundReservationError } from './storage-errors';
import { tableName } from './table-definition';

/**
 * Reserves a refund in one transaction: adds `refund.amount` to the payment's
 * `amount_refunded` only if the payment is `Succeeded` and the new total stays
 * within `amount_captured` less what disputes withhold (condition `amount_refunded <= captured - amount -
 * disputed` with `amount_disputed` still the value read, evaluated by DynamoDB at write time, so concurrent refunds
 * and a dispute arriving meanwhile can never make `amount_refunded + amount_disputed` exceed the captured amount),
 * and writes the refund record.
 * The refund record carries its pending `refund` operation (written before the processor call).
 * @param amountCaptured the payment's captured amount in minor units (fixed once Succeeded)
 * @param shards the merchant's list shard counts (the request's): `refund.created` and the refund's
 *   later events are spread over `shards.write` shards (kept on the refund as `list_shards`)
 * @param amountDisputed the payment's `amount_disputed` as read, in minor units
 * @throws RefundReservationError carrying the current payment when the condition fails
 * @throws ItemExistsError when the refund id already exists (an idempotent retry)
 */
export async function reserveRefund(
  merchantId: string,
  refund: Refund,
  amountCaptured: number,
  pendingOperation: PendingOperation,
  shards: ListShards = SINGLE_LIST_SHARD,
  amountDisputed = 0,
): Promise<void> {
  const writeShards = shardCount(shards.write);
  const out = await conditionalTransaction([
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.payment(merchantId, refund.payment_id),
        UpdateExpression: 'SET amount_refunded = amount_refunded + :amount, updated_at = :now, version = version + :one',
        ConditionExpression:
          'attribute_exists(PK) AND #status = :succeeded AND amount_refunded <= :max AND ' +
          (amountDisputed === 0 ? '(attribute_not_exists(amount_disputed) OR amount_disputed = :disputed)' : 'amount_disputed = :disputed'),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':amount': refund.amount,
          ':now': refund.created_at,
          ':one': 1,
          ':succeeded': 'Succeeded',
          ':max': amountCaptured - refund.amount - amountDisputed,
          ':disputed': amountDisputed,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: refundItem(merchantId, refund, pendingOperation, writeShards),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    // The outbox: `refund.created`, with the refund as its GET answers it right after.
    eventWrite(
      merchantId,
      'refund.created',
      { ...refund, pending_operation: viewPendingOperation(pendingOperation) },
      refund.created_at,
      writeShards,
    ).put,
  ]);
  if (out.written) return;
  if (out.conditionFailed[1]) throw new ItemExistsError(refund.refund_id);
  if (out.conditionFailed[0]) {
    const current = out.current[0];
    throw new RefundReservationError(current ? toStoredPayment(current) : undefined);
  }
  throw out.error;
}

/**
 * Settles a refund the connector declined (or that it does not know): marks it `Failed`,
 * gives its amount back to the payment's refundable remainder and writes `refund.failed`,
 * in one transaction. A refund settled meanwhile (by a concurrent sync or webhook) gives nothing back twice.
 * @param error the processor's code and message, kept on the refund
 * @param eventShards how many list shards `refund.failed` is spread over: the refund's `list_shards`
 *   (StoredRefund.listShards) or the request's `write` count; default 1 (shard 0, always read)
 * @returns the refund as failed, or as stored when it was settled meanwhile (one more read)
 */
export async function releaseFailedRefund(
  merchantId: string,
  refund: Refund,
  error: { code: string; message: string },
  eventShards = 1,
): Promise<Refund> {
  const now = new Date().toISOString();
  const out = await conditionalTransaction([
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.refund(merchantId, refund.refund_id),
        UpdateExpression:
          'SET #status = :failed, error_code = :code, error_message = :msg, updated_at = :now REMOVE GSI5PK, GSI5SK, open_since, pending_operation, reconcile_checks',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':failed': 'Failed',
          ':pending': 'Pending',
          ':code': error.code,
          ':msg': error.message,
          ':now': now,
        },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.payment(merchantId, refund.payment_id),
        UpdateExpression: 'SET amount_refunded = amount_refunded - :amount, updated_at = :now, version = version + :one',
        ExpressionAttributeValues: { ':amount': refund.amount, ':now': now, ':one': 1 },
      },
    },
    eventWrite(
      merchantId,
      'refund.failed',
      { ...refund, status: 'Failed', error_code: error.code, error_message: error.message, pending_operation: null, updated_at: now },
      now,
      eventShards,
    ).put,
  ]);
  if (out.written) {
    return { ...refund, status: 'Failed', error_code: error.code, error_message: error.message, pending_operation: null, updated_at: now };
  }
  if (!out.conditionFailed[0]) throw out.error;
  // Settled meanwhile by a concurrent sync or webhook: nothing is released twice.
  return {
    ...refund,
    status: 'Failed',
    updated_at: now,
    error_code: error.code,
    error_message: error.message,
    pending_operation: null,
    ...((await getStoredRefund(merchantId, refund.refund_id))?.refund ?? {}),
  };
}
