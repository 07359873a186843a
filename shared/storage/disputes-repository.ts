/**
 * Disputes: one item each (`<merchant>#DISPUTE#<dp_…>`), listed on GSI1 (all of a merchant's), GSI2 (by
 * status; the entry moves with it) and GSI3 (by payment). A dispute with work due (an answer whose outcome is not
 * known yet, its reminder, its deadline) carries a GSI5 entry in the merchant's own due partitions (`billingDue`),
 * worked by the scheduled worker beside renewals.
 *
 * Every change is one transaction: the dispute (a conditional put on its `updated_at`, or a new one that must not
 * exist), the payment (its `amount_disputed` and `disputes`, conditional on the payment's `version` as read, so a
 * refund reserved meanwhile makes the change read again) and the event (the outbox).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DISPUTE_FIELDS, type Dispute, type PaymentDispute } from '../domain/dispute';
import type { EventType } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import { documentClient } from './client';
import { conditionalTransaction, type TransactItems } from './conditional-write';
import { eventWrite } from './events-repository';
import { billingDue, billingDueAtOf, listPartition, listSortKey, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, pickFields, queryListPage } from './list-items';
import { tableName } from './table-definition';

/**
 * An answer to the processor in flight (accept, or evidence): written before the call, so a process that dies during
 * it, or a lost answer, is found and settled by reading the dispute back (the scheduled worker, at `dueAt`).
 */
export interface DisputeClaim {
  operation: 'accept' | 'evidence';
  /** For evidence: whether it was submitted (final) or only saved. */
  submit: boolean;
  /** ISO 8601 UTC. */
  started_at: string;
  /** ISO 8601 UTC: until when the request that holds it may still be running. */
  lease_expires_at: string;
}

/** A dispute as stored: the resource, its claim (an accept or evidence call in flight), and when its work is next due. */
export interface StoredDispute {
  dispute: Dispute;
  /** The merchant connector account or stage connector it is on (the key its id is derived from). */
  accountKey: string;
  claim: DisputeClaim | null;
  dueAt: string | null;
  /** Whether its `dispute.reminder` was sent. */
  reminded: boolean;
}

/** A dispute or payment changed since it was read. */
export class DisputeChangedError extends Error {
  constructor(readonly which: 'dispute' | 'payment') {
    super(`The ${which} changed since it was read.`);
    this.name = 'DisputeChangedError';
  }
}

const toDispute = (item: Record<string, unknown>): Dispute => {
  const d = pickFields<Dispute>(item, DISPUTE_FIELDS);
  d.evidence = (item.evidence as Dispute['evidence'] | undefined) ?? {};
  return d;
};

function toStored(item: Record<string, unknown>): StoredDispute {
  return {
    dispute: toDispute(item),
    accountKey: String(item.account_key ?? ''),
    claim: (item.answer_claim as DisputeClaim | undefined) ?? null,
    dueAt: billingDueAtOf(item),
    reminded: item.reminded === true,
  };
}

/** The change to write. */
export interface DisputeWrite {
  after: Dispute;
  accountKey: string;
  /** The `updated_at` read, or undefined for a new dispute. */
  readAt: string | undefined;
  claim: DisputeClaim | null;
  dueAt: string | null;
  reminded: boolean;
  /** The payment's change, when there is one: the version read and its dispute fields after. */
  payment?: { paymentId: string; version: number; amountDisputed: number; disputes: Record<string, PaymentDispute> };
  events: { type: EventType; data: Dispute }[];
}

/**
 * Writes a dispute change in one transaction (see the module comment).
 * @throws DisputeChangedError when the dispute (or, for `payment`, the payment) changed since it was read, or a new
 *   dispute exists already (`dispute`)
 */
