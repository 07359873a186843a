/**
 * Subscriptions and their invoices (docs/api.md "Subscriptions and invoices"): one item each. A subscription is listed on
 * GSI1 (all of a merchant's, sharded like customers), GSI2 (by status, sharded; the entry moves with the
 * status) and GSI3 (by customer, not sharded); an invoice on GSI1 under its subscription. Every change is
 * a conditional write (on the item's `updated_at` as read) in one transaction with its events (the outbox).
 *
 * A subscription with billing work ahead (a renewal, a retry, a charge to resume) also carries a sparse GSI5
 * entry sorted by when that work is due (`billingDue`, shared/storage/item-keys.ts): the merchant's own
 * partitions, or its test clock's. The reconciler's `OPEN#` partitions are not used for it (the reconciler
 * settles every due item it finds there).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import { INVOICE_FIELDS, type Invoice, SUBSCRIPTION_FIELDS, type Subscription } from '../domain/subscription';
import { documentClient } from './client';
import { conditionalTransaction } from './conditional-write';
import { type EventPut, eventWrite } from './events-repository';
import { billingDue, billingDueAtOf, listPartition, listSortKey, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage, pickFields } from './list-items';
import { shardCount, shardOf, shardPartition } from './list-shards';
import { orderedMap, storableMap } from './storable-map';
import { ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/** A subscription as stored: the resource, the list shard count it was created with, and when its billing work is next due. */
export interface StoredSubscription {
  subscription: Subscription;
  listShards: number;
  /** When its next billing work is due (ISO 8601 UTC, real or its test clock's), or null: none (incomplete, unpaid, canceled). */
  dueAt: string | null;
}

/** A change lost to a concurrent one (the item's `updated_at` was not the one read). */
export class SubscriptionChangedError extends Error {
  constructor() {
    super('The subscription or invoice changed since it was read.');
    this.name = 'SubscriptionChangedError';
  }
}

const toSubscription = (item: Record<string, unknown>): Subscription => {
  const s = pickFields<Subscription>(item, SUBSCRIPTION_FIELDS);
  s.metadata = orderedMap(s.metadata);
  return s;
};

const toInvoice = (item: Record<string, unknown>): Invoice => pickFields<Invoice>(item, INVOICE_FIELDS);

function subscriptionItem(merchantId: string, s: Subscription, listShards: number, dueAt: string | null): Record<string, unknown> {
  const k = shardOf(s.subscription_id, listShards);
  const sk = listSortKey(s.created_at, s.subscription_id);
  return {
    ...primaryKey.subscription(merchantId, s.subscription_id),
    GSI1PK: shardPartition(listPartition.subscriptions(merchantId), k),
    GSI1SK: sk,
    GSI2PK: shardPartition(listPartition.subscriptionsByStatus(merchantId, s.status), k),
    GSI2SK: sk,
    // Listed under its customer while it has one (a deleted customer's subscriptions leave the list).
    ...(s.customer_id ? { GSI3PK: listPartition.subscriptionsOfCustomer(merchantId, s.customer_id), GSI3SK: sk } : {}),
    ...(dueAt ? billingDue.keys(merchantId, s.subscription_id, dueAt, s.test_clock) : {}),
    entity: 'subscription',
    merchant_id: merchantId,
    ...(listShards > 1 ? { list_shards: listShards } : {}),
    ...s,
    metadata: storableMap(s.metadata),
  };
}

function invoiceItem(merchantId: string, i: Invoice, charging: string | null): Record<string, unknown> {
  return {
    ...primaryKey.invoice(merchantId, i.invoice_id),
    GSI1PK: listPartition.invoicesOfSubscription(merchantId, i.subscription_id),
    GSI1SK: listSortKey(i.created_at, i.invoice_id),
    entity: 'invoice',
    merchant_id: merchantId,
    ...(charging ? { charging_payment_id: charging } : {}),
    ...i,
  };
}

/**
 * An invoice as stored: the resource, and the try whose charge is in flight (`charging_payment_id`, internal, not in
 * the resource): written before the processor is called for the try, kept until the try's final outcome
 * (Succeeded, Failed, Cancelled) is applied to the invoice. A cancel never voids an invoice with a try in flight.
 */
export interface StoredInvoice {
  invoice: Invoice;
  /** The payment id of the try in flight, or null. */
  charging: string | null;
}

/** One write of a transaction: a new item (`readAt` undefined) or a replacement conditional on `updated_at`. */
function put(item: Record<string, unknown>, readAt: string | undefined) {
  return {
    Put: {
      TableName: tableName(),
      Item: item,
      ...(readAt === undefined
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : {
            ConditionExpression: 'attribute_exists(PK) AND updated_at = :readAt',
            ExpressionAttributeValues: { ':readAt': readAt },
          }),
    },
  };
}

