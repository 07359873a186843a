import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { ListPage, ListQuery } from '../domain/list-query';
import { ATTEMPT_FIELDS, type Attempt, type Payment, PAYMENT_FIELDS } from '../domain/payment';
import { CARD_SUMMARY_FIELDS, type CardSummary } from '../domain/card';
import type { PaymentStatus } from '../domain/payment-status';
import { type Refund, REFUND_FIELDS } from '../domain/refund';
import { documentClient } from './client';
import { idLookup, listPartition, listSortKey, primaryKey, webhookEventKey } from './item-keys';
import { queryListPage, pickFields, type ListLocation } from './list-items';
import { ConditionFailedError, ItemExistsError, LinkedCustomerMissingError, RefundReservationError } from './storage-errors';
import { tableName } from './table-definition';
import { storableMap } from './storable-map';
import { refundItem } from './refunds-repository';

/**
 * A payment as stored: the API object plus the optimistic-lock `version` and the
 * connector operation in flight, if any (`pending_operation`).
 */
export interface StoredPayment {
  payment: Payment;
  version: number;
  pendingOperation: string | null;
}

function toStored(item: Record<string, unknown>): StoredPayment {
  const payment = pickFields<Payment>(item, PAYMENT_FIELDS);
  payment.attempts = ((item.attempts as Record<string, unknown>[] | undefined) ?? []).map((a) => pickFields<Attempt>(a, ATTEMPT_FIELDS));
  if (payment.payment_method_data?.card) {
    payment.payment_method_data = { card: pickFields<CardSummary>(payment.payment_method_data.card as unknown as Record<string, unknown>, CARD_SUMMARY_FIELDS) };
  }
  return {
    payment,
    version: Number(item.version),
    pendingOperation: (item.pending_operation as string | undefined) ?? null,
  };
}

function indexKeys(merchantId: string, p: Payment): Record<string, string> {
  const sk = listSortKey(p.created_at, p.payment_id);
  return {
    GSI1PK: listPartition.payments(merchantId),
    GSI1SK: sk,
    GSI2PK: listPartition.paymentsByStatus(merchantId, p.status),
    GSI2SK: sk,
    ...(p.customer_id ? { GSI3PK: listPartition.paymentsByCustomer(merchantId, p.customer_id), GSI3SK: sk } : {}),
  };
}

/** Conditions an {@link updatePayment} write requires. */
export interface UpdateGuard {
  /** The version the caller read; the write fails if it moved. */
  expectedVersion: number;
  /** The write fails unless the status is one of these. */
  expectedStatuses?: readonly PaymentStatus[];
  /** The write fails while another connector operation is in flight. */
  requireNoPendingOperation?: boolean;
}

/**
 * Creates a payment item (one write). With a `customer_id`, the write is a
 * transaction that also checks the customer exists, so a payment can never be
 * linked to a missing customer.
 * @param pendingOperation set when the payment is created already claimed for a connector call (create with confirm)
 * @throws LinkedCustomerMissingError when `payment.customer_id` does not exist for the merchant
 * @throws ItemExistsError when a payment with this id already exists (an idempotent retry)
 */
export async function createPayment(merchantId: string, payment: Payment, pendingOperation?: string): Promise<StoredPayment> {
  const item = {
    ...primaryKey.payment(merchantId, payment.payment_id),
    ...indexKeys(merchantId, payment),
    ...idLookup.payment(payment.payment_id),
    entity: 'payment',
    merchant_id: merchantId,
    version: 1,
    ...(pendingOperation ? { pending_operation: pendingOperation } : {}),
    ...payment,
    metadata: storableMap(payment.metadata),
  };
  const put = { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' };
  if (!payment.customer_id) {
    try {
      await documentClient().send(new PutCommand(put));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new ItemExistsError(payment.payment_id);
      throw err;
    }
  } else {
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: tableName(),
                Key: primaryKey.customer(merchantId, payment.customer_id),
                ConditionExpression: 'attribute_exists(PK)',
              },
            },
            { Put: put },
          ],
        }),
      );
    } catch (err) {
      if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
        throw new LinkedCustomerMissingError(payment.customer_id);
      }
      if (err instanceof TransactionCanceledException && err.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed') {
        throw new ItemExistsError(payment.payment_id);
      }
      throw err;
    }
  }
  return { payment, version: 1, pendingOperation: pendingOperation ?? null };
}

/** One strongly consistent read of a payment; undefined when it does not exist for this merchant. */
export async function getPayment(merchantId: string, paymentId: string): Promise<StoredPayment | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.payment(merchantId, paymentId), ConsistentRead: true }),
  );
  return out.Item ? toStored(out.Item) : undefined;
}

