/**
 * Success-rate routing for one payment, given a snapshot of the merchant's outcome windows: the segment,
 * then the decision (./success-rate-decision.ts). Pure: the router (./route-payment.ts) and the simulator
 * (scripts/routing-simulate.ts) both call it, the router with the per-container cache over DynamoDB, the
 * simulator with the same cache over the in-memory store and a virtual clock.
 */
import type { ResolvedSuccessRateConfig } from '../../domain/routing-algorithm';
import type { OutcomeSnapshot } from './outcome-window';
import { decideSuccessRate, explorationDraws, type SuccessRateChoice } from './success-rate-decision';
import { type SegmentFacts, segmentKey } from './success-rate-segment';

/** {@link SuccessRateChoice} with the payment's segment key (kept on the attempt, so its outcome is counted there). */
export interface SuccessRateRouting extends SuccessRateChoice {
  segment: string;
}

/**
 * Orders the eligible accounts of a `success_rate` selection for a payment.
 * @param eligible the selection's accounts that can take the payment now, in the order listed (at least one)
 * @param facts the payment's facts (`payment_id` for the exploration draw)
 * @param snapshot the merchant's outcome windows
 * @param nowMs the current time, epoch ms
 * @throws RangeError when `eligible` is empty
 */
export function successRateOrder(
  config: ResolvedSuccessRateConfig,
  eligible: readonly string[],
  facts: SegmentFacts & { payment_id: string },
  snapshot: OutcomeSnapshot,
  nowMs: number,
): SuccessRateRouting {
  const segment = segmentKey(config.dimensions, facts);
  const choice = decideSuccessRate(
    eligible,
    (id) => snapshot.window(id, segment, config.window_size, nowMs),
    config,
    explorationDraws(facts.payment_id),
  );
  return { ...choice, segment };
}
