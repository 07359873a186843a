/**
 * The DynamoDB calls each benchmarked endpoint needs, made directly with the
 * project's document client (shared/storage/client.ts: same SDK, same retry and
 * timeout settings as the handlers), without HTTP, middy, validation,
 * Powertools or the connector. Request shapes mirror the repositories
 * (shared/storage/*-repository.ts): same keys, conditions and return values.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { EventData, EventType } from '../../shared/domain/events';
import { newId } from '../../shared/domain/ids';
import { startPendingOperation } from '../../shared/domain/pending-operation';
import type { Refund } from '../../shared/domain/refund';
import { documentClient } from '../../shared/storage/client';
import { eventWrite } from '../../shared/storage/events-repository';
import { listPartition, listSortKey, openIndexKeys, primaryKey } from '../../shared/storage/item-keys';
import { refundItem } from '../../shared/storage/refunds-repository';
import { tableName } from '../../shared/storage/table-definition';
import { percentile } from './stats';

/** The sandbox test card that always succeeds, with an expiry three years ahead. */
export const BENCH_CARD = {
  card_number: '4242424242424242',
  card_exp_month: '12',
  card_exp_year: String(new Date().getUTCFullYear() + 3),
  card_cvc: '123',
};

/**
 * What a payment stores of {@link BENCH_CARD} (shape of shared/domain/card.ts's
 * card summary: never the number or CVC), written by the bare confirm.
 */
const BENCH_CARD_SUMMARY = {
  last4: '4242',
  brand: 'visa',
  exp_month: 12,
  exp_year: Number(BENCH_CARD.card_exp_year),
  fingerprint: 'f'.repeat(64),
};

/** A stored payment item as the API wrote it (keys and bookkeeping included). */
export type PaymentItem = Record<string, unknown>;

/**
 * Reads the raw stored item of a payment (keys included), to use as the
 * template of the items the bare `create` writes, so they have the same size
 * and shape as the API's.
 * @throws when the payment does not exist
 */
export async function readPaymentItem(merchantId: string, paymentId: string): Promise<PaymentItem> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.payment(merchantId, paymentId) }));
  if (!out.Item) throw new Error(`payment ${paymentId} not found`);
  return out.Item;
}

/**
 * The outbox event the API writes in the same transaction as a status change (shared/storage/
 * events-repository.ts `eventWrite`), with the payment (or refund) item as its data, so the bare
 * transaction has the API's item count and sizes.
 */
/** A stored item's fields without its keys and bookkeeping (table keys, `entity`, `merchant_id`, `version`). */
function publicFields(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item).filter(([k]) => !/^(PK|SK|GSI\d+(PK|SK))$/.test(k) && !['entity', 'merchant_id', 'version'].includes(k)),
  );
}

function eventPut(merchantId: string, type: EventType, data: Record<string, unknown>) {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, GSI2PK: _g2, GSI2SK: _g2s, ...fields } = data;
  return eventWrite(merchantId, type, fields as unknown as EventData).put;
}

/**
 * Create: one TransactWriteItems — the conditional Put of a new payment item (a copy of `template`
 * with a new id, keys and timestamps) and its `payment.created` event — as `createPayment` writes it.
 * @returns the new payment's id
 */
export async function bareCreate(merchantId: string, template: PaymentItem): Promise<string> {
  const paymentId = newId('payment');
  const now = new Date().toISOString();
  const sk = listSortKey(now, paymentId);
  const item = {
    ...template,
    ...primaryKey.payment(merchantId, paymentId),
    GSI1SK: sk,
    GSI2SK: sk,
    payment_id: paymentId,
    created_at: now,
    updated_at: now,
  };
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        eventPut(merchantId, 'payment.created', item),
      ],
    }),
  );
  return paymentId;
}

/** Retrieve: one strongly consistent GetItem. */
export async function bareRetrieve(merchantId: string, paymentId: string): Promise<void> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.payment(merchantId, paymentId), ConsistentRead: true }),
  );
  if (!out.Item) throw new Error(`payment ${paymentId} not found`);
}

/**
 * Confirm: GetItem, then the claim — one TransactWriteItems of the conditional update
 * (RequiresConfirmation → Processing, version + 1, `pending_operation`) and its `payment.processing`
 * event — then the outcome — one TransactWriteItems of the conditional update recording a successful
 * authorization (→ Succeeded, captured, operation released) and its `payment.succeeded` event — as
 * `confirmPayment` does around the connector call.
 * @throws when the payment is not RequiresConfirmation (a condition fails)
 */
