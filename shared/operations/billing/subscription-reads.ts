/**
 * Subscription and invoice reads and lists, apart from ./subscription-operations.ts (creation, changes,
 * billing), so the read handlers load no billing, saved-method or encryption code at cold start.
 */
import { invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Invoice, Subscription } from '../../domain/subscription';
import {
  getStoredSubscription,
  listInvoices as queryInvoices,
  listSubscriptions as querySubscriptions,
  getInvoice as readInvoice,
  type StoredSubscription,
} from '../../storage/subscriptions-repository';
import { cursorItem } from '../list-cursor';

/** Reads a subscription of the merchant. @throws ApiError 404 when it does not exist */
export async function getSubscription(merchantId: string, subscriptionId: string): Promise<Subscription> {
  return (await loadSubscription(merchantId, subscriptionId)).subscription;
}

/**
 * A subscription of the merchant with its stored version (what a conditional change needs).
 * @throws ApiError 404 when it does not exist
 */
export async function loadSubscription(merchantId: string, subscriptionId: string): Promise<StoredSubscription> {
  const stored = isIdOf('subscription', subscriptionId) ? await getStoredSubscription(merchantId, subscriptionId) : undefined;
  if (!stored) throw resourceNotFound('subscription', 'subscription_id');
  return stored;
}

/**
 * Lists subscriptions newest first, of one customer or in one status (not both).
 * @throws ApiError 400 `parameter_invalid` for both filters; `resource_missing` for an unknown `starting_after`
 */
export async function listSubscriptions(
  merchantId: string,
  query: ListQuery,
  filters: { customer_id?: string; status?: Subscription['status'] },
  readShards = 1,
): Promise<ListPage<Subscription>> {
  if (filters.customer_id && filters.status) {
    throw invalidRequest('parameter_invalid', 'Filter by customer_id or by status, not both.', 'status');
  }
  const after = await cursorItem(
    query,
    'subscription',
    { noun: 'subscription', idPhrase: 'a subscription id' },
    async (id) => (await getStoredSubscription(merchantId, id))?.subscription,
  );
  return querySubscriptions(merchantId, query, filters, after, readShards);
}

/** Reads an invoice of the merchant. @throws ApiError 404 when it does not exist */
export async function getInvoice(merchantId: string, invoiceId: string): Promise<Invoice> {
  const invoice = isIdOf('invoice', invoiceId) ? await readInvoice(merchantId, invoiceId) : undefined;
  if (!invoice) throw resourceNotFound('invoice', 'invoice_id');
  return invoice;
}

/**
 * Lists the invoices of one subscription, newest first.
 * @throws ApiError 400 `parameter_missing` without `subscription_id`; `resource_missing` for an unknown `starting_after`
 */
export async function listInvoices(merchantId: string, query: ListQuery, subscriptionId: string | undefined): Promise<ListPage<Invoice>> {
  if (!subscriptionId) throw invalidRequest('parameter_missing', 'Missing required parameter: subscription_id.', 'subscription_id');
  const after = await cursorItem(
    query,
    'invoice',
    { noun: 'invoice', idPhrase: 'an invoice id' },
    (id) => readInvoice(merchantId, id),
    (i) => i.subscription_id === subscriptionId,
  );
  if (!isIdOf('subscription', subscriptionId)) return { data: [], has_more: false };
  return queryInvoices(merchantId, subscriptionId, query, after);
}
