/**
 * Saved payment methods (docs/api.md "Saved payment methods"): a customer's list, one method,
 * and detaching one — at its processor first where the processor has a call for it (Paystack
 * `POST /customer/deactivate_authorization`, Stripe `POST /v1/payment_methods/{id}/detach`; Flutterwave
 * has none: the token is forgotten on our side only), then here (`payment_method.detached`, the token
 * destroyed). A customer delete detaches its customer's methods the same way
 * ({@link detachPaymentMethodsOfCustomer}, shared/operations/customers/customer-deletion.ts).
 *
 * The processor's token is decrypted in memory only, for the detach call; it is never logged, stored in
 * clear or answered.
 */
import { ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import { INVALID_CREDENTIALS_CODE } from '../../connectors/connector-http';
import { ApiError, invalidRequest, resourceNotFound, storageUnavailableAfterPartialWork } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { PaymentMethodResource } from '../../domain/payment-method';
import { logger } from '../../observability/logger';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { RoutedConnector } from '../../processor-call/connector-target';
import { getCustomer } from '../../storage/customers-repository';
import {
  detachPaymentMethod,
  getStoredPaymentMethod,
  listCustomerPaymentMethods,
  type StoredPaymentMethod,
} from '../../storage/payment-methods-repository';
import { ConditionFailedError, isStorageUnavailable } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { openToken } from './token-vault';

/** The operation label of the processor's detach call in `ConnectorCalls` and `ConnectorLatency`. */
export const DETACH_OPERATION = 'detach_saved_method';

/** How many of a customer's methods a customer delete detaches at once (each may call a processor). */
export const DETACH_CONCURRENCY = 4;

/** Methods a customer delete reads per page of the customer's list. */
const DETACH_PAGE = 100;

/** What an operation here needs of its request: the merchant, and the time processor calls must end by. */
export type DetachContext = Pick<RequestContext, 'merchantId' | 'deadlineMs'>;

/**
 * What happened at the processor before a method was detached here:
 * - `detached`: the processor made the token unusable;
 * - `refused`: the processor refused the call (its 4xx: the token already deactivated, detached or unknown
 *   there); nothing usable is left there to detach;
 * - `not_supported`: the processor has no such call (Flutterwave): forgotten here only;
 * - `no_account`: the merchant connector account that issued the token was deleted (its credentials are
 *   gone): the processor cannot be called for it any more;
 * - `no_token`: no token is kept for the method.
 */
export type ProcessorDetachOutcome = 'detached' | 'refused' | 'not_supported' | 'no_account' | 'no_token';

/** 404 for a payment method id in the path that is not one of the merchant's. */
const methodNotFound = () => resourceNotFound('payment method', 'payment_method_id');

/**
 * 409 `payment_method_unexpected_state`: the method is already detached (by an earlier DELETE, a
 * concurrent one, or its customer's delete).
 */
export function paymentMethodAlreadyDetached(): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'payment_method_unexpected_state',
    'This payment method is already detached (status detached): it can no longer be charged and there is nothing left to delete.',
  );
}

/**
 * 503 `connector_unreachable`: the processor did not answer the detach (a timeout, a 5xx, no connection).
 * Nothing was changed here; the processor may or may not have acted, and a retry settles it either way.
 */
function processorUnreachable(connector: string): ApiError {
  return new ApiError(
    503,
    'connector_error',
    'connector_unreachable',
    `The processor (${connector}) could not be reached to detach this payment method; the method is still attached. Retry the DELETE shortly.`,
  ).asTransient();
}

/** 502 `connector_unavailable`: the processor refused the connector account's key; nothing was changed. */
function accountKeyRefused(connector: string, merchantConnectorId: string | null): ApiError {
  const account = merchantConnectorId
    ? `connector account ${merchantConnectorId}: update its key (PUT /connector_accounts/${merchantConnectorId})`
    : "the stage's own account";
  return new ApiError(
    502,
    'connector_error',
    'connector_unavailable',
    `${connector} refused the key of ${account}, so this payment method could not be detached there; the method is still attached. Retry once the key works.`,
  );
}

