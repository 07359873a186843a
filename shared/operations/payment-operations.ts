import { connectorByName, routeCandidates } from '../routing/routing';
import { ConnectorRequestError, ConnectorTechnicalError, type Connector, type PaymentResult } from '../connectors/connector';
import { summarizeCard, type CardDetails, type CardSummary } from '../domain/card';
import { cardFingerprint, idempotentId } from '../security/keyed-hash';
import { ApiError, idempotencyKeyInUse, idempotencyKeyReused, invalidRequest, resourceNotFound, unexpectedState } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import type { ListPage, ListQuery } from '../domain/list-query';
import type { Attempt, Payment, PaymentMethod } from '../domain/payment';
import { ALLOWED_FROM, canApply, type PaymentOperation, type PaymentStatus } from '../domain/payment-status';
import type { CreatePaymentBody, ConfirmPaymentBody } from '../schemas/payment-schemas';
import {
  createPayment as storeNewPayment,
  getPayment as readPayment,
  listPayments as queryPayments,
  updatePayment,
  type StoredPayment,
} from '../storage/payments-repository';
import { ConditionFailedError, ItemExistsError, LinkedCustomerMissingError } from '../storage/storage-errors';
import { getCustomer } from '../storage/customers-repository';
import { recordPaymentCreated, recordPaymentOutcome, timedConnectorCall } from '../observability/metrics';

/** Per-request facts an operation may need that do not come from the body. */
export interface RequestContext {
  merchantId: string;
  /** Public base URL of the API, for redirect URLs. */
  publicBaseUrl: string;
  /** The request's `Idempotency-Key`, when sent: created resources take ids derived from it. */
  idempotencyKey?: string;
}

/**
 * Reads a payment of the merchant.
 * @throws ApiError 404 when the id is malformed or no such payment exists for this merchant
 */
export async function loadPayment(merchantId: string, paymentId: string): Promise<StoredPayment> {
  const stored = isIdOf('payment', paymentId) ? await readPayment(merchantId, paymentId) : undefined;
  if (!stored) throw resourceNotFound('payment', paymentId, 'payment_id');
  return stored;
}

function conflict(operation: PaymentOperation, err: ConditionFailedError<StoredPayment>): ApiError {
  const current = err.current;
  if (current && current.pendingOperation) {
    return new ApiError(
      409,
      'invalid_request_error',
      'payment_unexpected_state',
      `This payment has status ${current.payment.status} and another ${current.pendingOperation} request is in progress on it; retrieve it and retry if still needed.`,
    );
  }
  return unexpectedState(operation, current?.payment.status ?? 'unknown', ALLOWED_FROM[operation]);
}

/** The storable summary of a card (last4, brand, expiry, keyed fingerprint): never the PAN or CVC. */
async function cardSummary(card: CardDetails): Promise<{ card: CardSummary }> {
  return { card: summarizeCard(card, await cardFingerprint(card.card_number)) };
}

/** Fields of a payment that a connector result sets (status, transaction id, captured amount, next action, error). */
export function resultFields(result: PaymentResult, payment: Payment): Partial<Payment> {
  return {
    status: result.status,
    connector_transaction_id: result.connectorTransactionId ?? payment.connector_transaction_id,
    amount_captured: payment.amount_captured + result.amountCaptured,
    next_action: result.nextAction ?? null,
    error_code: result.errorCode ?? null,
    error_message: result.errorMessage ?? null,
  };
}

/** One attempt record for the payment's `attempts`. */
export function attemptOf(connector: string, startedAt: string, outcome: { status: PaymentStatus; connectorTransactionId?: string | null; errorCode?: string | null; errorMessage?: string | null }): Attempt {
  return {
    attempt_id: newId('attempt'),
    connector,
    status: outcome.status,
    connector_transaction_id: outcome.connectorTransactionId ?? null,
    error_code: outcome.errorCode ?? null,
    error_message: outcome.errorMessage ?? null,
    created_at: startedAt,
  };
}

/**
 * Runs a connector call for a claimed payment; if the connector fails or
 * refuses, the claim is released (so the payment is not stuck) and the failure
 * answers 502 `connector_error` with the processor's code.
 */
