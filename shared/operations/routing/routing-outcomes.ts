/**
 * Success-rate routing's outcomes in the deployed service: the {@link OutcomeStore} over the table
 * (shared/storage/routing-outcomes-repository.ts), this container's {@link OutcomeWindowCache} over it, and the
 * recording of a payment's authorization outcome (docs/routing.md "Outcomes").
 *
 * What counts (Hyperswitch success-based routing counts the authorization's final status,
 * juspay/hyperswitch-docs intelligent-routing/auth-rate-based-routing.md): an authorization approved
 * (`Succeeded`, `RequiresCapture`: a success) or declined by the issuer (`Failed` after the processor answered: a
 * failure), of a try whose account success rate chose (its attempt carries `routing_segment`). Technical failures
 * (timeouts, 5xx, connection errors, a processor refusing the request) feed the circuit breaker, not the score: their
 * attempts are never settled through here. An unknown outcome (`Processing`) counts once reconciled, when the sync,
 * the reconciler or a webhook settles it. A soft decline that is retried on another account counts as the first
 * account's failure when it is retried.
 */
import type { Attempt, Payment } from '../../domain/payment';
import { logger } from '../../observability/logger';
import { wholeNumberSetting } from '../../settings/whole-number-setting';
import { addRoutingOutcome, routingOutcomeCounters } from '../../storage/routing-outcomes-repository';
import { type OutcomeStore, OutcomeWindowCache } from './outcome-store';
import { bucketStart, OUTCOME_LOOKBACK_MS, type RoutingOutcome } from './outcome-window';

/** Default and largest period a container reuses a merchant's outcome windows: 5,000 ms. */
export const DEFAULT_OUTCOME_CACHE_MS = 5_000;

/**
 * The period from `ROUTING_OUTCOME_CACHE_MS` (0–5,000 ms, read at each use; 0 reads on every payment), else
 * {@link DEFAULT_OUTCOME_CACHE_MS}. Staleness: an outcome reaches a container's decisions within this period.
 */
export function outcomeCacheMs(): number {
  return wholeNumberSetting(process.env.ROUTING_OUTCOME_CACHE_MS, { min: 0, max: DEFAULT_OUTCOME_CACHE_MS }, DEFAULT_OUTCOME_CACHE_MS);
}

/** An hour after a counter leaves the lookback, TTL removes it. */
const EXPIRY_MARGIN_MS = 60 * 60_000;

/** The {@link OutcomeStore} over the table. */
export const tableOutcomeStore: OutcomeStore = {
  record: (merchantId, outcome) => {
    const bucket = bucketStart(outcome.at_ms);
    return addRoutingOutcome(merchantId, outcome, bucket, Math.ceil((bucket + OUTCOME_LOOKBACK_MS + EXPIRY_MARGIN_MS) / 1000));
  },
  counters: (merchantId, sinceBucketMs) => routingOutcomeCounters(merchantId, sinceBucketMs),
};

/** This container's outcome windows, per merchant (the router reads them; no read of its own while fresh). */
export const outcomeWindows = new OutcomeWindowCache(tableOutcomeStore, outcomeCacheMs);

/** The outcome of an attempt, when it counts: approved → true, declined by the issuer → false, else null. */
export function attemptOutcome(status: Payment['status']): boolean | null {
  if (status === 'Succeeded' || status === 'RequiresCapture') return true;
  if (status === 'Failed') return false;
  return null;
}

/**
 * Counts one try's outcome (one write). Never throws: a failure is logged (a lost outcome is a statistic lost).
 * @param attempt a try success rate chose (`routing_segment` set) at an account
 * @param success approved (true) or declined by the issuer (false)
 * @param atMs epoch ms the outcome became known
 */
export async function countAttemptOutcome(
  merchantId: string,
  paymentId: string,
  attempt: Pick<Attempt, 'merchant_connector_id' | 'routing_segment'>,
  success: boolean,
  atMs: number,
): Promise<void> {
  if (!attempt.routing_segment || !attempt.merchant_connector_id) return;
  const outcome: RoutingOutcome = {
    merchant_connector_id: attempt.merchant_connector_id,
    segment: attempt.routing_segment,
    success,
    at_ms: atMs,
    payment_id: paymentId,
  };
  try {
    await tableOutcomeStore.record(merchantId, outcome);
  } catch (err) {
    logger.warn('routing outcome not counted', { error: (err as Error).name, merchant_connector_id: outcome.merchant_connector_id });
  }
}

/**
 * Counts a settled payment's authorization outcome for success-rate routing (see the module comment): the
 * last try at the payment's account that success rate chose, when the payment is approved or declined. Called
 * once per settlement (the conditional write that settled it precedes it). Never throws.
 */
export async function countPaymentOutcome(merchantId: string, payment: Payment, atMs = Date.now()): Promise<void> {
  const success = attemptOutcome(payment.status);
  if (success === null || !payment.merchant_connector_id) return;
  const attempts = payment.attempts ?? [];
  for (let i = attempts.length - 1; i >= 0; i--) {
    const a = attempts[i]!;
    // A sync's or webhook's own attempt at the account carries no segment: the routed try before it does.
    if (a.merchant_connector_id !== payment.merchant_connector_id || !a.routing_segment) continue;
    await countAttemptOutcome(merchantId, payment.payment_id, a, success, atMs);
    return;
  }
}
