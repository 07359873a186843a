import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CUSTOMER_FIELDS, type Customer, type CustomerFields } from '../domain/customer';
import type { ListPage, ListQuery } from '../domain/list-query';
import { nextCheckAt } from '../settings/reconcile-settings';
import { documentClient } from './client';
import { conditionalDelete, conditionalTransaction, conditionalUpdate } from './conditional-write';
import { eventWrite } from './events-repository';
import { listPartition, listSortKey, openIndexKeys, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage, pickFields } from './list-items';
import { type ListShards, SINGLE_LIST_SHARD, shardCount, shardOf, shardPartition } from './list-shards';
import { orderedMap, storableMap } from './storable-map';
import { tableName } from './table-definition';

const toCustomer = (item: Record<string, unknown>): Customer => {
  const customer = pickFields<Customer>(item, CUSTOMER_FIELDS);
  customer.metadata = orderedMap(customer.metadata);
  return customer;
};

const emailIndexKeys = (merchantId: string, c: Pick<Customer, 'email' | 'created_at' | 'customer_id'>) =>
  c.email ? { GSI2PK: listPartition.customersByEmail(merchantId, c.email), GSI2SK: listSortKey(c.created_at, c.customer_id) } : {};

/**
 * Writes a new customer and its `customer.created` event, in one transaction (the outbox).
 * Its GSI1 entry (all customers) goes to list shard `shardOf(customer_id, shards.write)`; the e-mail
 * index (GSI2, one partition per address) is not sharded.
 * @param shards the merchant's list shard counts (the request's); default one shard
 */
export async function createCustomer(merchantId: string, input: Customer, shards: ListShards = SINGLE_LIST_SHARD): Promise<Customer> {
  const customer = { ...input, metadata: orderedMap(input.metadata) };
  const writeShards = shardCount(shards.write);
  const out = await conditionalTransaction([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...primaryKey.customer(merchantId, customer.customer_id),
          GSI1PK: shardPartition(listPartition.customers(merchantId), shardOf(customer.customer_id, writeShards)),
          GSI1SK: listSortKey(customer.created_at, customer.customer_id),
          ...emailIndexKeys(merchantId, customer),
          entity: 'customer',
          merchant_id: merchantId,
          ...(writeShards > 1 ? { list_shards: writeShards } : {}),
          ...customer,
          metadata: storableMap(customer.metadata),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    eventWrite(merchantId, 'customer.created', customer, customer.created_at, writeShards).put,
  ]);
  if (!out.written) throw out.error;
  return customer;
}

/** One read of a customer; undefined when it does not exist for this merchant or is being deleted. */
export async function getCustomer(merchantId: string, customerId: string): Promise<Customer | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.customer(merchantId, customerId), ConsistentRead: true }),
  );
  return out.Item && !out.Item.deleting_since ? toCustomer(out.Item) : undefined;
}

/** Attempts of a customer update that lost its optimistic condition to a concurrent update. */
const UPDATE_ATTEMPTS = 3;

/**
 * Sets the given fields on an existing customer (`metadata` replaces the whole map),
 * keeps the e-mail index in step, and writes `customer.updated` with the customer after
 * the change — one read, then one transaction conditional on the customer not having
 * changed since the read (retried on a concurrent update).
 * @param eventShards how many list shards `customer.updated` is spread over (the request's `write` count); default 1
 * @returns the customer after the write, or undefined when it does not exist (or is being deleted)
 */