async function callOnClaim<T>(ctx: RequestContext, p: Payment, claimedVersion: number, operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await timedConnectorCall(p.connector, operation, call);
  } catch (err) {
    if (!(err instanceof ConnectorRequestError) && !(err instanceof ConnectorTechnicalError)) throw err;
    await updatePayment(ctx.merchantId, p.payment_id, { expectedVersion: claimedVersion }, {}, null);
    const code = err instanceof ConnectorRequestError ? err.code : 'connector_unreachable';
    throw new ApiError(502, 'connector_error', code, `${p.connector} could not ${operation} this payment: ${err.message} The payment is unchanged (${p.status}); retry the request.`);
  }
}

/** How many connectors one confirm may try: the routed one and, on a technical failure, the next one once. */
export const MAX_CONNECTOR_TRIES = 2;

/**
 * Runs the authorization of a payment already claimed (status `Processing`,
 * `pending_operation = confirm`) through routing, and records the outcome with a
 * conditional write on the claimed version:
 * - the routed connector answers (success, decline, pending) → that outcome;
 * - it fails technically (timeout, 5xx, network) → the next connector of the
 *   rule is tried once; if none is left, the payment stays `Processing`
 *   (released) with `error_code: connector_unreachable`, for a sync to settle;
 * - it refuses the request (processor 4xx) → `Failed` with the processor's code,
 *   answered as 502 `connector_error`.
 * Every try is appended to `attempts`.
 * @throws ApiError 502 `connector_error` when the processor refused the request
 */
async function authorizeClaimed(
  ctx: RequestContext,
  claimed: StoredPayment,
  paymentMethod: PaymentMethod,
  card: CardDetails | undefined,
  candidates: Connector[],
): Promise<Payment> {
  const p = claimed.payment;
  const attempts = [...(p.attempts ?? [])];
  // Mobile money is collected from the payer's phone: the linked customer's (E.164).
  const phone = paymentMethod === 'mobile_money' && p.customer_id ? ((await getCustomer(ctx.merchantId, p.customer_id))?.phone ?? null) : null;
  const finish = async (fields: Partial<Payment>) => {
    try {
      const done = await updatePayment(ctx.merchantId, p.payment_id, { expectedVersion: claimed.version }, { ...fields, attempts }, null);
      recordPaymentOutcome(done.payment);
      return done.payment;
    } catch (err) {
      // A sync took over this claim meanwhile (it looked stale): its answer stands.
      if (err instanceof ConditionFailedError) throw conflict('confirm', err);
      throw err;
    }
  };
  for (const [i, connector] of candidates.slice(0, MAX_CONNECTOR_TRIES).entries()) {
    const startedAt = new Date().toISOString();
    try {
      const result = await timedConnectorCall(connector.name, 'authorize', () =>
        connector.authorize({
          paymentId: p.payment_id,
          amount: p.amount,
          currency: p.currency,
          paymentMethod,
          captureMethod: p.capture_method,
          card,
          email: p.email,
          phone,
          publicBaseUrl: ctx.publicBaseUrl,
          returnUrl: `${ctx.publicBaseUrl}/sandbox/return/${p.payment_id}`,
        }),
      );
      attempts.push(attemptOf(connector.name, startedAt, result));
      return await finish({ ...resultFields(result, p), connector: connector.name });
    } catch (err) {
      if (err instanceof ConnectorRequestError) {
        attempts.push(attemptOf(connector.name, startedAt, { status: 'Failed', errorCode: err.code, errorMessage: err.message }));
        await finish({ status: 'Failed', connector: connector.name, error_code: err.code, error_message: err.message, next_action: null });
        throw new ApiError(502, 'connector_error', err.code, `${connector.name} refused the payment: ${err.message} The payment is Failed.`);
      }
      if (!(err instanceof ConnectorTechnicalError)) throw err;
      attempts.push(attemptOf(connector.name, startedAt, { status: 'Failed', errorCode: 'connector_unreachable', errorMessage: err.message }));
      const isLast = i + 1 >= Math.min(candidates.length, MAX_CONNECTOR_TRIES);
      if (isLast) {
        return finish({
          connector: connector.name,
          error_code: 'connector_unreachable',
          error_message: `${err.message} The payment stays Processing until a sync settles it.`,
        });
      }
    }
  }
  // Unreachable: routeCandidates never returns an empty list, and every try above returns or throws.
  throw new Error('authorizeClaimed ran out of connectors');
}

