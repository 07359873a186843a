import type { PaymentResult } from '../../connectors/connector';
import { maskOptionalText } from '../../domain/card-mask';
import { ApiError, unexpectedState } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Attempt, Payment } from '../../domain/payment';
import { ALLOWED_FROM, type PaymentOperation, type PaymentStatus } from '../../domain/payment-status';
import { CLAIM_LEASE_MARGIN_MS, type ClaimHolder, leaseActive } from '../../domain/pending-operation';
import { logger } from '../../observability/logger';
import { type ConnectorTarget, targetAccount, targetName } from '../../processor-call/connector-target';
import { keyedHash } from '../../security/keyed-hash';
import { handOverClaim, type StoredPayment } from '../../storage/payments-repository';
import { type ConditionFailedError, isStorageUnavailable } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { requestEndMs, storageRetryDeadline, untilStorageAnswers } from '../storage-retry';

/*
 * Reading a payment and expressing its changes: shared by the payment use cases
 * (create/confirm, capture/void, sync, webhooks, the reconciler).
 */

/**
 * The 409 for a conditional write that lost: another processor call is in flight on the
 * payment (a transient answer, never stored for Idempotency-Key replay), or its status is not
 * one the operation starts from.
 */
export function conflict(operation: PaymentOperation, err: ConditionFailedError<StoredPayment>): ApiError {
  const current = err.current;
  if (current?.pendingOperation) {
    return new ApiError(
      409,
      'invalid_request_error',
      'payment_unexpected_state',
      `This payment has status ${current.payment.status} and its ${current.pendingOperation.operation} at ${current.pendingOperation.connector} is not settled yet (see pending_operation); retrieve it and retry if still needed.`,
    ).asTransient();
  }
  return unexpectedState(operation, current?.payment.status ?? 'unknown', ALLOWED_FROM[operation]);
}

/**
 * Fields of a payment that a connector result sets (status, transaction id, captured amount, next action, error).
 * The processor's error code and message pass the card-number masker before they are stored.
 */
export function resultFields(result: PaymentResult, payment: Payment): Partial<Payment> & { status: PaymentStatus } {
  return {
    status: result.status,
    connector_transaction_id: result.connectorTransactionId ?? payment.connector_transaction_id,
    amount_captured: payment.amount_captured + result.amountCaptured,
    // A processor that answers "still waiting on the payer" without restating the step (a sync)
    // leaves the step the payer was asked for in place.
    next_action:
      result.nextAction ?? (result.status === 'RequiresAction' && payment.status === 'RequiresAction' ? payment.next_action : null),
    error_code: maskOptionalText(result.errorCode),
    error_message: maskOptionalText(result.errorMessage),
  };
}

/** The connector account a payment is on: its `connector` and `merchant_connector_id` (null: the stage's own account). */
export function targetOf(p: Pick<Payment, 'connector' | 'merchant_connector_id'>): ConnectorTarget {
  return { name: p.connector, merchantConnectorId: p.merchant_connector_id ?? null };
}

/** One attempt record for the payment's `attempts` (the processor's error code and message masked of card numbers). */
export function attemptOf(
  connector: string | ConnectorTarget,
  startedAt: string,
  outcome: { status: PaymentStatus; connectorTransactionId?: string | null; errorCode?: string | null; errorMessage?: string | null },
): Attempt {
  return {
    attempt_id: newId('attempt'),
    connector: targetName(connector),
    merchant_connector_id: targetAccount(connector),
    status: outcome.status,
    connector_transaction_id: outcome.connectorTransactionId ?? null,
    error_code: maskOptionalText(outcome.errorCode),
    error_message: maskOptionalText(outcome.errorMessage),
    created_at: startedAt,
  };
}

/**
 * Whether a processor call made under a claim may still be running: the payment
 * has a `pending_operation` whose lease has not expired. After the lease the
 * request that made the call has ended, and a sync, a webhook, a retry or the
 * reconciler may take over.
 */