/**
 * One page of a customer's attached payment methods, newest first (`created_at`, then id), with the
 * list parameters every list takes (docs/api.md "Lists"). Detached methods are not listed.
 * @throws ApiError 404 `resource_missing` when the customer is not one of the merchant's (or was deleted);
 *   400 `resource_missing` for a `starting_after` that is not a payment method of this customer
 */
export async function listPaymentMethodsOfCustomer(
  merchantId: string,
  customerId: string,
  query: ListQuery,
): Promise<ListPage<PaymentMethodResource>> {
  const customer = isIdOf('customer', customerId) ? await getCustomer(merchantId, customerId) : undefined;
  if (!customer) throw resourceNotFound('customer', 'customer_id');
  const cursorId = query.startingAfter;
  if (cursorId === undefined) return listCustomerPaymentMethods(merchantId, customerId, query);
  const cursor = isIdOf('paymentMethod', cursorId) ? await getStoredPaymentMethod(merchantId, cursorId) : undefined;
  if (!cursor || cursor.method.customer_id !== customerId) {
    throw invalidRequest(
      'resource_missing',
      "No such payment method for starting_after: it must be a payment method id from a previous page of this customer's list.",
      'starting_after',
    );
  }
  return pageAfter(merchantId, customerId, query, cursor.method);
}

/** Whether `m` sorts after `cursor` in a list newest first (`created_at`, then id, both descending). */
const isBelow = (m: PaymentMethodResource, cursor: PaymentMethodResource) =>
  m.created_at < cursor.created_at || (m.created_at === cursor.created_at && m.payment_method_id < cursor.payment_method_id);

/**
 * The page after `cursor`: the list read up to the cursor's millisecond (`created[lte]`, with the
 * caller's own range), the cursor and whatever shares its millisecond above it dropped; read again with
 * a larger page in the rare case more items share that millisecond than the first read allowed for.
 * (The repository's list takes no start key; with one this would be a single Query.)
 */
async function pageAfter(
  merchantId: string,
  customerId: string,
  query: ListQuery,
  cursor: PaymentMethodResource,
): Promise<ListPage<PaymentMethodResource>> {
  const lte = query.created?.lte !== undefined && query.created.lte < cursor.created_at ? query.created.lte : cursor.created_at;
  const created = { ...(query.created ?? {}), lte };
  for (let extra = 1; ; extra *= 2) {
    const page = await listCustomerPaymentMethods(merchantId, customerId, { limit: query.limit + extra, created });
    const rest = page.data.filter((m) => isBelow(m, cursor));
    if (rest.length > query.limit) return { data: rest.slice(0, query.limit), has_more: true };
    if (!page.has_more) return { data: rest, has_more: false };
    // Everything after a full page sorts below its last item, which is below the cursor.
    if (rest.length === query.limit) return { data: rest, has_more: true };
  }
}

/**
 * One saved payment method of the merchant, attached or detached.
 * @throws ApiError 404 `resource_missing` when it is not one of the merchant's
 */
export async function retrievePaymentMethod(merchantId: string, paymentMethodId: string): Promise<PaymentMethodResource> {
  const stored = isIdOf('paymentMethod', paymentMethodId) ? await getStoredPaymentMethod(merchantId, paymentMethodId) : undefined;
  if (!stored) throw methodNotFound();
  return stored.method;
}

/**
 * `DELETE /payment_methods/{id}`: detaches an attached method, at its processor first
 * ({@link detachAtProcessor}), then here ({@link detachPaymentMethod}: `status: detached`, out of its
 * customer's list, its token destroyed, `payment_method.detached`).
 * @returns the method after the change (`status: detached`)
 * @throws ApiError 404 when it is not one of the merchant's; 409 `payment_method_unexpected_state` when
 *   already detached; 503 `connector_unreachable` when the processor did not answer (nothing changed
 *   here); 502 `connector_unavailable` when the processor refused the account's key or the stage's
 *   connector is not configured (nothing changed); 503 `service_unavailable` when storage failed (saying
 *   whether the processor had already detached it)
 */