/**
 * A retried create (same `Idempotency-Key`) whose first attempt already wrote
 * the payment: answers that payment instead of creating and charging again.
 * A first attempt that died after its connector call is reconciled first.
 * @throws ApiError 422 when the retry asks for another amount or currency; 409 while the first still runs
 */
async function existingForRetry(ctx: RequestContext, wanted: Payment): Promise<Payment> {
  const existing = await loadPayment(ctx.merchantId, wanted.payment_id);
  const p = existing.payment;
  if (p.amount !== wanted.amount || p.currency !== wanted.currency) {
    throw idempotencyKeyReused();
  }
  if (claimInFlight(existing)) throw idempotencyKeyInUse();
  // Processing / RequiresAction: the first attempt may have reached the connector; reconcile before answering.
  return canApply('connector_update', p.status) ? syncPayment(ctx, p.payment_id) : p;
}

/**
 * Creates a payment intent; with `confirm: true` also confirms it before returning.
 * @returns the payment (status `RequiresConfirmation`, or the confirm outcome)
 * @throws ApiError 400 `resource_missing` (param `customer_id`) when the customer does not exist;
 *   400 `parameter_missing` (param `payment_method`) for `confirm: true` without a method
 */
export async function createPayment(ctx: RequestContext, body: CreatePaymentBody): Promise<Payment> {
  const paymentMethod: PaymentMethod | undefined = body.payment_method ?? (body.payment_method_data ? 'card' : undefined);
  if (body.confirm && !paymentMethod) {
    throw invalidRequest('parameter_missing', 'Missing required parameter: payment_method (needed when confirm is true).', 'payment_method');
  }
  if (body.customer_id !== undefined && !isIdOf('customer', body.customer_id)) {
    throw invalidRequest('resource_missing', `No such customer: '${body.customer_id}'.`, 'customer_id');
  }
  const candidates = await routeCandidates(body.currency, paymentMethod);
  const now = new Date().toISOString();
  const payment: Payment = {
    payment_id: ctx.idempotencyKey ? await idempotentId('pay', ctx.merchantId, 'payments', ctx.idempotencyKey) : newId('payment'),
    status: body.confirm ? 'Processing' : 'RequiresConfirmation',
    amount: body.amount,
    currency: body.currency,
    amount_captured: 0,
    amount_refunded: 0,
    capture_method: body.capture_method,
    payment_method: paymentMethod ?? null,
    payment_method_data: body.payment_method_data ? await cardSummary(body.payment_method_data.card) : null,
    connector: candidates[0].name,
    connector_transaction_id: null,
    customer_id: body.customer_id ?? null,
    description: body.description ?? null,
    email: body.email ?? null,
    metadata: body.metadata ?? {},
    billing: body.billing ?? null,
    next_action: null,
    cancellation_reason: null,
    error_code: null,
    error_message: null,
    attempts: [],
    created_at: now,
    updated_at: now,
  };
  let stored: StoredPayment;
  try {
    stored = await storeNewPayment(ctx.merchantId, payment, body.confirm ? 'confirm' : undefined);
  } catch (err) {
    if (err instanceof LinkedCustomerMissingError) {
      throw invalidRequest('resource_missing', `No such customer: '${err.customerId}'.`, 'customer_id');
    }
    if (err instanceof ItemExistsError) return existingForRetry(ctx, payment);
    throw err;
  }
  recordPaymentCreated(stored.payment);
  if (!body.confirm || !paymentMethod) return stored.payment;
  return authorizeClaimed(ctx, stored, paymentMethod, body.payment_method_data?.card, candidates);
}

/**
 * Confirms a payment created with `confirm: false`: claims it (`Processing`)
 * with a conditional write, calls the connector, records the outcome.
 * @throws ApiError 404 unknown payment; 409 `payment_unexpected_state` unless `RequiresConfirmation`
 *   (also when a concurrent confirm won the race); 400 when no payment method is known
 */
