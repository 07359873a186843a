import { ConnectorRequestError, ConnectorTechnicalError, type PaymentResult } from '../../connectors/connector';
import { maskCardNumbers } from '../../domain/card-mask';
import { ApiError, invalidRequest, OutcomeUnknownError, unexpectedState } from '../../domain/errors';
import type { Payment } from '../../domain/payment';
import { ALLOWED_FROM, canApply, type PaymentStatus } from '../../domain/payment-status';
import { startPendingOperation } from '../../domain/pending-operation';
import { recordPaymentOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import { type StoredPayment, updatePayment } from '../../storage/payments-repository';
import { ConditionFailedError, isStorageUnavailable } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { loadPayment } from './load-payment';
import { settledFirst } from './payment-settled-first';
import { claimHolderOf, claimInFlight, conflict, handOverAfterStorageFailure, requestToken, resultFields, targetOf } from './payment-state';

/**
 * Runs a capture or void under its claim and records the outcome:
 * - the processor answers → the outcome write (claim released);
 * - it refuses (4xx) → the claim is released and 502 `connector_error` says nothing changed;
 * - it fails technically (timeout, 5xx, the request's budget) → the claim stays, with its lease
 *   (the processor may still be working on it), and the answer is 503 `outcome_unknown`: the
 *   processor may have acted; the reconciler finds out once the lease has ended;
 * - the outcome write fails → 503 `outcome_unknown` (the claim stays for the reconciler); a request with an
 *   `Idempotency-Key` first hands the claim over (`handOverAfterStorageFailure`), and answers the payment as
 *   stored when that shows the outcome recorded after all.
 */
async function runClaimed(
  ctx: RequestContext,
  claimed: StoredPayment,
  operation: 'capture' | 'void',
  call: () => Promise<PaymentResult>,
  fieldsOf: (result: PaymentResult) => Partial<Payment> & { status: PaymentStatus },
): Promise<Payment> {
  const p = claimed.payment;
  const unknown = (cause: unknown) => new OutcomeUnknownError('payment', p.payment_id, p.connector, `/payments/${p.payment_id}`, { cause });
  let result: PaymentResult;
  try {
    result = await callWithinBudget(ctx, targetOf(p), operation, call);
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      try {
        await updatePayment(ctx.merchantId, claimed, {}, { status: p.status }, null);
      } catch (releaseErr) {
        // The claim stays until its lease ends; the reconciler then finds nothing happened and releases it.
        if (!isStorageUnavailable(releaseErr) && !(releaseErr instanceof ConditionFailedError)) throw releaseErr;
      }
      throw new ApiError(
        502,
        'connector_error',
        maskCardNumbers(err.code),
        `${p.connector} refused to ${operation} this payment: ${maskCardNumbers(err.message)} Nothing was changed (${p.status}).`,
      );
    }
    if (!(err instanceof ConnectorTechnicalError)) throw err;
    // The claim keeps its lease: the processor may still be working on the call (its own
    // timeout can outlast ours); after the lease the reconciler asks it.
    throw unknown(err);
  }
  try {
    const done = await updatePayment(ctx.merchantId, claimed, {}, fieldsOf(result), null);
    recordPaymentOutcome(done.payment);
    return done.payment;
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict(operation === 'void' ? 'cancel' : 'capture', err);
    // Any other failure after the processor acted (storage, a transaction conflict, a bug) leaves the claim: unknown.
    const recorded = await handOverAfterStorageFailure(ctx, claimed, err);
    if (recorded) return recorded;
    throw unknown(err);
  }
}

/**
 * Cancels a payment from `RequiresConfirmation`, `RequiresAction`, `Processing`
 * or `RequiresCapture`. Where the connector holds a transaction it is voided first,
 * under a claim (`pending_operation` void) written before the call. A payment whose
 * authorization outcome is unknown is reconciled first; if it is still unknown the
 * cancel is refused (cancelling could lose a charge). A retry with the same `Idempotency-Key` of a cancel
 * whose void ended without its answer answers the payment (200) once reconciled, when that void was its own
 * first attempt (`last_request`).
 * @throws ApiError 404 unknown payment; 409 from any other status or when a concurrent operation won;
 *   502 when the connector is not configured or refuses
 * @throws OutcomeUnknownError when the void reached the processor and its outcome could not be recorded
 */
