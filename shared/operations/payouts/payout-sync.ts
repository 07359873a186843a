/**
 * Settling a payout with its processor's answer: the answer of a send or an OTP, a lookup by our reference (the
 * reconciler, `GET /payouts/{id}?force_sync=true`, a keyed retry), or a processor's webhook. Every write is
 * conditional on the version read, so two of them at once settle a payout once; a payout is never sent again
 * here (docs/api.md "Sent once, reconciled by reference").
 */
import { ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import type { PayoutResult } from '../../connectors/payout-connector';
import { maskCardNumbers, maskOptionalText } from '../../domain/card-mask';
import { ApiError, paymentBusy, resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { canMovePayout, MAX_PAYOUT_OTP_ATTEMPTS, OPEN_PAYOUT_STATUSES, type Payout, type PayoutNextAction } from '../../domain/payout';
import { leaseActive } from '../../domain/pending-operation';
import { logger } from '../../observability/logger';
import { recordMoneyMismatch, recordPayoutOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { RoutedConnector } from '../../processor-call/connector-target';
import { findPayoutOwner, getStoredPayout, type PayoutChange, type StoredPayout, updatePayout } from '../../storage/payouts-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';

/** The `next_action` of a payout waiting on its OTP, after `attempts` wrong ones. */
export function otpNextAction(attempts: number): PayoutNextAction {
  return { type: 'submit_otp', attempts_remaining: Math.max(0, MAX_PAYOUT_OTP_ATTEMPTS - attempts) };
}

/**
 * The change a processor's answer makes to a payout: its status when the state machine allows the move
 * (`canMovePayout`; a late or repeated answer that would move it back changes nothing), the processor's id, fee and
 * reason, the OTP step, and the end of any claim.
 * @returns the change, or undefined when the answer changes nothing
 */
export function changeOfResult(stored: StoredPayout, result: PayoutResult): PayoutChange | undefined {
  const p = stored.payout;
  const moves = canMovePayout(p.status, result.status);
  const status = moves ? result.status : p.status;
  const change: PayoutChange = {};
  if (status !== p.status) change.status = status;
  if (stored.pendingOperation) change.pending_operation = null;
  if (result.connectorPayoutId && result.connectorPayoutId !== p.connector_payout_id) change.connector_payout_id = result.connectorPayoutId;
  if (typeof result.fee === 'number' && result.fee !== p.fee) change.fee = result.fee;
  if (status === 'Failed' || status === 'Reversed') {
    if (change.status) {
      change.error_code = maskCardNumbers(result.errorCode ?? (status === 'Failed' ? 'payout_failed' : 'payout_reversed'));
      change.error_message = maskCardNumbers(
        result.errorMessage ?? (status === 'Failed' ? 'The processor failed the payout.' : 'The receiving bank returned the payout.'),
      );
    }
  } else if (status === 'Succeeded' && change.status) {
    change.error_code = null;
    change.error_message = null;
  }
  const nextAction = status === 'RequiresAction' ? otpNextAction(stored.otpAttempts) : null;
  if (JSON.stringify(nextAction) !== JSON.stringify(p.next_action)) change.next_action = nextAction;
  const recheck = moves ? (result.recheckAt ?? null) : stored.recheckAt;
  if (recheck !== stored.recheckAt) change.recheck_at = recheck;
  return Object.keys(change).length > 0 ? change : undefined;
}

/** Counts `PayoutOutcomes` once a payout reaches a final status (succeeded, failed, reversed). */
export function countOutcome(before: Payout, after: Payout): void {
  if (before.status === after.status) return;
  if (after.status === 'Succeeded' || after.status === 'Failed' || after.status === 'Reversed') {
    recordPayoutOutcome(after.connector, after.merchant_connector_id, after.status);
  }
}

/** The connector account holding a payout, with its payout calls. @throws ApiError 502 `connector_unavailable` */
export async function payoutConnectorOf(
  merchantId: string,
  payout: Payout,
): Promise<RoutedConnector & { payouts: NonNullable<RoutedConnector['payouts']> }> {
  const connector = await connectorForTarget(merchantId, payout.connector, payout.merchant_connector_id);
  if (!connector.payouts) {
    throw new ApiError(
      502,
      'connector_error',
      'connector_unavailable',
      `${payout.connector} does not send payouts on this stage any more.`,
    );
  }
  return connector as RoutedConnector & { payouts: NonNullable<RoutedConnector['payouts']> };
}

/**
 * What one reconciliation of a payout did: `in_flight` (its request may still run), `not_open` (nothing to ask),
 * `unchanged`, `settled` (the processor's answer moved it), `not_sent` (the processor has no transfer under our
 * reference: `Failed`, nothing was sent), `changed` (another writer moved it meanwhile).
 */
export type PayoutReconcileOutcome = 'in_flight' | 'not_open' | 'unchanged' | 'settled' | 'not_sent' | 'changed';

/** Whether the reconciler still has something to ask about this payout. */
export function payoutOpen(stored: StoredPayout, nowMs = Date.now()): boolean {
  return (
    stored.pendingOperation !== null ||
    OPEN_PAYOUT_STATUSES.includes(stored.payout.status) ||
    (stored.recheckAt !== null && Date.parse(stored.recheckAt) <= nowMs)
  );
}

/**
 * Reconciles one payout with its processor, by our reference (its id): never sends it. Not while a claim's lease
 * runs (`in_flight`). A payout the processor has no transfer for (its window for one to appear has passed:
 * `findPayout` answers null) was never sent: `Failed` (`payout_not_sent`) and its daily-limit reservation released.
 * @throws ApiError 502 `connector_error` when the processor cannot be asked
 */
export async function reconcilePayout(
  ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'>,
  stored: StoredPayout,
): Promise<{ payout: Payout; outcome: PayoutReconcileOutcome }> {
  const p = stored.payout;
  if (stored.pendingOperation && leaseActive(stored.pendingOperation)) return { payout: p, outcome: 'in_flight' };
  if (!payoutOpen(stored)) return { payout: p, outcome: 'not_open' };
  const connector = await payoutConnectorOf(ctx.merchantId, p);
  let result: PayoutResult | null;
  try {
    result = await callWithinBudget(ctx, connector, 'find_payout', () =>
      connector.payouts.findPayout({
        reference: p.payout_id,
        connectorPayoutId: p.connector_payout_id,
        amount: p.amount,
        currency: p.currency,
        destination: stored.method,
        sentAt: stored.sentAt ?? p.created_at,
      }),
    );
  } catch (err) {
    if (err instanceof ConnectorRequestError || err instanceof ConnectorTechnicalError) {
      throw new ApiError(
        502,
        'connector_error',
        'connector_unreachable',
        `Could not reconcile this payout with ${p.connector}; it keeps its status and is asked again later.`,
      );
    }
    throw err;
  }
  const change: PayoutChange | undefined =
    result === null
      ? {
          status: 'Failed',
          pending_operation: null,
          next_action: null,
          error_code: 'payout_not_sent',
          error_message: `${p.connector} has no transfer for this payout: nothing was sent. Create a new payout to send it.`,
        }
      : changeOfResult(stored, result);
  if (!change) return { payout: p, outcome: 'unchanged' };
  try {
    const after = await updatePayout(stored, change);
    countOutcome(p, after.payout);
    return { payout: after.payout, outcome: result === null ? 'not_sent' : 'settled' };
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      const current = (err.current as StoredPayout | undefined)?.payout ?? (await getStoredPayout(ctx.merchantId, p.payout_id))?.payout;
      return { payout: current ?? p, outcome: 'changed' };
    }
    throw err;
  }
}

/**
 * `GET /payouts/{id}?force_sync=true`: reconciles an open payout now ({@link reconcilePayout}) and returns it.
 * @throws ApiError 404 unknown payout; 502 `connector_error` when the processor cannot be asked
 */
export async function syncPayout(ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'>, payoutId: string): Promise<Payout> {
  const stored = isIdOf('payout', payoutId) ? await getStoredPayout(ctx.merchantId, payoutId) : undefined;
  if (!stored) throw resourceNotFound('payout', 'payout_id');
  return (await reconcilePayout(ctx, stored)).payout;
}

/** What applying a processor's payout event did (the webhook receipt's fields). */
export interface PayoutEventReceipt {
  applied: boolean;
  reason?: string;
  status?: string;
}

/**
 * Applies a processor's verified payout event to the payout it names (our reference): the event's status when the
 * state machine allows the move, once (a redelivered or late event changes nothing: the status it reports is
 * already there, or behind). An event naming no payout of ours changes nothing (the reconciler settles payouts by
 * reference regardless).
 * @param owns whether the webhook's account may change this payout (its own account's, or the sandbox's)
 * @throws ApiError 409 `payment_busy` while the payout's own request still holds its claim (the processor redelivers)
 */
export async function applyPayoutEvent(
  connector: string,
  event: { eventId: string; payoutId: string; result: PayoutResult },
  owns: (merchantId: string, merchantConnectorId: string | null) => boolean,
): Promise<PayoutEventReceipt> {
  if (!isIdOf('payout', event.payoutId)) return { applied: false, reason: 'the event names no Switchyard payout' };
  const merchantId = await findPayoutOwner(event.payoutId);
  if (!merchantId)
    return { applied: false, reason: 'no payout with this reference is visible here; the reconciler settles it by reference' };
  for (let round = 0; round < 3; round += 1) {
    const stored = await getStoredPayout(merchantId, event.payoutId);
    if (!stored || stored.payout.connector !== connector || !owns(merchantId, stored.payout.merchant_connector_id)) {
      return { applied: false, reason: 'no payout of this connector account with this reference' };
    }
    const p = stored.payout;
    if (stored.pendingOperation && leaseActive(stored.pendingOperation)) throw paymentBusy('The payout is being sent.');
    if (p.status === 'Succeeded' && event.result.status === 'Failed') {
      logger.error('processor reports a failure of a payout recorded as succeeded; an operator must settle it', {
        connector,
        event_id: event.eventId,
        payout_id: p.payout_id,
      });
      recordMoneyMismatch(connector);
    }
    const change = changeOfResult(stored, { ...event.result, errorCode: maskOptionalText(event.result.errorCode) });
    if (!change?.status) return { applied: false, reason: `the payout is ${p.status}; this event does not change it`, status: p.status };
    try {
      const after = await updatePayout(stored, change);
      countOutcome(p, after.payout);
      return { applied: true, status: after.payout.status };
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
    }
  }
  throw paymentBusy('The payout kept changing while this event was applied.');
}
