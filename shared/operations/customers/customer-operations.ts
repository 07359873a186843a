/**
 * Customers: create, read, update, list. The delete, which detaches saved payment methods at their
 * processors, is in ./customer-deletion.ts, so these handlers load no connector code at cold start.
 */
import type { Customer, CustomerFields } from '../../domain/customer';
import { resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import {
  listCustomers as queryCustomers,
  getCustomer as readCustomer,
  createCustomer as storeCustomer,
  updateCustomer as writeCustomer,
} from '../../storage/customers-repository';
import type { ListShards } from '../../storage/list-shards';
import { clockTime } from '../billing/test-clocks';
import { cursorItem } from '../list-cursor';

/**
 * Creates a customer; every field optional.
 * @param shards the merchant's list shard counts (RequestContext.listShards); default one shard
 */
export async function createCustomer(merchantId: string, fields: CustomerFields, shards?: ListShards): Promise<Customer> {
  const now = new Date().toISOString();
  if (fields.test_clock !== undefined) await clockTime(merchantId, fields.test_clock);
  return storeCustomer(
    merchantId,
    {
      customer_id: newId('customer'),
      email: fields.email ?? null,
      name: fields.name ?? null,
      phone: fields.phone ?? null,
      description: fields.description ?? null,
      test_clock: fields.test_clock ?? null,
      metadata: fields.metadata ?? {},
      created_at: now,
      updated_at: now,
    },
    shards,
  );
}

/**
 * Reads a customer of the merchant.
 * @throws ApiError 404 when it does not exist (or was deleted)
 */
export async function getCustomer(merchantId: string, customerId: string): Promise<Customer> {
  const customer = isIdOf('customer', customerId) ? await readCustomer(merchantId, customerId) : undefined;
  if (!customer) throw resourceNotFound('customer', 'customer_id');
  return customer;
}

/**
 * Sets the given fields (metadata replaces the whole map).
 * @param shards the merchant's list shard counts (its event is spread over `write`); default one shard
 * @throws ApiError 404 when the customer does not exist
 */
export async function updateCustomer(
  merchantId: string,
  customerId: string,
  fields: CustomerFields,
  shards?: ListShards,
): Promise<Customer> {
  const customer = isIdOf('customer', customerId) ? await writeCustomer(merchantId, customerId, fields, shards?.write) : undefined;
  if (!customer) throw resourceNotFound('customer', 'customer_id');
  return customer;
}

/**
 * Lists customers, newest first, optionally by exact e-mail (case-insensitive).
 * @param readShards the merchant's list shard `read` count (RequestContext.listShards); default 1
 * @throws ApiError 400 `resource_missing` for an unknown `starting_after`
 */
export async function listCustomers(
  merchantId: string,
  query: ListQuery,
  filters: { email?: string },
  readShards = 1,
): Promise<ListPage<Customer>> {
  const after = await cursorItem(query, 'customer', { noun: 'customer', idPhrase: 'a customer id' }, (id) => readCustomer(merchantId, id));
  return queryCustomers(merchantId, query, filters, after, readShards);
}