export async function cancelPayment(ctx: RequestContext, paymentId: string, reason: string | undefined): Promise<Payment> {
  const token = await requestToken(ctx, paymentId, 'cancel');
  const stored = await settledFirst(ctx, await loadPayment(ctx.merchantId, paymentId));
  const p = stored.payment;
  if (token !== undefined && stored.lastRequest === token && !claimInFlight(stored) && !canApply('cancel', p.status)) return p;
  if (stored.pendingOperation) throw conflict('cancel', new ConditionFailedError(stored));
  if (!canApply('cancel', p.status)) throw unexpectedState('cancel', p.status, ALLOWED_FROM.cancel);
  const guard = { expectedStatuses: ALLOWED_FROM.cancel, requireNoPendingOperation: true };
  const cancelled = { status: 'Cancelled' as PaymentStatus, cancellation_reason: reason ?? null, next_action: null };
  if (!p.connector_transaction_id && (p.attempts.length > 0 || p.status === 'Processing')) {
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
      return (await updatePayment(ctx.merchantId, stored, guard, cancelled)).payment;
    }
    const connector = await connectorForTarget(ctx.merchantId, p.connector, p.merchant_connector_id ?? null);
    const transactionId = p.connector_transaction_id;
    const claimed = await updatePayment(
      ctx.merchantId,
      stored,
      guard,
      {},
      startPendingOperation('void', targetOf(p), p.payment_id, p.amount, Date.now(), claimHolderOf(ctx, token)),
    );
    return await runClaimed(
      ctx,
      claimed,
      'void',
      () => connector.void({ paymentId: p.payment_id, connectorTransactionId: transactionId, currency: p.currency }),
      (result) => (result.status === 'Cancelled' ? cancelled : resultFields(result, p)),
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('cancel', err);
    throw err;
  }
}

/**
 * Captures a manual-capture payment (`RequiresCapture` → `Succeeded`), under a claim
 * (`pending_operation` capture with the amount) written before the processor call.
 * A previous capture or void whose outcome is unknown is reconciled first. A retry with the same
 * `Idempotency-Key` (and amount) of a capture that ended without its answer answers the payment (200) once
 * reconciled, when that capture was its own first attempt (`last_request`).
 * @param amountToCapture minor units, at most the amount (default: the amount)
 * @throws ApiError 400 `amount_too_large` above the amount; 404; 409 unless `RequiresCapture`;
 *   502 when the connector is not configured (nothing is claimed) or refuses
 * @throws OutcomeUnknownError when the capture reached the processor and its outcome could not be recorded
 */
export async function capturePayment(ctx: RequestContext, paymentId: string, amountToCapture: number | undefined): Promise<Payment> {
  const stored = await settledFirst(ctx, await loadPayment(ctx.merchantId, paymentId));
  const p = stored.payment;
  const amount = amountToCapture ?? p.amount;
  const token = await requestToken(ctx, paymentId, `capture:${amount}`);
  if (token !== undefined && stored.lastRequest === token && !claimInFlight(stored) && !canApply('capture', p.status)) return p;
  if (stored.pendingOperation) throw conflict('capture', new ConditionFailedError(stored));
  if (!canApply('capture', p.status)) throw unexpectedState('capture', p.status, ALLOWED_FROM.capture);
  if (amount > p.amount) {
    throw invalidRequest(
      'amount_too_large',
      `amount_to_capture (${amount}) cannot exceed the payment amount (${p.amount}).`,
      'amount_to_capture',
    );
  }
  const connector = await connectorForTarget(ctx.merchantId, p.connector, p.merchant_connector_id ?? null);
  try {
    const claimed = await updatePayment(
      ctx.merchantId,
      stored,
      { expectedStatuses: ['RequiresCapture'], requireNoPendingOperation: true },
      {},
      startPendingOperation('capture', targetOf(p), p.payment_id, amount, Date.now(), claimHolderOf(ctx, token)),
    );
    return await runClaimed(
      ctx,
      claimed,
      'capture',
      () =>
        connector.capture({
          paymentId: p.payment_id,
          connectorTransactionId: p.connector_transaction_id ?? '',
          amount,
          currency: p.currency,
        }),
      (result) => resultFields(result, p),
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('capture', err);
    throw err;
  }
}
