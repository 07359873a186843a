import { connectorByName } from '../routing/routing';
import { ConnectorRequestError, ConnectorTechnicalError, type RefundResult } from '../connectors/connector';
import { ApiError, idempotencyKeyReused, invalidRequest, resourceNotFound, unexpectedState } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import type { ListPage, ListQuery } from '../domain/list-query';
import { checkRefundAmount } from '../domain/money';
import { ALLOWED_FROM, canApply } from '../domain/payment-status';
import type { Refund } from '../domain/refund';
import { releaseFailedRefund, reserveRefund, type StoredPayment } from '../storage/payments-repository';
import { getRefund as readRefund, listRefunds as queryRefunds, settleRefund } from '../storage/refunds-repository';
import { ItemExistsError, RefundReservationError } from '../storage/storage-errors';
import { idempotentId } from '../security/keyed-hash';
import { recordRefund, timedConnectorCall } from '../observability/metrics';
import { loadPayment, type RequestContext } from './payment-operations';

/** The refund an idempotent retry finds: returned when the retry asks for the same amount (or none). */
function sameRefundOrConflict(existing: Refund, requested: number | undefined): Refund {
  if (requested !== undefined && existing.amount !== requested) {
    throw idempotencyKeyReused();
  }
  return existing;
}

function refundTooLarge(requested: number | undefined, refundable: number, currency: string): Error {
  return refundable === 0
    ? invalidRequest('refund_exceeds_amount', 'This payment has already been refunded in full; nothing is left to refund.', 'amount')
    : invalidRequest(
        'refund_exceeds_amount',
        `Refund amount ${requested} exceeds what is left to refund on this payment: ${refundable} (${currency} minor units).`,
        'amount',
      );
}

/**
 * Refunds a `Succeeded` payment, fully or partly. The amount is reserved on the
 * payment and the refund written in one transaction (so concurrent refunds
 * cannot exceed the captured amount), then the connector is called and the
 * refund settled; a connector decline releases the reservation.
 * @param requested minor units; undefined refunds all that is left
 * @returns the refund (`Succeeded`, `Pending` or `Failed`)
 * @throws ApiError 404 unknown payment; 409 unless `Succeeded`; 400 `refund_exceeds_amount`
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
    const earlier = await readRefund(ctx.merchantId, refundId);
    if (earlier) return sameRefundOrConflict(earlier, requested);
  }
  const decision = checkRefundAmount(requested, p.amount_captured, p.amount_refunded);
  if (!decision.ok) throw refundTooLarge(requested, decision.refundable, p.currency);
  const now = new Date().toISOString();
  const refund: Refund = {
    refund_id: refundId,
    payment_id: p.payment_id,
    amount: decision.amount,
    currency: p.currency,
    status: 'Pending',
    reason: reason ?? null,
    connector: p.connector,
    connector_refund_id: null,
    error_code: null,
    error_message: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await reserveRefund(ctx.merchantId, refund, p.amount_captured);
  } catch (err) {
    if (err instanceof ItemExistsError) return sameRefundOrConflict(await getRefund(ctx.merchantId, refund.refund_id), requested);
    if (err instanceof RefundReservationError) {
      const current = (err.current as StoredPayment | undefined)?.payment;
      if (current && current.status !== 'Succeeded') throw unexpectedState('refund', current.status, ALLOWED_FROM.refund);
      const left = current ? Math.max(0, current.amount_captured - current.amount_refunded) : 0;
      throw refundTooLarge(decision.amount, left, p.currency);
    }
    throw err;
  }
  const connector = await connectorByName(p.connector);
  let result: RefundResult;
  try {
    result = await timedConnectorCall(p.connector, 'refund', () =>
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
      await releaseFailedRefund(ctx.merchantId, refund, { code: err.code, message: err.message });
      throw new ApiError(502, 'connector_error', err.code, `${p.connector} refused the refund: ${err.message} Nothing was refunded.`);
    }
    if (err instanceof ConnectorTechnicalError) {
      // Outcome unknown: the refund stays Pending (its amount reserved) until the connector's webhook or a sync settles it.
      recordRefund(refund);
      return refund;
    }
    throw err;
  }
  recordRefund(refund);
  if (result.status === 'Failed') {
    return releaseFailedRefund(ctx.merchantId, refund, {
      code: result.errorCode ?? 'refund_failed',
      message: result.errorMessage ?? 'The connector declined the refund.',
    });
  }
  if (result.status === 'Pending') {
    // The processor settles it later: keep its refund id for the webhook or a sync.
    return settleRefund(ctx.merchantId, refund.refund_id, 'Pending', result.connectorRefundId);
  }
  return settleRefund(ctx.merchantId, refund.refund_id, result.status, result.connectorRefundId);
}

/**
 * Reads a refund of the merchant.
 * @throws ApiError 404 when it does not exist for this merchant
 */
export async function getRefund(merchantId: string, refundId: string): Promise<Refund> {
  const refund = isIdOf('refund', refundId) ? await readRefund(merchantId, refundId) : undefined;
  if (!refund) throw resourceNotFound('refund', refundId, 'refund_id');
  return refund;
}

/**
 * Lists the refunds of one payment, newest first.
 * @throws ApiError 404 unknown payment; 400 `resource_missing` for an unknown `starting_after`
 */
export async function listRefunds(merchantId: string, paymentId: string, query: ListQuery): Promise<ListPage<Refund>> {
  await loadPayment(merchantId, paymentId);
  let after: Refund | undefined;
  if (query.startingAfter) {
    after = isIdOf('refund', query.startingAfter) ? await readRefund(merchantId, query.startingAfter) : undefined;
    if (!after || after.payment_id !== paymentId) {
      throw invalidRequest('resource_missing', `No such refund of this payment: '${query.startingAfter}'.`, 'starting_after');
    }
  }
  return queryRefunds(merchantId, paymentId, query, after);
}

/**
 * Reconciles a `Pending` refund with its connector (`GET /refunds/{id}?force_sync=true`):
 * `Succeeded` is recorded, `Failed` releases the reserved amount back to the
 * payment; anything else (or a refund whose processor id is unknown because the
 * refund call timed out) is returned unchanged.
 * @throws ApiError 404 unknown refund; 502 `connector_error` when the connector cannot be reached
 */
export async function syncRefund(merchantId: string, refundId: string): Promise<Refund> {
  const refund = await getRefund(merchantId, refundId);
  if (refund.status !== 'Pending' || !refund.connector_refund_id) return refund;
  const connector = await connectorByName(refund.connector);
  let result: RefundResult;
  try {
    const connectorRefundId = refund.connector_refund_id;
    result = await timedConnectorCall(refund.connector, 'sync_refund', () =>
      connector.syncRefund({ refundId: refund.refund_id, connectorRefundId, currency: refund.currency }),
    );
  } catch (err) {
    if (err instanceof ConnectorRequestError || err instanceof ConnectorTechnicalError) {
      throw new ApiError(502, 'connector_error', 'connector_unreachable', `Could not sync this refund with ${refund.connector}; it stays Pending. Retry later.`);
    }
    throw err;
  }
  if (result.status === 'Succeeded') return settleRefund(merchantId, refund.refund_id, 'Succeeded', result.connectorRefundId ?? refund.connector_refund_id);
  if (result.status === 'Failed') {
    return releaseFailedRefund(merchantId, refund, { code: result.errorCode ?? 'refund_failed', message: result.errorMessage ?? 'The connector declined the refund.' });
  }
  return refund;
}
