import type { Customer, CustomerFields } from '../domain/customer';
import { invalidRequest, resourceNotFound } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import type { ListPage, ListQuery } from '../domain/list-query';
import {
  createCustomer as storeCustomer,
  deleteCustomer as removeCustomer,
  getCustomer as readCustomer,
  listCustomers as queryCustomers,
  updateCustomer as writeCustomer,
} from '../storage/customers-repository';
import { unlinkCustomerPayments } from '../storage/payments-repository';

/** Creates a customer; every field optional. */
export async function createCustomer(merchantId: string, fields: CustomerFields): Promise<Customer> {
  const now = new Date().toISOString();
  return storeCustomer(merchantId, {
    customer_id: newId('customer'),
    email: fields.email ?? null,
    name: fields.name ?? null,
    phone: fields.phone ?? null,
    description: fields.description ?? null,
    metadata: fields.metadata ?? {},
    created_at: now,
    updated_at: now,
  });
}

/**
 * Reads a customer of the merchant.
 * @throws ApiError 404 when it does not exist (or was deleted)
 */
export async function getCustomer(merchantId: string, customerId: string): Promise<Customer> {
  const customer = isIdOf('customer', customerId) ? await readCustomer(merchantId, customerId) : undefined;
  if (!customer) throw resourceNotFound('customer', customerId, 'customer_id');
  return customer;
}

/**
 * Sets the given fields (metadata replaces the whole map).
 * @throws ApiError 404 when the customer does not exist
 */
export async function updateCustomer(merchantId: string, customerId: string, fields: CustomerFields): Promise<Customer> {
  const customer = isIdOf('customer', customerId) ? await writeCustomer(merchantId, customerId, fields) : undefined;
  if (!customer) throw resourceNotFound('customer', customerId, 'customer_id');
  return customer;
}

/**
 * Deletes a customer permanently and unlinks its payments (they stay, with `customer_id: null`).
 * @returns `{customer_id, deleted: true}`
 * @throws ApiError 404 when the customer does not exist
 */
export async function deleteCustomer(merchantId: string, customerId: string): Promise<{ customer_id: string; deleted: true }> {
  const existed = isIdOf('customer', customerId) && (await removeCustomer(merchantId, customerId));
  if (!existed) throw resourceNotFound('customer', customerId, 'customer_id');
  await unlinkCustomerPayments(merchantId, customerId);
  return { customer_id: customerId, deleted: true };
}

/**
 * Lists customers, newest first, optionally by exact e-mail (case-insensitive).
 * @throws ApiError 400 `resource_missing` for an unknown `starting_after`
 */
export async function listCustomers(merchantId: string, query: ListQuery, filters: { email?: string }): Promise<ListPage<Customer>> {
  let after: Customer | undefined;
  if (query.startingAfter) {
    after = isIdOf('customer', query.startingAfter) ? await readCustomer(merchantId, query.startingAfter) : undefined;
    if (!after) throw invalidRequest('resource_missing', `No such customer: '${query.startingAfter}' (starting_after must be a customer id from a previous page).`, 'starting_after');
  }
  return queryCustomers(merchantId, query, filters, after);
}