/** A change to write: the subscription and/or an invoice after it, each with the `updated_at` read (undefined: new). */
export interface SubscriptionWrite {
  /** `dueAt`: when its next billing work is due (ISO 8601 UTC), or null for none; the write replaces the stored one. */
  subscription?: { after: Subscription; readAt: string | undefined; listShards: number; dueAt: string | null };
  /** `charging`: the try in flight the invoice item keeps ({@link StoredInvoice}); null for none. */
  invoice?: { after: Invoice; readAt: string | undefined; charging: string | null };
  /** The events, each with its data (the resource after the change). */
  events: { type: EventType; data: Subscription | Invoice }[];
}

/**
 * Writes a change in one transaction with its events (the outbox).
 * @throws ItemExistsError when a new item already exists (its id: a retried create); SubscriptionChangedError
 *   when an item changed since it was read
 */
export async function writeSubscriptionChange(merchantId: string, change: SubscriptionWrite): Promise<void> {
  const items: (ReturnType<typeof put> | EventPut)[] = [];
  const ids: string[] = [];
  const shards = change.subscription?.listShards ?? 1;
  if (change.subscription) {
    const { after, listShards, dueAt, readAt } = change.subscription;
    items.push(put(subscriptionItem(merchantId, after, listShards, dueAt), readAt));
    ids.push(change.subscription.after.subscription_id);
  }
  if (change.invoice) {
    items.push(put(invoiceItem(merchantId, change.invoice.after, change.invoice.charging), change.invoice.readAt));
    ids.push(change.invoice.after.invoice_id);
  }
  const now = new Date().toISOString();
  for (const e of change.events) items.push(eventWrite(merchantId, e.type, e.data, now, shards).put);
  const out = await conditionalTransaction(items);
  if (out.written) return;
  const failed = out.conditionFailed.indexOf(true);
  if (failed < 0 || failed >= ids.length) throw out.error;
  const wasNew = failed === 0 && change.subscription ? change.subscription.readAt === undefined : change.invoice?.readAt === undefined;
  if (wasNew) throw new ItemExistsError(ids[failed] ?? '');
  throw new SubscriptionChangedError();
}

/** One consistent read of a subscription; undefined when it does not exist for this merchant. */
export async function getStoredSubscription(merchantId: string, subscriptionId: string): Promise<StoredSubscription | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.subscription(merchantId, subscriptionId), ConsistentRead: true }),
  );
  return out.Item
    ? { subscription: toSubscription(out.Item), listShards: shardCount(out.Item.list_shards), dueAt: billingDueAtOf(out.Item) }
    : undefined;
}

/** One consistent read of an invoice; undefined when it does not exist for this merchant. */
export async function getInvoice(merchantId: string, invoiceId: string): Promise<Invoice | undefined> {
  return (await getStoredInvoice(merchantId, invoiceId))?.invoice;
}

/** One consistent read of an invoice with its try in flight ({@link StoredInvoice}); undefined when it does not exist. */
export async function getStoredInvoice(merchantId: string, invoiceId: string): Promise<StoredInvoice | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.invoice(merchantId, invoiceId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const charging = out.Item.charging_payment_id;
  return { invoice: toInvoice(out.Item), charging: typeof charging === 'string' ? charging : null };
}

/**
 * Lists subscriptions newest first: of one customer (GSI3), in one status (GSI2, every read shard), or all
 * (GSI1, every read shard). Never both filters (the caller refuses that).
 * @param startingAfter the subscription named by `starting_after`, already read by the caller
 */
export async function listSubscriptions(
  merchantId: string,
  query: ListQuery,
  filters: { customer_id?: string; status?: Subscription['status'] },
  startingAfter: Subscription | undefined,
  readShards = 1,
): Promise<ListPage<Subscription>> {
  const location: ListLocation = filters.customer_id
    ? { indexName: 'GSI3', partitionValue: listPartition.subscriptionsOfCustomer(merchantId, filters.customer_id) }
    : filters.status
      ? { indexName: 'GSI2', partitionValue: listPartition.subscriptionsByStatus(merchantId, filters.status), readShards }
      : { indexName: 'GSI1', partitionValue: listPartition.subscriptions(merchantId), readShards };
  const after =
    startingAfter &&
    cursorOf(primaryKey.subscription(merchantId, startingAfter.subscription_id), startingAfter.created_at, startingAfter.subscription_id);
  return listPage({ ...location, startAfter: after }, query, toSubscription);
}

/** Lists the invoices of one subscription, newest first (GSI1, one partition). */
export async function listInvoices(
  merchantId: string,
  subscriptionId: string,
  query: ListQuery,
  startingAfter: Invoice | undefined,
): Promise<ListPage<Invoice>> {
  const location: ListLocation = { indexName: 'GSI1', partitionValue: listPartition.invoicesOfSubscription(merchantId, subscriptionId) };
  const after =
    startingAfter && cursorOf(primaryKey.invoice(merchantId, startingAfter.invoice_id), startingAfter.created_at, startingAfter.invoice_id);
  return listPage({ ...location, startAfter: after }, query, toInvoice);
}
