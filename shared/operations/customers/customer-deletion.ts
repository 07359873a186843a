/**
 * A customer's delete: marks it, cancels its subscriptions, detaches its saved payment methods at their
 * processors and unlinks its payments, within a budget; the reconciler finishes what is left.
 */
import { resourceNotFound, storageUnavailableAfterPartialWork } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { unlinkCustomerPayments } from '../../storage/customer-payment-links-repository';
import { markCustomerDeleting, markCustomerUnlinked, removeDeletedCustomer } from '../../storage/customers-repository';
import type { ListShards } from '../../storage/list-shards';
import { isStorageUnavailable } from '../../storage/storage-errors';
import { detachPaymentMethodsOfCustomer } from '../payment-methods/payment-method-operations';

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
  // Subscriptions first: canceled before their saved methods go, so none renews in between.
  // Billing is loaded by a delete only, not by every customer handler at cold start.
  const { cancelSubscriptionsOfCustomer } = await import('../billing/subscription-operations');
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