export async function writeDisputeChange(merchantId: string, w: DisputeWrite): Promise<void> {
  const d = w.after;
  const sk = listSortKey(d.created_at, d.dispute_id);
  const item: Record<string, unknown> = {
    ...primaryKey.dispute(merchantId, d.dispute_id),
    GSI1PK: listPartition.disputes(merchantId),
    GSI1SK: sk,
    GSI2PK: listPartition.disputesByStatus(merchantId, d.dispute_status),
    GSI2SK: sk,
    GSI3PK: listPartition.disputesOfPayment(merchantId, d.payment_id),
    GSI3SK: sk,
    ...(w.dueAt ? billingDue.keys(merchantId, d.dispute_id, w.dueAt) : {}),
    entity: 'dispute',
    merchant_id: merchantId,
    account_key: w.accountKey,
    ...(w.claim ? { answer_claim: w.claim } : {}),
    ...(w.reminded ? { reminded: true } : {}),
    ...d,
  };
  const items: TransactItems = [
    {
      Put: {
        TableName: tableName(),
        Item: item,
        ...(w.readAt === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'attribute_exists(PK) AND updated_at = :readAt', ExpressionAttributeValues: { ':readAt': w.readAt } }),
      },
    },
  ];
  if (w.payment) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: primaryKey.payment(merchantId, w.payment.paymentId),
        UpdateExpression: 'SET amount_disputed = :disputed, disputes = :disputes, version = version + :one, updated_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND version = :version',
        ExpressionAttributeValues: {
          ':disputed': w.payment.amountDisputed,
          ':disputes': w.payment.disputes,
          ':one': 1,
          ':version': w.payment.version,
          ':now': d.updated_at,
        },
      },
    });
  }
  for (const e of w.events) items.push(eventWrite(merchantId, e.type, e.data, d.updated_at).put);
  const out = await conditionalTransaction(items);
  if (out.written) return;
  if (out.conditionFailed[0]) throw new DisputeChangedError('dispute');
  if (w.payment && out.conditionFailed[1]) throw new DisputeChangedError('payment');
  throw out.error;
}

/** One consistent read of a dispute; undefined when it does not exist for this merchant. */
export async function getStoredDispute(merchantId: string, disputeId: string): Promise<StoredDispute | undefined> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: primaryKey.dispute(merchantId, disputeId),
      ConsistentRead: true,
    }),
  );
  return out.Item ? toStored(out.Item) : undefined;
}

/**
 * Lists disputes newest first: of one payment (GSI3), in one status (GSI2), or all (GSI1); `created` bounds apply.
 * @param startingAfter the dispute named by `starting_after`, already read by the caller
 */
export async function listDisputes(
  merchantId: string,
  query: ListQuery,
  filters: { payment_id?: string; dispute_status?: Dispute['dispute_status'] },
  startingAfter: Dispute | undefined,
): Promise<ListPage<Dispute>> {
  const location: ListLocation = filters.payment_id
    ? { indexName: 'GSI3', partitionValue: listPartition.disputesOfPayment(merchantId, filters.payment_id) }
    : filters.dispute_status
      ? { indexName: 'GSI2', partitionValue: listPartition.disputesByStatus(merchantId, filters.dispute_status) }
      : { indexName: 'GSI1', partitionValue: listPartition.disputes(merchantId) };
  if (startingAfter)
    location.startAfter = cursorOf(
      primaryKey.dispute(merchantId, startingAfter.dispute_id),
      startingAfter.created_at,
      startingAfter.dispute_id,
    );
  const page = await queryListPage(location, query);
  let data = page.items.map(toDispute);
  // Both filters: the payment's few disputes, filtered by status here.
  if (filters.payment_id && filters.dispute_status) data = data.filter((d) => d.dispute_status === filters.dispute_status);
  return { data, has_more: page.hasMore };
}

/** Where the polling of one account's disputes got to (ISO 8601 UTC), or undefined when never polled. */
export async function getDisputePollCursor(accountKey: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.disputePollCursor(accountKey), ConsistentRead: true }),
  );
  return typeof out.Item?.since === 'string' ? out.Item.since : undefined;
}

/** Records where the polling of one account's disputes got to (one item per polled account, written once per run). */
export async function setDisputePollCursor(accountKey: string, since: string): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...primaryKey.disputePollCursor(accountKey), entity: 'dispute_poll_cursor', since } }),
  );
}