export function claimInFlight(stored: StoredPayment): boolean {
  return stored.pendingOperation !== null && leaseActive(stored.pendingOperation);
}

/**
 * The keyed-request hash a request with an `Idempotency-Key` puts on the claims it makes
 * (`PendingOperation.request`, kept on the payment as `last_request`): a keyed hash (HMAC,
 * shared/security/keyed-hash.ts) of the merchant, the payment, the operation (with what must match for a
 * retry to be the same request, e.g. `capture:<amount>`) and the key. A retry with the same key computes the
 * same value and so recognises what its first attempt did, also after the claim was settled.
 * @param operation e.g. `confirm`, `capture:5000`, `cancel`
 * @returns undefined for a request without `Idempotency-Key`
 */
export async function requestToken(
  ctx: Pick<RequestContext, 'merchantId' | 'idempotencyKey'>,
  paymentId: string,
  operation: string,
): Promise<string | undefined> {
  if (ctx.idempotencyKey === undefined) return undefined;
  return keyedHash(`request:${ctx.merchantId}:${paymentId}:${operation}:${ctx.idempotencyKey}`);
}

/**
 * Who holds a claim a request makes now: the request's end (`requestEndMs`: the claim's lease ends
 * `CLAIM_LEASE_MARGIN_MS` after it) and, for a keyed request, its {@link requestToken}.
 */
export function claimHolderOf(ctx: Pick<RequestContext, 'deadlineMs'>, request?: string): ClaimHolder {
  return { holderEndMs: requestEndMs(ctx), ...(request ? { request } : {}) };
}

/**
 * What a request with an `Idempotency-Key` does when storage failed after its processor call, before it answers
 * `outcome_unknown` (docs/money-safety.md, "Convergence"): it hands its claim over (`handOverClaim`: the lease is cut to now +
 * `CLAIM_LEASE_MARGIN_MS`, the payment due then), trying until storage answers or its own time is up
 * (`untilStorageAnswers` until `storageRetryDeadline`). So the retry its answer invites (`Retry-After: 5`) finds
 * the claim free and reconciles the payment with the processor, instead of meeting `409` until the claim's
 * whole lease has passed; and the idempotency layer, which releases the request's record after this, finds
 * storage back too. A request without a key has no retry waiting on its claim: it does not wait (the reconciler
 * takes over when the lease ends); nor does a request whose failure is not a storage outage (a bug, a crash:
 * no further write).
 * @param claimed the payment as the request claimed it
 * @param cause the error of the failed write
 * @returns the payment as stored when the hand-over finds the outcome recorded after all (the failed write had
 *   been applied): the request answers it; undefined otherwise (the request answers `outcome_unknown`)
 */
export async function handOverAfterStorageFailure(
  ctx: Pick<RequestContext, 'merchantId' | 'idempotencyKey' | 'deadlineMs'>,
  claimed: StoredPayment,
  cause: unknown,
): Promise<Payment | undefined> {
  if (ctx.idempotencyKey === undefined || !isStorageUnavailable(cause) || !claimed.pendingOperation) return undefined;
  try {
    const result = await untilStorageAnswers(storageRetryDeadline(ctx), (signal) =>
      handOverClaim(ctx.merchantId, claimed, new Date(Date.now() + CLAIM_LEASE_MARGIN_MS).toISOString(), signal),
    );
    if (result.handedOver) return undefined;
    const current = result.current;
    // The claim is gone or another one: the outcome was recorded (by this request's write after all).
    if (current && current.pendingOperation?.started_at !== claimed.pendingOperation.started_at) return current.payment;
    return undefined;
  } catch (err) {
    logger.warn('claim could not be handed over before the answer; it is taken over when its lease ends', {
      payment_id: claimed.payment.payment_id,
      error: (err as Error).name,
    });
    return undefined;
  }
}