export async function bareConfirm(merchantId: string, paymentId: string): Promise<void> {
  const client = documentClient();
  const key = primaryKey.payment(merchantId, paymentId);
  const read = await client.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  const item = read.Item;
  if (!item) throw new Error(`payment ${paymentId} not found`);
  const version = Number(item.version);
  const claimedAt = new Date().toISOString();
  const connector = String(item.connector ?? 'sandbox');
  const claim = startPendingOperation('authorize', connector, paymentId, Number(item.amount));
  const open = openIndexKeys(paymentId, claim.lease_expires_at);
  // The payment as its events carry it (its public fields, as the handler's events do), once claimed.
  const claimed = {
    ...publicFields(item),
    status: 'Processing',
    payment_method: 'card',
    payment_method_data: { card: BENCH_CARD_SUMMARY },
    connector,
    merchant_connector_id: null,
    payment_method_id: null,
    updated_at: claimedAt,
  };
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: key,
            UpdateExpression:
              'SET #version = :next, #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #f5 = :f5, #f6 = :f6, #f7 = :f7, #pending = :pending, #g5pk = :g5pk, #g5sk = :g5sk, #openSince = :openSince, #checks = :zero',
            ConditionExpression:
              'attribute_exists(PK) AND #version = :expected AND #status IN (:s0) AND attribute_not_exists(pending_operation)',
            ExpressionAttributeNames: {
              '#version': 'version',
              '#status': 'status',
              '#pending': 'pending_operation',
              '#f0': 'status',
              '#f1': 'payment_method',
              '#f2': 'payment_method_data',
              '#f3': 'updated_at',
              '#f4': 'GSI2PK',
              '#f5': 'connector',
              '#f6': 'merchant_connector_id',
              '#f7': 'payment_method_id',
              '#g5pk': 'GSI5PK',
              '#g5sk': 'GSI5SK',
              '#openSince': 'open_since',
              '#checks': 'reconcile_checks',
            },
            ExpressionAttributeValues: {
              ':expected': version,
              ':next': version + 1,
              ':s0': 'RequiresConfirmation',
              ':f0': 'Processing',
              ':f1': 'card',
              ':f2': { card: BENCH_CARD_SUMMARY },
              ':f3': claimedAt,
              ':f4': listPartition.paymentsByStatus(merchantId, 'Processing'),
              // The routing decision the handler records with its claim (connector, account, saved method).
              ':f5': connector,
              ':f6': null,
              ':f7': null,
              // As the handler stores them (shared/storage/payments-repository.ts): the claim as an object and the
              // payment in the open-operations index (GSI5) until its outcome is recorded.
              ':pending': claim,
              ':g5pk': open.GSI5PK,
              ':g5sk': open.GSI5SK,
              ':openSince': claim.started_at,
              ':zero': 0,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        eventPut(merchantId, 'payment.processing', { ...claimed, pending_operation: claim }),
      ],
    }),
  );
  const next = version + 1;
  const transactionId = `sbx_${paymentId.slice(4)}`;
  const settledAt = new Date().toISOString();
  // The attempt the handler appends to `attempts` when it records the outcome (shared/domain/payment.ts).
  const attempt = {
    attempt_id: newId('attempt'),
    connector,
    merchant_connector_id: null,
    status: 'Succeeded',
    connector_transaction_id: transactionId,
    error_code: null,
    error_message: null,
    created_at: settledAt,
  };
  const attempts = [...((item.attempts as unknown[] | undefined) ?? []), attempt];
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: key,
            UpdateExpression:
              'SET #version = :next, #f0 = :f0, #f1 = :f1, #f2 = :f2, #f3 = :f3, #f4 = :f4, #f5 = :f5, #f6 = :f6, #f7 = :f7, #f8 = :f8, #f9 = :f9, #f10 = :f10 REMOVE pending_operation, GSI5PK, GSI5SK, open_since, reconcile_checks',
            ConditionExpression: 'attribute_exists(PK) AND #version = :expected',
            ExpressionAttributeNames: {
              '#version': 'version',
              '#f0': 'status',
              '#f1': 'connector_transaction_id',
              '#f2': 'amount_captured',
              '#f3': 'next_action',
              '#f4': 'error_code',
              '#f5': 'error_message',
              '#f6': 'updated_at',
              '#f7': 'GSI2PK',
              '#f8': 'connector',
              '#f9': 'merchant_connector_id',
              '#f10': 'attempts',
            },
            ExpressionAttributeValues: {
              ':expected': next,
              ':next': next + 1,
              ':f0': 'Succeeded',
              ':f1': transactionId,
              ':f2': Number(item.amount),
              ':f3': null,
              ':f4': null,
              ':f5': null,
              ':f6': settledAt,
              ':f7': listPartition.paymentsByStatus(merchantId, 'Succeeded'),
              ':f8': connector,
              ':f9': null,
              ':f10': attempts,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        eventPut(merchantId, 'payment.succeeded', {
          ...claimed,
          status: 'Succeeded',
          amount_captured: Number(item.amount),
          connector_transaction_id: transactionId,
          attempts,
          updated_at: settledAt,
        }),
      ],
    }),
  );
}

