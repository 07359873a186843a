import type { Customer, CustomerFields } from '../domain/customer';
import { invalidRequest, resourceNotFound, storageUnavailableAfterPartialWork } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import { cursorName, type ListPage, type ListQuery, listCursor } from '../domain/list-query';
import {
  markCustomerDeleting,
  markCustomerUnlinked,
  listCustomers as queryCustomers,
  getCustomer as readCustomer,
  removeDeletedCustomer,
  createCustomer as storeCustomer,
  updateCustomer as writeCustomer,
} from '../storage/customers-repository';
import type { ListShards } from '../storage/list-shards';
import { unlinkCustomerPayments } from '../storage/payments-repository';
import { isStorageUnavailable } from '../storage/storage-errors';
import { clockTime } from './billing/test-clocks';
import { detachPaymentMethodsOfCustomer } from './payment-methods/payment-method-operations';

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
 * Time a DELETE spends detaching the customer's saved payment methods and unlinking its payments before
 * it answers and leaves the rest to the reconciler: 10 000 ms (processor calls included: one still
 * running then is abandoned, its method left attached for the next pass).
 */
export const UNLINK_BUDGET_MS = 10_000;

/**
 * One pass of a customer delete's work: cancels and unlinks the customer's subscriptions
 * (`customer_deleted`), detaches the customer's saved payment methods (at their
 * processors, then here: shared/operations/payment-methods/payment-method-operations.ts), then unlinks its
 * payments, both until `deadlineMs`.
 * @returns whether nothing was left (no method attached, no payment linked, as far as the indexes show)
 * @throws storage errors
 */
async function releaseCustomer(merchantId: string, customerId: string, deadlineMs: number): Promise<boolean> {
  // Subscriptions first: canceled before their saved methods go, so none renews in between (issue 24).
  // Billing is loaded by a delete only, not by every customer handler (issue 27).
  const { cancelSubscriptionsOfCustomer } = await import('./billing/subscription-operations');
  const subscriptions = await cancelSubscriptionsOfCustomer(merchantId, customerId, deadlineMs);
  const methods = await detachPaymentMethodsOfCustomer(merchantId, customerId, deadlineMs);
  const payments = await unlinkCustomerPayments(merchantId, customerId, deadlineMs);
  return subscriptions && methods.complete && payments.complete;
}

/**
 * Deletes a customer, detaches its saved payment methods (each at its processor where the processor
 * has a call for it, then here: `payment_method.detached`) and unlinks its payments (they stay, with
 * `customer_id: null`).
 * Resumable: the customer is first marked as being deleted (gone for the API from that
 * moment, and an open operation for the reconciler), then its methods are detached and its
 * payments unlinked with bounded concurrency for at most {@link UNLINK_BUDGET_MS}. A DELETE
 * interrupted before that work completed (a fault, the budget, a processor that could not detach
 * a method) is resumed by a retried DELETE, which answers the same, or by the reconciler. Once it
 * completed, a DELETE answers 404 as for any deleted customer; the reconciler makes one last pass
 * (the customer indexes are eventually consistent) and removes the record.
 * @returns `{customer_id, deleted: true}`
 * @throws ApiError 404 when the customer does not exist (or its delete already completed); 503
 *   `service_unavailable` saying the delete began when storage failed after the mark
 */
export async function deleteCustomer(
  merchantId: string,
  customerId: string,
  shards?: ListShards,
): Promise<{ customer_id: string; deleted: true }> {
  const state = isIdOf('customer', customerId) ? await markCustomerDeleting(merchantId, customerId, shards?.write) : 'missing';
  if (state !== 'deleting') throw resourceNotFound('customer', 'customer_id');
  try {
    if (await releaseCustomer(merchantId, customerId, Date.now() + UNLINK_BUDGET_MS)) await markCustomerUnlinked(merchantId, customerId);
  } catch (err) {
    // The customer is already gone for the API: never "nothing was changed".
    if (!isStorageUnavailable(err)) throw err;
    throw storageUnavailableAfterPartialWork(
      'The delete of this customer began: it is already gone for the API, some of its payments may still show it and some of its saved payment methods may still be attached.',
      'Retry the DELETE shortly to finish it (it answers the same); otherwise the reconciler finishes it within minutes.',
    );
  }
  return { customer_id: customerId, deleted: true };
}

/**
 * The reconciler's step for a customer marked as being deleted: detaches whatever saved payment
 * methods are still attached and unlinks whatever payments are still linked (the customer indexes
 * are eventually consistent, so a payment or method written just before the mark is found here)
 * and, when none is left, removes the customer record.
 * @param deadlineMs epoch ms after which no new page is started, and by which processor calls must end
 * @returns `done` when the record was removed (or already gone), `pending` when methods or payments remain
 */
export async function finishCustomerDelete(merchantId: string, customerId: string, deadlineMs: number): Promise<'done' | 'pending'> {
  if (!(await releaseCustomer(merchantId, customerId, deadlineMs))) return 'pending';
  await removeDeletedCustomer(merchantId, customerId);
  return 'done';
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
  let after: Customer | undefined;
  const cursorId = listCursor(query);
  if (cursorId) {
    after = isIdOf('customer', cursorId) ? await readCustomer(merchantId, cursorId) : undefined;
    if (!after)
      throw invalidRequest(
        'resource_missing',
        `No such customer for ${cursorName(query)}: it must be a customer id from a previous page.`,
        cursorName(query),
      );
  }
  return queryCustomers(merchantId, query, filters, after, readShards);
}