export async function confirmPayment(ctx: RequestContext, paymentId: string, body: ConfirmPaymentBody): Promise<Payment> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (!canApply('confirm', p.status)) throw unexpectedState('confirm', p.status, ALLOWED_FROM.confirm);
  const paymentMethod = body.payment_method ?? (body.payment_method_data ? 'card' : p.payment_method);
  if (!paymentMethod) {
    throw invalidRequest('parameter_missing', 'Missing required parameter: payment_method (the payment was created without one).', 'payment_method');
  }
  if (body.payment_method_data && paymentMethod !== 'card') {
    throw invalidRequest('parameter_invalid', 'payment_method_data holds a card, but the payment method is not card.', 'payment_method_data');
  }
  const candidates = await routeCandidates(p.currency, paymentMethod, p.connector);
  let claimed: StoredPayment;
  try {
    claimed = await updatePayment(
      ctx.merchantId,
      paymentId,
      { expectedVersion: stored.version, expectedStatuses: ['RequiresConfirmation'], requireNoPendingOperation: true },
      {
        status: 'Processing',
        payment_method: paymentMethod,
        payment_method_data: body.payment_method_data ? await cardSummary(body.payment_method_data.card) : p.payment_method_data,
      },
      'confirm',
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('confirm', err);
    throw err;
  }
  return authorizeClaimed(ctx, claimed, paymentMethod, body.payment_method_data?.card, candidates);
}

/**
 * Cancels a payment from `RequiresConfirmation`, `RequiresAction`, `Processing`
 * or `RequiresCapture`. Where the connector holds a transaction it is voided first.
 * @throws ApiError 404 unknown payment; 409 from any other status or when a concurrent operation won
 */
export async function cancelPayment(ctx: RequestContext, paymentId: string, reason: string | undefined): Promise<Payment> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (!canApply('cancel', p.status) || stored.pendingOperation) {
    if (stored.pendingOperation) throw conflict('cancel', new ConditionFailedError(stored));
    throw unexpectedState('cancel', p.status, ALLOWED_FROM.cancel);
  }
  const guard = { expectedVersion: stored.version, expectedStatuses: ALLOWED_FROM.cancel, requireNoPendingOperation: true };
  const cancelled = { status: 'Cancelled' as PaymentStatus, cancellation_reason: reason ?? null, next_action: null };
  if (!p.connector_transaction_id && p.attempts.length > 0) {
    // A connector was called but never answered: it may hold the charge. Cancelling here could lose it.
    throw new ApiError(
      409,
      'invalid_request_error',
      'payment_unexpected_state',
      `The outcome of this payment at ${p.connector} is unknown (status ${p.status}). Reconcile it first with GET /payments/${p.payment_id}?force_sync=true, then cancel or refund.`,
    );
  }
  try {
    if (!p.connector_transaction_id) {
      return (await updatePayment(ctx.merchantId, paymentId, guard, cancelled)).payment;
    }
    const claimed = await updatePayment(ctx.merchantId, paymentId, guard, {}, 'cancel');
    const connector = await connectorByName(p.connector);
    const transactionId = p.connector_transaction_id;
    const result = await callOnClaim(ctx, p, claimed.version, 'void', () =>
      connector.void({ paymentId: p.payment_id, connectorTransactionId: transactionId, currency: p.currency }),
    );
    const fields = result.status === 'Cancelled' ? cancelled : resultFields(result, p);
    return (await updatePayment(ctx.merchantId, paymentId, { expectedVersion: claimed.version }, fields, null)).payment;
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('cancel', err);
    throw err;
  }
}

/**
 * Captures a manual-capture payment (`RequiresCapture` → `Succeeded`).
 * @param amountToCapture minor units, at most the amount (default: the amount)
 * @throws ApiError 400 `amount_too_large` above the amount; 404; 409 unless `RequiresCapture`
 */