/** The UpdateItem parameters of a guarded payment change (shared by the single update and the webhook transaction). */
function paymentUpdate(
  merchantId: string,
  paymentId: string,
  guard: UpdateGuard,
  set: Partial<Payment>,
  pendingOperation?: string | null,
) {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': guard.expectedVersion, ':next': guard.expectedVersion + 1 };
  const sets = ['#version = :next'];
  const removes: string[] = [];
  const fields: Record<string, unknown> = { ...set, updated_at: set.updated_at ?? new Date().toISOString() };
  if (set.status) fields.GSI2PK = listPartition.paymentsByStatus(merchantId, set.status);
  if (set.customer_id === null) removes.push('GSI3PK', 'GSI3SK');
  Object.entries(fields).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  if (pendingOperation) {
    names['#pending'] = 'pending_operation';
    values[':pending'] = pendingOperation;
    sets.push('#pending = :pending');
  } else if (pendingOperation === null) {
    removes.push('pending_operation');
  }
  let condition = 'attribute_exists(PK) AND #version = :expected';
  if (guard.expectedStatuses) {
    names['#status'] = 'status';
    const keys = guard.expectedStatuses.map((s, i) => {
      values[`:s${i}`] = s;
      return `:s${i}`;
    });
    condition += ` AND #status IN (${keys.join(', ')})`;
  }
  if (guard.requireNoPendingOperation) condition += ' AND attribute_not_exists(pending_operation)';
  return {
    TableName: tableName(),
    Key: primaryKey.payment(merchantId, paymentId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * A conditional write of payment fields: succeeds only if the version (and
 * status, and no operation in flight, as asked) are still what the caller read.
 * Bumps the version, sets `updated_at`, keeps the status index in step.
 * @param set fields to change (undefined values are ignored; null stores null)
 * @param pendingOperation a string claims the payment for a connector call; null releases it; undefined leaves it
 * @returns the payment after the write
 * @throws ConditionFailedError carrying the current payment when the guard fails
 */
export async function updatePayment(
  merchantId: string,
  paymentId: string,
  guard: UpdateGuard,
  set: Partial<Payment>,
  pendingOperation?: string | null,
): Promise<StoredPayment> {
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        ...paymentUpdate(merchantId, paymentId, guard, set, pendingOperation),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toStored(out.Attributes ?? {});
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) {
      throw new ConditionFailedError(err.Item ? toStored(unmarshall(err.Item)) : undefined);
    }
    throw err;
  }
}

/**
 * Lists a merchant's payments, newest first: Query on GSI1, or on GSI2 when
 * filtered by status.
 * @param startingAfter the payment named by `starting_after`, already read by the caller
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus },
  startingAfter?: Payment,
): Promise<ListPage<Payment>> {
  const location: ListLocation = filters.status
    ? { indexName: 'GSI2', partitionValue: listPartition.paymentsByStatus(merchantId, filters.status) }
    : { indexName: 'GSI1', partitionValue: listPartition.payments(merchantId) };
  if (startingAfter) {
    location.startAfter = { key: primaryKey.payment(merchantId, startingAfter.payment_id), createdAt: startingAfter.created_at, id: startingAfter.payment_id };
  }
  const page = await queryListPage(location, query);
  return { data: page.items.map((i) => toStored(i).payment), has_more: page.hasMore };
}

/**
 * Removes the customer link from every payment of a deleted customer (Query on
 * GSI3, then one conditional update per payment). Payments themselves stay.
 * @returns how many payments were unlinked
 */
export async function unlinkCustomerPayments(merchantId: string, customerId: string): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': listPartition.paymentsByCustomer(merchantId, customerId) },
        ProjectionExpression: 'PK, SK',
        ExclusiveStartKey: startKey,
      }),
    );
    await Promise.all(
      (out.Items ?? []).map(async (key) => {
        try {
          await documentClient().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: { PK: key.PK, SK: key.SK },
              UpdateExpression: 'SET customer_id = :null, updated_at = :now REMOVE GSI3PK, GSI3SK',
              ConditionExpression: 'customer_id = :cid',
              ExpressionAttributeValues: { ':null': null, ':cid': customerId, ':now': new Date().toISOString() },
            }),
          );
          count += 1;
        } catch (err) {
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
        }
      }),
    );
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Reserves a refund in one transaction: adds `refund.amount` to the payment's
 * `amount_refunded` only if the payment is `Succeeded` and the new total stays
 * within `amount_captured` (condition `amount_refunded <= captured - amount`,
 * evaluated by DynamoDB at write time, so concurrent refunds can never exceed
 * the captured amount), and writes the refund record.
 * @param amountCaptured the payment's captured amount in minor units (fixed once Succeeded)
 * @throws RefundReservationError carrying the current payment when the condition fails
 * @throws ItemExistsError when the refund id already exists (an idempotent retry)
 */
