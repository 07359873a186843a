import { ConnectorRequestError, ConnectorTechnicalError, type PaymentResult } from '../../connectors/connector';
import { ApiError } from '../../domain/errors';
import { type Payment, publicBaseUrlOf } from '../../domain/payment';
import { ALLOWED_FROM, canApply, type PaymentStatus } from '../../domain/payment-status';
import { type PendingOperationKind, PROCESSOR_WORK_WINDOW_MS } from '../../domain/pending-operation';
import { recordPaymentOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { ConnectorTarget } from '../../processor-call/connector-target';
import { type StoredPayment, type UpdateGuard, updatePayment } from '../../storage/payments-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { loadPayment } from './load-payment';
import { afterAuthorization } from './payment-authorization';
import { attemptOf, claimInFlight, resultFields } from './payment-state';

/**
 * What one reconciliation of a payment did: `in_flight` (a claim whose request may still run: left
 * alone), `not_open` (nothing to reconcile), `unchanged` (the processor still reports the same
 * open state), `settled` (the processor's answer was written), `released` (a capture or void
 * claim the processor never acted on was released), `conflict` (someone else wrote first).
 */
export type PaymentReconcileOutcome = 'in_flight' | 'not_open' | 'unchanged' | 'settled' | 'released' | 'conflict';

/** A payment change decided from the processor's answer. */
interface Decision {
  guard: Omit<UpdateGuard, 'expectedVersion'>;
  fields: Partial<Payment> & { status: PaymentStatus };
  outcome: 'settled' | 'released';
}

/**
 * Decides what the processor's current view means for a payment whose `kind` of
 * operation is open. Terminal statuses are never left: the guards only allow the
 * statuses the operation started from. A capture or void the processor does not show yet is not taken as
 * "never happened" while the processor may still be working on it (until `PROCESSOR_WORK_WINDOW_MS` after the
 * call was sent): the claim stays, as an authorization's does while its lookup cannot tell yet.
 * @returns undefined when nothing is to be written (the claim, if any, stays)
 */
function decide(
  kind: PendingOperationKind,
  stored: StoredPayment,
  result: PaymentResult,
  target: ConnectorTarget,
  nowMs = Date.now(),
): Decision | undefined {
  const p = stored.payment;
  const guard: Omit<UpdateGuard, 'expectedVersion'> = {};
  if (kind === 'authorize' || kind === 'refund') {
    // A processor naming another step than the payment shows (after a step whose answer was lost).
    // Only the kind of action counts: a re-sync of the same action may differ in details (an expiry).
    const stepChanged = result.nextAction != null && result.nextAction.type !== p.next_action?.type;
    if (result.status === p.status && !stored.pendingOperation && !stepChanged) return undefined;
    // "Not there yet" (e.g. a search still inside its propagation window) is not an answer: the
    // claim, its start time and its outcome_unknown state stay until the processor knows the payment.
    if (result.status === 'Processing' && !result.connectorTransactionId && stored.pendingOperation && !p.connector_transaction_id)
      return undefined;
    if (result.notYetKnown && stored.pendingOperation) return undefined;
    const fields = resultFields(result, p);
    // The attempt names the account asked (merchant_connector_id beside connector), as the request's own attempts do.
    if (result.status !== p.status) fields.attempts = [...p.attempts, attemptOf(target, new Date().toISOString(), result)];
    return {
      guard: { ...guard, expectedStatuses: ALLOWED_FROM.connector_update },
      fields: { ...fields, connector: target.name, merchant_connector_id: target.merchantConnectorId },
      outcome: 'settled',
    };
  }
  const moved =
    kind === 'capture'
      ? result.status === 'Succeeded' || result.status === 'Cancelled'
      : result.status === 'Cancelled' || result.status === 'Succeeded';
  if (!moved) {
    // Not applied (yet): the processor may still apply a call it received shortly before; only after its
    // work window is "not there" taken as "never there", and the claim released.
    const sentAt = Date.parse(stored.pendingOperation?.started_at ?? '');
    if (Number.isFinite(sentAt) && nowMs < sentAt + PROCESSOR_WORK_WINDOW_MS) return undefined;
    return { guard, fields: { status: p.status }, outcome: 'released' };
  }
  return {
    guard,
    fields: result.status === 'Cancelled' ? { status: 'Cancelled', next_action: null } : resultFields(result, p),
    outcome: 'settled',
  };
}

/**
 * Reconciles one payment with its processor: the open operation recorded on it
 * (`pending_operation`: authorize, capture or void) or, without one, a payment left
 * `Processing`/`RequiresAction`. Asks the processor by our reference (`sync`) and
 * applies the answer with a conditional write on the version read; a capture or void
 * the processor has not acted on releases the claim once `PROCESSOR_WORK_WINDOW_MS` has passed since it was
 * sent (before that the claim stays: `unchanged`). A payment waiting on an authentication step
 * takes the step the processor asks for now when the sync names one (`ctx.publicBaseUrl`, else the
 * base URL of the payment's hosted step page, lets the connector build it). Never moves a terminal status,
 * never touches a claim whose lease is still running, and is safe to run twice at
 * once (the second write loses its condition and the current payment is returned).
 * @param ctx the merchant and, for API callers, the request's time budget
 * @returns the payment after reconciliation and what was done; `recheckAt` (ISO 8601 UTC) when a capture or void
 *   claim is kept inside its work window: when the answer can be final
 * @throws ApiError 502 `connector_error` when the processor cannot be asked (not configured, unreachable)
 */
export async function reconcilePayment(
  ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'> & { publicBaseUrl?: string },
  stored: StoredPayment,
): Promise<{ payment: Payment; outcome: PaymentReconcileOutcome; recheckAt?: string }> {
  const p = stored.payment;
  if (claimInFlight(stored)) return { payment: p, outcome: 'in_flight' };
  const op = stored.pendingOperation;
  const kind: PendingOperationKind | undefined = op?.operation ?? (canApply('connector_update', p.status) ? 'authorize' : undefined);
  if (!kind) return { payment: p, outcome: 'not_open' };
  // A claim names the account it called (a fallback may have moved it); else the payment's own.
  const connectorName = op?.connector ?? p.connector;
  const accountId = op ? (op.merchant_connector_id ?? null) : (p.merchant_connector_id ?? null);
  const connector = await connectorForTarget(ctx.merchantId, connectorName, accountId);
  let result: PaymentResult;
  try {
    result = await callWithinBudget(ctx, connector, 'sync', () =>
      connector.sync({
        paymentId: p.payment_id,
        connectorTransactionId:
          p.connector === connectorName && (p.merchant_connector_id ?? null) === accountId ? p.connector_transaction_id : null,
        amount: p.amount,
        currency: p.currency,
        paymentMethod: p.payment_method,
        captureMethod: p.capture_method,
        // Propagation windows run from when the authorization was sent, not from the payment's creation.
        createdAt:
          op?.operation === 'authorize'
            ? op.started_at
            : (p.attempts.filter((a) => a.connector === connectorName).at(-1)?.created_at ?? p.created_at),
        publicBaseUrl: ctx.publicBaseUrl ?? publicBaseUrlOf(p),
      }),
    );
  } catch (err) {
    if (!(err instanceof ConnectorTechnicalError) && !(err instanceof ConnectorRequestError)) throw err;
    throw new ApiError(
      502,
      'connector_error',
      'connector_unreachable',
      `Could not reach ${connectorName} to reconcile this payment; it keeps status ${p.status}. Retry later.`,
    );
  }
  const decision = decide(kind, stored, result, connector);
  if (!decision) {
    // A capture or void kept inside its work window is looked at again when the window ends, not after a back-off.
    const sentAt = Date.parse(op?.started_at ?? '');
    const kept = (kind === 'capture' || kind === 'void') && Number.isFinite(sentAt);
    return { payment: p, outcome: 'unchanged', ...(kept ? { recheckAt: new Date(sentAt + PROCESSOR_WORK_WINDOW_MS).toISOString() } : {}) };
  }
  try {
    const done = await updatePayment(ctx.merchantId, stored, decision.guard, decision.fields, null);
    if (decision.outcome === 'settled') recordPaymentOutcome(done.payment);
    // An authorization settled here (3-D Secure completed, a lost answer found) saves the card it was asked to.
    const payment =
      kind === 'authorize' && decision.outcome === 'settled' ? await afterAuthorization(ctx, done.payment, result) : done.payment;
    return { payment, outcome: decision.outcome };
  } catch (err) {
    // Someone else changed it meanwhile (a webhook, the request itself, another run): their write wins.
    if (err instanceof ConditionFailedError)
      return { payment: (await loadPayment(ctx.merchantId, p.payment_id)).payment, outcome: 'conflict' };
    throw err;
  }
}

/**
 * `GET /payments/{id}?force_sync=true`: reconciles the payment with its processor now
 * (see {@link reconcilePayment}) and returns it. A payment with nothing open is returned as read.
 * @throws ApiError 404 unknown payment; 502 `connector_error` when the processor cannot be asked
 */
export async function syncPayment(ctx: RequestContext, paymentId: string): Promise<Payment> {
  return (await reconcilePayment(ctx, await loadPayment(ctx.merchantId, paymentId))).payment;
}