export async function deletePaymentMethod(ctx: DetachContext, paymentMethodId: string): Promise<PaymentMethodResource> {
  const stored = isIdOf('paymentMethod', paymentMethodId) ? await getStoredPaymentMethod(ctx.merchantId, paymentMethodId) : undefined;
  if (!stored) throw methodNotFound();
  if (stored.method.status !== 'active') throw paymentMethodAlreadyDetached();
  return detachStoredMethod(ctx, stored);
}

/**
 * Detaches one attached method: at the processor, then here.
 * @returns the method after the change
 * @throws as {@link deletePaymentMethod} (but for the 404)
 */
export async function detachStoredMethod(ctx: DetachContext, stored: StoredPaymentMethod): Promise<PaymentMethodResource> {
  const outcome = await detachAtProcessor(ctx, stored);
  try {
    return await detachPaymentMethod(ctx.merchantId, stored, new Date().toISOString());
  } catch (err) {
    if (err instanceof ConditionFailedError) throw paymentMethodAlreadyDetached();
    // Only a processor that detached the token makes this partial work; otherwise nothing changed anywhere.
    if (outcome !== 'detached') throw err;
    if (isStorageUnavailable(err)) {
      throw storageUnavailableAfterPartialWork(
        // The write may have landed with its answer lost: "may", never "is still attached".
        `${stored.method.connector} detached this payment method, but recording it here failed: it may still show as attached.`,
        'Retry the DELETE shortly to finish it (the processor will answer that it is already detached).',
      );
    }
    const reasons = (err as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if ((err as { name?: string }).name === 'TransactionCanceledException' && reasons?.some((r) => r.Code === 'TransactionConflict')) {
      throw new ApiError(
        409,
        'api_error',
        'concurrent_update',
        `${stored.method.connector} detached this payment method, but another request changed it here at the same moment. Retry the DELETE to finish it.`,
      ).asTransient();
    }
    throw err;
  }
}

/**
 * Makes a saved method's token unusable at its processor, through the connector account that issued it
 * (`connectorForTarget`: the account's adapter, or the stage's own account of the connector when
 * `merchant_connector_id` is null), with the token decrypted for this call only (`openToken`, bound to the
 * merchant and the account). The call runs within the request's budget (`callWithinBudget`: counted in
 * `ConnectorCalls` as `detach_saved_method`).
 * @returns what happened there ({@link ProcessorDetachOutcome})
 * @throws ApiError 503 `connector_unreachable` on a technical failure (outcome unknown: the method stays
 *   attached; a retry settles it); 502 `connector_unavailable` when the processor refuses the account's key,
 *   or the stage's own connector is not configured
 * @throws CredentialDecryptionError when the stored token does not decrypt for this merchant and account
 */
export async function detachAtProcessor(ctx: DetachContext, stored: StoredPaymentMethod): Promise<ProcessorDetachOutcome> {
  const m = stored.method;
  if (!stored.tokenCiphertext) return 'no_token';
  let routed: RoutedConnector;
  try {
    routed = await connectorForTarget(ctx.merchantId, m.connector, m.merchant_connector_id);
  } catch (err) {
    // A deleted account's credentials are destroyed: no call can ever be made for its tokens.
    if (m.merchant_connector_id !== null && err instanceof ApiError && err.code === 'connector_unavailable') return 'no_account';
    throw err;
  }
  const adapter = routed.adapter;
  if (!adapter.detachSavedMethod) return 'not_supported';
  const token = await openToken(stored.tokenCiphertext, {
    merchantId: ctx.merchantId,
    merchantConnectorId: m.merchant_connector_id,
    connector: m.connector,
  });
  try {
    await callWithinBudget(ctx, routed, DETACH_OPERATION, () =>
      adapter.detachSavedMethod!({ token, processorCustomerId: stored.processorCustomerId, email: stored.tokenEmail }),
    );
    return 'detached';
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      if (err.code === INVALID_CREDENTIALS_CODE) throw accountKeyRefused(m.connector, m.merchant_connector_id);
      logger.info('the processor refused to detach a saved payment method (already detached or unknown there); detached here', {
        connector: m.connector,
        merchant_connector_id: m.merchant_connector_id,
        payment_method_id: m.payment_method_id,
        code: err.code,
      });
      return 'refused';
    }
    if (err instanceof ConnectorTechnicalError) throw processorUnreachable(m.connector);
    throw err;
  }
}