export async function updateCustomer(
  merchantId: string,
  customerId: string,
  fields: CustomerFields,
  eventShards = 1,
): Promise<Customer | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const before = await getCustomer(merchantId, customerId);
    if (!before) return undefined;
    const names: Record<string, string> = { '#updatedAt': 'updated_at' };
    const values: Record<string, unknown> = { ':readAt': before.updated_at };
    const sets: string[] = [];
    const now = new Date().toISOString();
    const all: Record<string, unknown> = {
      ...fields,
      ...(fields.metadata ? { metadata: storableMap(fields.metadata) } : {}),
      updated_at: now,
    };
    if (fields.email) all.GSI2PK = listPartition.customersByEmail(merchantId, fields.email);
    Object.entries(all).forEach(([k, v], i) => {
      if (v === undefined) return;
      names[`#f${i}`] = k;
      values[`:f${i}`] = v;
      sets.push(`#f${i} = :f${i}`);
    });
    const after: Customer = { ...before };
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) (after as unknown as Record<string, unknown>)[k] = v;
    after.metadata = orderedMap(after.metadata);
    after.updated_at = now;
    const out = await conditionalTransaction([
      {
        Update: {
          TableName: tableName(),
          Key: primaryKey.customer(merchantId, customerId),
          // The e-mail index shares the list sort key (created_at#id): copy it from GSI1SK.
          UpdateExpression: `SET ${sets.join(', ')}${fields.email ? ', GSI2SK = GSI1SK' : ''}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting_since) AND #updatedAt = :readAt',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      eventWrite(merchantId, 'customer.updated', after, now, eventShards).put,
    ]);
    if (out.written) return after;
    // Lost to a concurrent update: read again and retry, up to UPDATE_ATTEMPTS.
    if (!out.conditionFailed[0] || attempt >= UPDATE_ATTEMPTS) throw out.error;
  }
}

/** Where a customer delete stands, as {@link markCustomerDeleting} found it. */
export type CustomerDeleteState = 'missing' | 'deleting' | 'unlinked';

/**
 * First step of a customer delete: marks the customer as being deleted (one
 * conditional update). From then on it is gone for the API (reads, lists, updates
 * and new payments refuse it) while its payments are unlinked; the mark is an open
 * operation (GSI5), so the reconciler finishes a delete that was interrupted.
 * A customer already marked stays marked (a retried DELETE resumes the unlink).
 * @returns `deleting` when the customer is marked (now or before) and its unlink not yet
 *   complete; `unlinked` when a DELETE already completed (the record only waits for the
 *   reconciler's last pass); `missing` when it does not exist
 * @param eventShards how many list shards `customer.deleted` is spread over (the request's `write` count); default 1
 */
export async function markCustomerDeleting(merchantId: string, customerId: string, eventShards = 1): Promise<CustomerDeleteState> {
  const now = new Date().toISOString();
  const open = openIndexKeys(customerId, nextCheckAt(0));
  const mark = {
    TableName: tableName(),
    Key: primaryKey.customer(merchantId, customerId),
    UpdateExpression:
      'SET deleting_since = if_not_exists(deleting_since, :now), open_since = if_not_exists(open_since, :now), GSI5PK = :openPk, GSI5SK = :openSk REMOVE GSI1PK, GSI1SK, GSI2PK, GSI2SK',
    ExpressionAttributeValues: { ':now': now, ':openPk': open.GSI5PK, ':openSk': open.GSI5SK },
  };
  // The first DELETE: the mark and `customer.deleted` in one transaction (the outbox).
  const out = await conditionalTransaction([
    {
      Update: {
        ...mark,
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting_since)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    eventWrite(merchantId, 'customer.deleted', { customer_id: customerId, deleted: true }, now, eventShards).put,
  ]);
  if (out.written) return 'deleting';
  if (!out.conditionFailed[0]) throw out.error;
  const old = out.current[0];
  if (!old) return 'missing';
  if (old.unlinked_at) return 'unlinked';
  return 'deleting'; // a retried DELETE resumes the unlink; its event was written by the first
}

/**
 * Notes that a DELETE unlinked every payment it could see: from then on a DELETE answers
 * 404 like for any deleted customer, and only the reconciler's last pass (for payments
 * the customer index had not shown yet) and the removal of the record remain.
 */
export async function markCustomerUnlinked(merchantId: string, customerId: string): Promise<void> {
  // Refused by its condition: the customer is gone already.
  await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.customer(merchantId, customerId),
    UpdateExpression: 'SET unlinked_at = :now',
    ConditionExpression: 'attribute_exists(deleting_since)',
    ExpressionAttributeValues: { ':now': new Date().toISOString() },
  });
}

/**
 * Last step of a customer delete: removes the marked customer item (conditional on the mark).
 * @returns true when it was removed now, false when it was already gone
 */
export async function removeDeletedCustomer(merchantId: string, customerId: string): Promise<boolean> {
  const out = await conditionalDelete({
    TableName: tableName(),
    Key: primaryKey.customer(merchantId, customerId),
    ConditionExpression: 'attribute_exists(deleting_since)',
  });
  return out.written;
}

/**
 * Lists a merchant's customers, newest first: Query on GSI1 (one per shard 0..readShards−1, in
 * parallel, merged by `created_at#id`), or on GSI2 for an exact, case-insensitive e-mail filter
 * (one partition per address: not sharded).
 * @param startingAfter the customer named by `starting_after`, already read by the caller
 * @param readShards the merchant's list shard `read` count (the request's); default 1
 */
export async function listCustomers(
  merchantId: string,
  query: ListQuery,
  filters: { email?: string },
  startingAfter?: Customer,
  readShards = 1,
): Promise<ListPage<Customer>> {
  const location: ListLocation = filters.email
    ? { indexName: 'GSI2', partitionValue: listPartition.customersByEmail(merchantId, filters.email) }
    : { indexName: 'GSI1', partitionValue: listPartition.customers(merchantId), readShards };
  const after =
    startingAfter &&
    cursorOf(primaryKey.customer(merchantId, startingAfter.customer_id), startingAfter.created_at, startingAfter.customer_id);
  return listPage({ ...location, startAfter: after }, query, toCustomer);
}