/**
 * Refund: GetItem of the payment, one TransactWriteItems (reserve the amount on
 * the payment under the "stays within the captured amount" condition + put the
 * Pending refund + its `refund.created` event), then one TransactWriteItems settling the refund with
 * its `refund.succeeded` event, as `refundPayment` does with a connector that accepts at once.
 */
export async function bareRefund(merchantId: string, paymentId: string, amount: number): Promise<void> {
  const client = documentClient();
  const read = await client.send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.payment(merchantId, paymentId), ConsistentRead: true }),
  );
  const item = read.Item;
  if (!item) throw new Error(`payment ${paymentId} not found`);
  const now = new Date().toISOString();
  const refund: Refund = {
    refund_id: newId('refund'),
    payment_id: paymentId,
    amount,
    currency: item.currency as Refund['currency'],
    status: 'Pending',
    pending_operation: null,
    reason: null,
    connector: item.connector as string,
    merchant_connector_id: (item.merchant_connector_id as string | null | undefined) ?? null,
    connector_refund_id: null,
    error_code: null,
    error_message: null,
    created_at: now,
    updated_at: now,
  };
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: primaryKey.payment(merchantId, paymentId),
            UpdateExpression: 'SET amount_refunded = amount_refunded + :amount, updated_at = :now, version = version + :one',
            ConditionExpression: 'attribute_exists(PK) AND #status = :succeeded AND amount_refunded <= :max',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':amount': amount,
              ':now': now,
              ':one': 1,
              ':succeeded': 'Succeeded',
              ':max': Number(item.amount_captured) - amount,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: refundItem(merchantId, refund, startPendingOperation('refund', refund.connector, refund.refund_id, amount)),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        eventPut(merchantId, 'refund.created', { ...refund }),
      ],
    }),
  );
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: primaryKey.refund(merchantId, refund.refund_id),
            // As refunds-repository.ts settles it: out of the open-operations index (GSI5), the claim released.
            UpdateExpression:
              'SET #status = :status, connector_refund_id = :cref, error_code = :ecode, error_message = :emsg, updated_at = :now REMOVE GSI5PK, GSI5SK, open_since, pending_operation, reconcile_checks',
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':status': 'Succeeded',
              ':cref': `sbx_re_${refund.refund_id.slice(4)}`,
              ':ecode': null,
              ':emsg': null,
              ':pending': 'Pending',
              ':now': new Date().toISOString(),
            },
          },
        },
        eventPut(merchantId, 'refund.succeeded', { ...refund, status: 'Succeeded' }),
      ],
    }),
  );
}

/** List: one Query on GSI1 (the merchant's payments, newest first), Limit 21 for a page of 20 plus `has_more`. */
export async function bareList(merchantId: string): Promise<void> {
  await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'GSI1PK' },
      ExpressionAttributeValues: { ':pk': listPartition.payments(merchantId) },
      ScanIndexForward: false,
      Limit: 21,
    }),
  );
}

/** Settings of a {@link runBare} measurement. */
export interface BareRunOptions {
  /** Parallel loops (each awaits its call before starting the next). */
  concurrency: number;
  durationMs: number;
  /** Stop early after this many calls (e.g. when fresh payments run out). */
  maxCalls?: number;
}

/** The outcome of a {@link runBare} measurement. */
export interface BareRunResult {
  calls: number;
  callsPerSecond: number;
  /** Over successful calls, in ms. */
  p50: number;
  p99: number;
  errors: number;
  firstError?: string;
}

/**
 * Runs `operation(i)` for i = 0, 1, 2, … from `concurrency` loops until the time
 * is up (or `maxCalls` is reached) and measures each call's latency.
 */
export async function runBare(operation: (i: number) => Promise<unknown>, options: BareRunOptions): Promise<BareRunResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline && (options.maxCalls === undefined || next < options.maxCalls)) {
      const i = next++;
      const t0 = performance.now();
      try {
        await operation(i);
        latencies.push(performance.now() - t0);
      } catch (err) {
        errors += 1;
        firstError ??= `${(err as Error).name}: ${(err as Error).message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  return {
    calls: latencies.length + errors,
    callsPerSecond: (latencies.length + errors) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