export async function capturePayment(ctx: RequestContext, paymentId: string, amountToCapture: number | undefined): Promise<Payment> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (!canApply('capture', p.status)) throw unexpectedState('capture', p.status, ALLOWED_FROM.capture);
  const amount = amountToCapture ?? p.amount;
  if (amount > p.amount) {
    throw invalidRequest('amount_too_large', `amount_to_capture (${amount}) cannot exceed the payment amount (${p.amount}).`, 'amount_to_capture');
  }
  try {
    const claimed = await updatePayment(
      ctx.merchantId,
      paymentId,
      { expectedVersion: stored.version, expectedStatuses: ['RequiresCapture'], requireNoPendingOperation: true },
      {},
      'capture',
    );
    const connector = await connectorByName(p.connector);
    const result = await callOnClaim(ctx, p, claimed.version, 'capture', () =>
      connector.capture({ paymentId: p.payment_id, connectorTransactionId: p.connector_transaction_id ?? '', amount, currency: p.currency }),
    );
    const done = await updatePayment(ctx.merchantId, paymentId, { expectedVersion: claimed.version }, resultFields(result, p), null);
    recordPaymentOutcome(done.payment);
    return done.payment;
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('capture', err);
    throw err;
  }
}

/**
 * Lists the merchant's payments, newest first.
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus },
): Promise<ListPage<Payment>> {
  let after: Payment | undefined;
  if (query.startingAfter) {
    after = isIdOf('payment', query.startingAfter) ? (await readPayment(merchantId, query.startingAfter))?.payment : undefined;
    if (!after) throw invalidRequest('resource_missing', `No such payment: '${query.startingAfter}' (starting_after must be a payment id from a previous page).`, 'starting_after');
  }
  return queryPayments(merchantId, query, filters, after);
}

/** A claim (`pending_operation`) older than this is from a crashed invocation: a sync may take over (Lambda's timeout is 29 s). */
export const STALE_CLAIM_MS = 60_000;

/**
 * Whether a connector call made under a claim may still be running: the payment
 * has a `pending_operation` younger than {@link STALE_CLAIM_MS}. An older claim is
 * from an invocation that died, and a sync, a webhook or a retry may take over.
 */
export function claimInFlight(stored: StoredPayment): boolean {
  return stored.pendingOperation !== null && Date.now() - Date.parse(stored.payment.updated_at) < STALE_CLAIM_MS;
}

/**
 * Reconciles a `Processing` or `RequiresAction` payment with its connector
 * (`GET /payments/{id}?force_sync=true`): asks the connector for the payment's
 * current state and applies it with a conditional write. Terminal statuses are
 * never changed; a payment whose connector call is still in flight (a fresh
 * claim) is returned as it is.
 * @returns the payment after reconciliation
 * @throws ApiError 404 unknown payment; 502 `connector_error` when the connector cannot be reached
 */
export async function syncPayment(ctx: RequestContext, paymentId: string): Promise<Payment> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (!canApply('connector_update', p.status)) return p;
  if (claimInFlight(stored)) return p;
  const connector = await connectorByName(p.connector);
  let result: PaymentResult;
  try {
    result = await timedConnectorCall(p.connector, 'sync', () =>
      connector.sync({
        paymentId: p.payment_id,
        connectorTransactionId: p.connector_transaction_id,
        amount: p.amount,
        currency: p.currency,
        paymentMethod: p.payment_method,
        captureMethod: p.capture_method,
        createdAt: p.created_at,
      }),
    );
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, 'connector_error', 'connector_unreachable', `Could not reach ${p.connector} to sync this payment; it keeps status ${p.status}. Retry later.`);
  }
  if (result.status === p.status && !stored.pendingOperation) return p;
  try {
    const fields = result.status === p.status ? {} : resultFields(result, p);
    const done = await updatePayment(
      ctx.merchantId,
      paymentId,
      { expectedVersion: stored.version, expectedStatuses: ALLOWED_FROM.connector_update },
      fields,
      null,
    );
    recordPaymentOutcome(done.payment);
    return done.payment;
  } catch (err) {
    // Someone else changed it meanwhile: their write wins; answer what is there now.
    if (err instanceof ConditionFailedError) return (await loadPayment(ctx.merchantId, paymentId)).payment;
    throw err;
  }
}
