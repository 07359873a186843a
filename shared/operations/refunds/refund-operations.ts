import { ConnectorRequestError, ConnectorTechnicalError, type RefundResult } from '../../connectors/connector';
import { maskCardNumbers, maskOptionalText } from '../../domain/card-mask';
import { ApiError, idempotencyKeyReused, invalidRequest, OutcomeUnknownError, unexpectedState } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { checkRefundAmount } from '../../domain/money';
import { ALLOWED_FROM, canApply } from '../../domain/payment-status';
import {
  CLAIM_LEASE_MARGIN_MS,
  leaseActive,
  type PendingOperation,
  startPendingOperation,
  viewPendingOperation,
} from '../../domain/pending-operation';
import type { Refund } from '../../domain/refund';
import { logger } from '../../observability/logger';
import { recordRefund, recordRefundOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import { idempotentId } from '../../security/keyed-hash';
import type { StoredPayment } from '../../storage/payments-repository';
import { releaseFailedRefund, reserveRefund } from '../../storage/refund-reservations-repository';
import { getStoredRefund, handOverRefundClaim, settleRefund } from '../../storage/refunds-repository';
import { ItemExistsError, isStorageUnavailable, RefundReservationError } from '../../storage/storage-errors';
import { loadPayment } from '../payments/load-payment';
import { claimHolderOf } from '../payments/payment-state';
import type { RequestContext } from '../request-context';
import { storageRetryDeadline, untilStorageAnswers } from '../storage-retry';
import { getRefund } from './refund-reads';
import { reconcileRefund } from './refund-sync';

export { getRefund };

/** The refund an idempotent retry finds: returned when the retry asks for the same amount (or none). */
function sameRefundOrConflict(existing: Refund, requested: number | undefined): Refund {
  if (requested !== undefined && existing.amount !== requested) {
    throw idempotencyKeyReused();
  }
  return existing;
}

/**
 * The refund a retry with the same `Idempotency-Key` finds, reconciled first when its first attempt ended without
 * recording the processor's answer and the claim is free (its lease ended, or was handed over): the retry then
 * answers what the processor did, not `Pending` with `outcome_unknown`. A refund whose processor cannot be asked
 * now is answered as stored.
 */
async function existingRefundForRetry(ctx: RequestContext, refundId: string, requested: number | undefined): Promise<Refund | undefined> {
  const stored = await getStoredRefund(ctx.merchantId, refundId);
  if (!stored) return undefined;
  const earlier = sameRefundOrConflict(stored.refund, requested);
  if (earlier.status !== 'Pending' || !stored.pendingOperation || leaseActive(stored.pendingOperation)) return earlier;
  try {
    return (await reconcileRefund(ctx, stored)).refund;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return earlier;
  }
}

/**
 * What a refund request with an `Idempotency-Key` does when storage failed after the processor answered,
 * before it answers `outcome_unknown` (the refund counterpart of `handOverAfterStorageFailure` in
 * payment-state.ts): hands the refund's claim over (`handOverRefundClaim`, lease cut to now +
 * `CLAIM_LEASE_MARGIN_MS`), trying until storage answers or the request's time is up, so its retry reconciles it
 * at once. A request without a key, or a failure that is not a storage outage, does not wait.
 * @returns the refund as stored when the hand-over finds it settled after all (the failed write had been
 *   applied): the request answers it; undefined otherwise
 */
async function handOverRefundAfterStorageFailure(
  ctx: RequestContext,
  refundId: string,
  claim: PendingOperation,
  cause: unknown,
): Promise<Refund | undefined> {
  if (ctx.idempotencyKey === undefined || !isStorageUnavailable(cause)) return undefined;
  try {
    const result = await untilStorageAnswers(storageRetryDeadline(ctx), (signal) =>
      handOverRefundClaim(ctx.merchantId, refundId, claim, new Date(Date.now() + CLAIM_LEASE_MARGIN_MS).toISOString(), signal),
    );
    if (result.handedOver) return undefined;
    return result.current && result.current.refund.status !== 'Pending' ? result.current.refund : undefined;
  } catch (err) {
    logger.warn('refund claim could not be handed over before the answer; it is taken over when its lease ends', {
      refund_id: refundId,
      error: (err as Error).name,
    });
    return undefined;
  }
}

function refundTooLarge(requested: number | undefined, refundable: number, currency: string, disputed = 0): Error {
  return refundable === 0
    ? invalidRequest(
        'refund_exceeds_amount',
        disputed > 0
          ? 'Nothing is left to refund on this payment: what was not refunded is withheld by a dispute (see its disputes and amount_disputed).'
          : 'This payment has already been refunded in full; nothing is left to refund.',
        'amount',
      )
    : invalidRequest(
        'refund_exceeds_amount',
        `Refund amount ${requested} exceeds what is left to refund on this payment: ${refundable} (${currency} minor units).`,
        'amount',
      );
}

/**
 * Refunds a `Succeeded` payment, fully or partly. The connector is resolved first
 * (an unconfigured one answers 502 and reserves nothing). The amount is reserved on
 * the payment and the refund written — with its pending `refund` operation — in one
 * transaction (so concurrent refunds cannot exceed the captured amount), then the
 * connector is called and the refund settled:
 * - succeeded / pending at the processor → recorded (pending keeps the processor's id for later);
 * - declined or refused → `Failed`, the reservation released;
 * - technical failure (timeout, 5xx, the request's budget) → the refund stays `Pending` with its
 *   `pending_operation` (`outcome_unknown` once the lease ends); the reconciler then finds it by our refund id;
 * - the settle write fails → 503 `outcome_unknown` (the same, without an answer); a request with an
 *   `Idempotency-Key` first hands the claim over, so its retry (same key: the same refund id) reconciles it at once.
 * @param requested minor units; undefined refunds all that is left
 * @returns the refund (`Succeeded`, `Pending` or `Failed`)
 * @throws ApiError 404 unknown payment; 409 unless `Succeeded`; 400 `refund_exceeds_amount`;
 *   502 `connector_unavailable` when the payment's connector is not configured
 * @throws OutcomeUnknownError when the processor was called and its answer could not be recorded
 *
 * Metrics: `Refunds`/`RefundedAmountMinor` as before, and one `RefundOutcomes` per processor call
 * (`succeeded`, `pending`, `failed` — declined or refused —, `unknown` — technical failure).
 */
export async function refundPayment(
  ctx: RequestContext,
  paymentId: string,
  requested: number | undefined,
  reason: string | undefined,
): Promise<Refund> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (!canApply('refund', p.status)) throw unexpectedState('refund', p.status, ALLOWED_FROM.refund);
  const refundId = ctx.idempotencyKey ? await idempotentId('ref', ctx.merchantId, p.payment_id, ctx.idempotencyKey) : newId('refund');
  if (ctx.idempotencyKey) {
    // A retry whose first attempt already reserved (and maybe made) this refund gets that refund back.
    const earlier = await existingRefundForRetry(ctx, refundId, requested);
    if (earlier) return earlier;
  }
  // Disputes withhold their money (docs/api.md "Money held by a dispute"): refundable is what was captured less what was refunded or disputed.
  const decision = checkRefundAmount(requested, p.amount_captured, p.amount_refunded + p.amount_disputed);
  if (!decision.ok) throw refundTooLarge(requested, decision.refundable, p.currency, p.amount_disputed);
  // Resolved before anything is reserved: a connector that is not configured leaves nothing behind.
  const connector = await connectorForTarget(ctx.merchantId, p.connector, p.merchant_connector_id ?? null);
  const now = new Date().toISOString();
  const refund: Refund = {
    refund_id: refundId,
    payment_id: p.payment_id,
    amount: decision.amount,
    currency: p.currency,
    status: 'Pending',
    pending_operation: null,
    reason: reason ?? null,
    connector: p.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    connector_refund_id: null,
    error_code: null,
    error_message: null,
    created_at: now,
    updated_at: now,
  };
  const claim = startPendingOperation('refund', connector, refundId, refund.amount, Date.parse(now), claimHolderOf(ctx));
  let disputed = p.amount_disputed;
  for (let tries = 1; ; tries += 1) {
    try {
      await reserveRefund(ctx.merchantId, refund, p.amount_captured, claim, ctx.listShards, disputed);
      break;
    } catch (err) {
      if (err instanceof ItemExistsError) return sameRefundOrConflict(await getRefund(ctx.merchantId, refund.refund_id), requested);
      if (err instanceof RefundReservationError) {
        const current = (err.current as StoredPayment | undefined)?.payment;
        if (current && current.status !== 'Succeeded') throw unexpectedState('refund', current.status, ALLOWED_FROM.refund);
        const left = current ? Math.max(0, current.amount_captured - current.amount_refunded - current.amount_disputed) : 0;
        // A dispute changed what it withholds since the read, and the refund still fits: reserve against the new value.
        if (current && current.amount_disputed !== disputed && decision.amount <= left && tries < 3) {
          disputed = current.amount_disputed;
          continue;
        }
        throw refundTooLarge(decision.amount, left, p.currency, current?.amount_disputed ?? 0);
      }
      throw err;
    }
  }
  const unknown = (cause: unknown) => new OutcomeUnknownError('refund', refundId, p.connector, `/refunds/${refundId}`, { cause });
  let result: RefundResult;
  try {
    result = await callWithinBudget(ctx, connector, 'refund', () =>
      connector.refund({
        paymentId: p.payment_id,
        connectorTransactionId: p.connector_transaction_id ?? '',
        amount: refund.amount,
        currency: refund.currency,
        refundId: refund.refund_id,
      }),
    );
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      recordRefundOutcome(p.connector, 'failed');
      try {
        await releaseFailedRefund(
          ctx.merchantId,
          refund,
          { code: maskCardNumbers(err.code), message: maskCardNumbers(err.message) },
          ctx.listShards?.write,
        );
      } catch (releaseErr) {
        // The refund stays Pending until its lease ends; the reconciler finds nothing at the processor and releases it.
        if (!isStorageUnavailable(releaseErr)) throw releaseErr;
      }
      throw new ApiError(
        502,
        'connector_error',
        maskCardNumbers(err.code),
        `${p.connector} refused the refund: ${maskCardNumbers(err.message)} Nothing was refunded.`,
      );
    }
    if (err instanceof ConnectorTechnicalError) {
      // Outcome unknown: the refund stays Pending (its amount reserved) with its claim and lease (the
      // processor may still be working on it); then the reconciler finds it at the processor.
      recordRefundOutcome(p.connector, 'unknown');
      recordRefund(refund);
      return { ...refund, pending_operation: viewPendingOperation(claim) };
    }
    throw err;
  }
  recordRefund(refund);
  recordRefundOutcome(p.connector, result.status === 'Succeeded' ? 'succeeded' : result.status === 'Failed' ? 'failed' : 'pending');
  try {
    if (result.status === 'Failed') {
      return await releaseFailedRefund(
        ctx.merchantId,
        refund,
        {
          code: maskCardNumbers(result.errorCode ?? 'refund_failed'),
          message: maskCardNumbers(result.errorMessage ?? 'The connector declined the refund.'),
        },
        ctx.listShards?.write,
      );
    }
    // Pending: the processor settles it later; its refund id is kept for the webhook or a sync.
    // A Pending answer may carry the processor's note (e.g. Paystack's needs-attention): the merchant sees it.
    return await settleRefund(
      ctx.merchantId,
      refund,
      result.status,
      result.connectorRefundId,
      { code: maskOptionalText(result.errorCode), message: maskOptionalText(result.errorMessage) },
      ctx.listShards?.write,
    );
  } catch (err) {
    // Any failure after the processor answered (storage, a transaction conflict, a bug) leaves the refund Pending: unknown.
    // A keyed request first hands the refund's claim over, so its retry need not wait for the whole lease.
    const recorded = await handOverRefundAfterStorageFailure(ctx, refundId, claim, err);
    if (recorded) return recorded;
    throw unknown(err);
  }
}