/** What a customer delete's pass over the customer's methods did. */
export interface CustomerMethodsDetach {
  /** Methods detached by this pass. */
  detached: number;
  /** Whether none was left attached (false: a processor failed, or the time was up; a later pass finishes). */
  complete: boolean;
}

/**
 * Part of a customer delete (shared/operations/customers/customer-deletion.ts): detaches every attached method of
 * the customer, at its processor and here, {@link DETACH_CONCURRENCY} at a time, page after page of the
 * customer's list (newest first), until `deadlineMs`. A method whose detach fails (the processor unreachable or refusing
 * the account's key, any error but storage) is left attached and makes the pass incomplete: the delete
 * stays open and a retried DELETE or the reconciler's next pass detaches it. Each listed method is read
 * again (consistent read) before it is detached, so a method the index still lists after its detach is
 * skipped.
 * @param deadlineMs epoch ms after which no page is started, and by which processor calls must end
 * @throws storage errors (the delete stays open)
 */
export async function detachPaymentMethodsOfCustomer(
  merchantId: string,
  customerId: string,
  deadlineMs: number,
): Promise<CustomerMethodsDetach> {
  const ctx: DetachContext = { merchantId, deadlineMs };
  let detached = 0;
  let kept = 0;
  // Keyset paging (the next page starts below the last method listed), so methods detached meanwhile
  // never shift a page onto one not seen yet.
  let last: PaymentMethodResource | undefined;
  for (;;) {
    if (Date.now() > deadlineMs) return { detached, complete: false };
    const query = { limit: DETACH_PAGE };
    const page = last
      ? await pageAfter(merchantId, customerId, query, last)
      : await listCustomerPaymentMethods(merchantId, customerId, query);
    const queue = [...page.data];
    const worker = async () => {
      for (let listed = queue.shift(); listed; listed = queue.shift()) {
        const outcome = await detachForCustomerDelete(ctx, listed);
        if (outcome === 'detached') detached += 1;
        if (outcome === 'kept') kept += 1;
      }
    };
    await Promise.all(Array.from({ length: DETACH_CONCURRENCY }, worker));
    last = page.data.at(-1);
    if (!page.has_more || !last) return { detached, complete: kept === 0 };
  }
}

/** One method of a customer being deleted: `detached` now, `gone` (already detached), or `kept` (failed; retried later). */
async function detachForCustomerDelete(ctx: DetachContext, listed: PaymentMethodResource): Promise<'detached' | 'gone' | 'kept'> {
  const stored = await getStoredPaymentMethod(ctx.merchantId, listed.payment_method_id);
  if (!stored || stored.method.status !== 'active') return 'gone';
  try {
    await detachStoredMethod(ctx, stored);
    return 'detached';
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payment_method_unexpected_state') return 'gone';
    if (isStorageUnavailable(err)) throw err;
    logger.warn('a saved payment method of a customer being deleted was not detached; the delete stays open and retries it', {
      payment_method_id: listed.payment_method_id,
      connector: listed.connector,
      merchant_connector_id: listed.merchant_connector_id,
      error: err instanceof ApiError ? err.code : (err as Error).name,
    });
    return 'kept';
  }
}