export async function reserveRefund(merchantId: string, refund: Refund, amountCaptured: number): Promise<void> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: primaryKey.payment(merchantId, refund.payment_id),
              UpdateExpression: 'SET amount_refunded = amount_refunded + :amount, updated_at = :now, version = version + :one',
              ConditionExpression: 'attribute_exists(PK) AND #status = :succeeded AND amount_refunded <= :max',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':amount': refund.amount,
                ':now': refund.created_at,
                ':one': 1,
                ':succeeded': 'Succeeded',
                ':max': amountCaptured - refund.amount,
              },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: refundItem(merchantId, refund),
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed') {
      throw new ItemExistsError(refund.refund_id);
    }
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      const old = err.CancellationReasons[0].Item;
      throw new RefundReservationError(old ? toStored(unmarshall(old)) : undefined);
    }
    throw err;
  }
}

/**
 * Settles a refund the connector declined: marks it `Failed` and gives its
 * amount back to the payment's refundable remainder, in one transaction.
 */
export async function releaseFailedRefund(
  merchantId: string,
  refund: Refund,
  error: { code: string; message: string },
): Promise<Refund> {
  const now = new Date().toISOString();
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: primaryKey.refund(merchantId, refund.refund_id),
              UpdateExpression: 'SET #status = :failed, error_code = :code, error_message = :msg, updated_at = :now',
              ConditionExpression: '#status = :pending',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':failed': 'Failed', ':pending': 'Pending', ':code': error.code, ':msg': error.message, ':now': now },
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
        ],
      }),
    );
  } catch (err) {
    // Settled meanwhile by a concurrent sync or webhook: nothing is released twice.
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      return { ...refund, status: 'Failed', updated_at: now, error_code: error.code, error_message: error.message, ...(await getRefundItem(merchantId, refund.refund_id)) };
    }
    throw err;
  }
  return { ...refund, status: 'Failed', error_code: error.code, error_message: error.message, updated_at: now };
}

/**
 * Finds which merchant owns a payment, from its id alone (Query on GSI4) — for
 * connector webhooks, which name our payment id but no merchant.
 * @returns the merchant id, or undefined when no payment has this id
 */
export async function findPaymentOwner(paymentId: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI4',
      KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
      ExpressionAttributeValues: { ':pk': idLookup.payment(paymentId).GSI4PK, ':sk': idLookup.payment(paymentId).GSI4SK },
      ProjectionExpression: 'merchant_id',
      Limit: 1,
    }),
  );
  return out.Items?.[0]?.merchant_id as string | undefined;
}

/** Outcome of {@link applyPaymentWebhook}. */
export type WebhookApplication = 'applied' | 'duplicate' | 'changed';

/**
 * Applies a connector webhook to a payment in one transaction: records the
 * event (`WEBHOOK#<connector>#<event id>`, only if new) and makes the guarded
 * payment change. A redelivered event changes nothing.
 * @returns `applied`; `duplicate` when the event was already recorded; `changed`
 *   when the payment moved since it was read (the caller re-reads and decides)
 */
export async function applyPaymentWebhook(
  merchantId: string,
  paymentId: string,
  event: { connector: string; eventId: string },
  guard: UpdateGuard,
  set: Partial<Payment>,
): Promise<WebhookApplication> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: webhookEventItem(event.connector, event.eventId, paymentId), ConditionExpression: 'attribute_not_exists(PK)' } },
          { Update: paymentUpdate(merchantId, paymentId, guard, set, null) },
        ],
      }),
    );
    return 'applied';
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      if (err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return 'duplicate';
      if (err.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed') return 'changed';
    }
    throw err;
  }
}

/** Records a webhook event that changed nothing, so its redeliveries are recognized (idempotent). */
export async function recordWebhookEvent(connector: string, eventId: string, subject: string): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: webhookEventItem(connector, eventId, subject), ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/** Webhook event records expire after 30 days (processors stop redelivering long before). */
const WEBHOOK_EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

function webhookEventItem(connector: string, eventId: string, subject: string) {
  return {
    ...webhookEventKey(connector, eventId),
    entity: 'webhook_event',
    subject,
    received_at: new Date().toISOString(),
    expires_at: Math.floor(Date.now() / 1000) + WEBHOOK_EVENT_TTL_SECONDS,
  };
}

async function getRefundItem(merchantId: string, refundId: string): Promise<Partial<Refund>> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.refund(merchantId, refundId), ConsistentRead: true }));
  return out.Item ? pickFields<Refund>(out.Item, REFUND_FIELDS) : {};
}
