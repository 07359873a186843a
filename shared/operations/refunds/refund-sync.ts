import { ConnectorRequestError, ConnectorTechnicalError, type RefundResult } from '../../connectors/connector';
import { maskCardNumbers, maskOptionalText } from '../../domain/card-mask';
import { ApiError, resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { leaseActive } from '../../domain/pending-operation';
import type { Refund } from '../../domain/refund';
import { recordRefundOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import { getPayment } from '../../storage/payments-repository';
import { releaseFailedRefund } from '../../storage/refund-reservations-repository';
import { getStoredRefund, type StoredRefund, settleRefund } from '../../storage/refunds-repository';
import type { RequestContext } from '../request-context';

/**
 * What one reconciliation of a refund did: `in_flight` (its request may still run), `not_open`
 * (not Pending), `unchanged` (the processor still reports it pending), `succeeded`, `failed`
 * (declined, or known absent at the processor: the reservation is released), `recorded` (the
 * processor's pending refund id was found and kept).
 */
export type RefundReconcileOutcome = 'in_flight' | 'not_open' | 'unchanged' | 'succeeded' | 'failed' | 'recorded';

/**
 * Reconciles one `Pending` refund with its processor. With the processor's refund id:
 * `syncRefund`. Without one (the refund call timed out or the process died before its
 * answer was written): `findRefund` by our refund id. Then:
 * - `Succeeded` → recorded; `Failed` → `Failed` and the reserved amount released;
 * - known absent at the processor → `Failed` (`refund_not_found`: nothing was refunded) and released;
 * - still pending → its processor id is recorded (or nothing changes).
 * Never touches a refund whose lease is still running; every write is conditional on
 * the refund still being `Pending`, so two runs at once settle it once.
 * Counts `RefundOutcomes` `succeeded` or `failed` when the processor's answer settles it (not while it stays pending).
 * @throws ApiError 502 `connector_error` when the processor cannot be asked
 */
export async function reconcileRefund(
  ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'>,
  stored: StoredRefund,
): Promise<{ refund: Refund; outcome: RefundReconcileOutcome }> {
  const refund = stored.refund;
  if (refund.status !== 'Pending') return { refund, outcome: 'not_open' };
  if (stored.pendingOperation && leaseActive(stored.pendingOperation)) return { refund, outcome: 'in_flight' };
  const connector = await connectorForTarget(ctx.merchantId, refund.connector, refund.merchant_connector_id ?? null);
  let result: RefundResult | null;
  try {
    const connectorRefundId = refund.connector_refund_id;
    if (connectorRefundId) {
      result = await callWithinBudget(ctx, connector, 'sync_refund', () =>
        connector.syncRefund({ refundId: refund.refund_id, connectorRefundId, currency: refund.currency }),
      );
    } else {
      const payment = (await getPayment(ctx.merchantId, refund.payment_id))?.payment;
      result = await callWithinBudget(ctx, connector, 'find_refund', () =>
        connector.findRefund({
          refundId: refund.refund_id,
          paymentId: refund.payment_id,
          connectorTransactionId: payment?.connector_transaction_id ?? '',
          amount: refund.amount,
          currency: refund.currency,
          createdAt: refund.created_at,
        }),
      );
    }
  } catch (err) {
    if (err instanceof ConnectorRequestError || err instanceof ConnectorTechnicalError) {
      throw new ApiError(
        502,
        'connector_error',
        'connector_unreachable',
        `Could not reconcile this refund with ${refund.connector}; it stays Pending. Retry later.`,
      );
    }
    throw err;
  }
  // A settled answer counts once more in RefundOutcomes (the refund call counted pending or unknown),
  // after its conditional write succeeded — a reconciler run and a force_sync racing count once; a
  // refund still pending there is not counted again on every check.
  if (result === null) {
    const failed = await releaseFailedRefund(
      ctx.merchantId,
      refund,
      {
        code: 'refund_not_found',
        message: `${refund.connector} has no record of this refund: nothing was refunded, and the amount can be refunded again.`,
      },
      stored.listShards,
    );
    recordRefundOutcome(refund.connector, 'failed');
    return { refund: failed, outcome: 'failed' };
  }
  if (result.status === 'Succeeded') {
    const settled = await settleRefund(
      ctx.merchantId,
      refund,
      'Succeeded',
      result.connectorRefundId ?? refund.connector_refund_id,
      undefined,
      stored.listShards,
    );
    recordRefundOutcome(refund.connector, 'succeeded');
    return { refund: settled, outcome: 'succeeded' };
  }
  if (result.status === 'Failed') {
    const failed = await releaseFailedRefund(
      ctx.merchantId,
      refund,
      {
        code: maskCardNumbers(result.errorCode ?? 'refund_failed'),
        message: maskCardNumbers(result.errorMessage ?? 'The connector declined the refund.'),
      },
      stored.listShards,
    );
    recordRefundOutcome(refund.connector, 'failed');
    return { refund: failed, outcome: 'failed' };
  }
  const note = { code: maskOptionalText(result.errorCode), message: maskOptionalText(result.errorMessage) };
  const noteChanged = note.code !== (refund.error_code ?? null);
  if ((result.connectorRefundId && (stored.pendingOperation || !refund.connector_refund_id)) || noteChanged) {
    // Still Pending: its processor id, and the processor's note when it has one (e.g. Paystack's needs-attention).
    return {
      refund: await settleRefund(
        ctx.merchantId,
        refund,
        'Pending',
        result.connectorRefundId ?? refund.connector_refund_id,
        note,
        stored.listShards,
      ),
      outcome: 'recorded',
    };
  }
  return { refund, outcome: 'unchanged' };
}

/**
 * `GET /refunds/{id}?force_sync=true`: reconciles a `Pending` refund with its processor
 * now (see {@link reconcileRefund}) and returns it; any other refund is returned as read.
 * @throws ApiError 404 unknown refund; 502 `connector_error` when the processor cannot be asked
 */
export async function syncRefund(ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'>, refundId: string): Promise<Refund> {
  const stored = isIdOf('refund', refundId) ? await getStoredRefund(ctx.merchantId, refundId) : undefined;
  if (!stored) throw resourceNotFound('refund', 'refund_id');
  return (await reconcileRefund(ctx, stored)).refund;
}
