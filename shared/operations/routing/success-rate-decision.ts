/**
 * The success-rate decision (docs/routing.md "The decision"): which of a payment's eligible accounts goes
 * first, from their windows in the payment's segment. Pure: no I/O, no clock; the exploration draw comes
 * from the payment id, so a retried confirm decides the same on the same windows.
 *
 * The model is Hyperswitch's success-based routing with elimination (a non-stationary multi-armed bandit
 * with delayed feedback, juspay/hyperswitch-docs intelligent-routing/auth-rate-based-routing.md;
 * "Maximizing Success Rate of Payment Routing using Non-stationary Bandits", arXiv 2308.01028) and
 * juspay/decision-engine's scoring (src/decider/gatewaydecider/gw_scoring.rs: score = successes ÷ the last
 * N outcomes per gateway and dimension, a hedging share explored):
 * 1. an account with fewer than `min_observations` outcomes in the segment is explored first (the one with
 *    the fewest; listed order among equals) — `success_rate_explore`;
 * 2. the others are ranked by rate (listed order among equal rates); those under `elimination_threshold`
 *    go last, while one at or above it remains;
 * 3. `exploration_percent` of payments go to one of the ranked accounts after the first, drawn evenly
 *    among those not eliminated — `success_rate_explore`;
 * 4. the rest go to the first ranked — `success_rate_exploit`, or `elimination` when an account was
 *    passed over for its rate under the threshold.
 * The accounts after the first are the fallbacks after a technical failure, in ranked order.
 */
import { createHash } from 'node:crypto';
import type { ResolvedSuccessRateConfig, RoutingApproach } from '../../domain/routing-algorithm';
import type { OutcomeWindow } from './outcome-window';

/** The decision for one payment. */
export interface SuccessRateChoice {
  /** The candidates in the order to try them (each once; the same set as given). */
  order: string[];
  /** Why the first went first. */
  approach: Extract<RoutingApproach, 'success_rate_exploit' | 'success_rate_explore' | 'elimination'>;
}

/** The decision's two draws for a payment, each uniform in [0, 1): explore or not, and which account. */
export interface ExplorationDraws {
  explore: number;
  pick: number;
}

/**
 * The draws of a payment: the first 8 bytes of SHA-256 of `success_rate:` + `paymentId`, as two unsigned
 * 32-bit big-endian integers ÷ 2^32. Uniform and independent of a volume split's draw on the same id.
 */
export function explorationDraws(paymentId: string): ExplorationDraws {
  const digest = createHash('sha256').update(`success_rate:${paymentId}`, 'utf8').digest();
  return { explore: digest.readUInt32BE(0) / 2 ** 32, pick: digest.readUInt32BE(4) / 2 ** 32 };
}

/** One candidate as the decision sees it. */
interface Scored {
  id: string;
  index: number;
  attempts: number;
  rate: number;
}

/**
 * Orders a payment's eligible accounts (see the module comment).
 * @param candidates eligible `merchant_connector_id`s in the order the merchant listed them (at least one)
 * @param windowOf each candidate's window in the payment's segment
 * @param config the algorithm's fields, defaults filled in
 * @param draws {@link explorationDraws} of the payment
 * @throws RangeError when `candidates` is empty
 */
export function decideSuccessRate(
  candidates: readonly string[],
  windowOf: (merchantConnectorId: string) => OutcomeWindow,
  config: Pick<ResolvedSuccessRateConfig, 'exploration_percent' | 'min_observations' | 'elimination_threshold'>,
  draws: ExplorationDraws,
): SuccessRateChoice {
  if (candidates.length === 0) throw new RangeError('no candidates');
  const scored: Scored[] = candidates.map((id, index) => {
    const w = windowOf(id);
    return { id, index, attempts: w.attempts, rate: w.attempts > 0 ? w.successes / w.attempts : 0 };
  });
  const known = scored.filter((s) => s.attempts >= config.min_observations);
  const unknown = scored.filter((s) => s.attempts < config.min_observations);
  known.sort((a, b) => b.rate - a.rate || a.index - b.index);
  const kept = known.filter((s) => s.rate >= config.elimination_threshold);
  const eliminated = kept.length > 0 ? known.filter((s) => s.rate < config.elimination_threshold) : [];
  const ranked = eliminated.length > 0 ? [...kept, ...eliminated] : known;
  if (unknown.length > 0) {
    const first = unknown.reduce((least, s) => (s.attempts < least.attempts ? s : least));
    const rest = [...ranked, ...unknown.filter((s) => s !== first)].map((s) => s.id);
    return { order: [first.id, ...rest], approach: 'success_rate_explore' };
  }
  const explorable = (eliminated.length > 0 ? kept : ranked).slice(1);
  if (explorable.length > 0 && draws.explore < config.exploration_percent / 100) {
    const picked = explorable[Math.min(explorable.length - 1, Math.floor(draws.pick * explorable.length))]!;
    return { order: [picked.id, ...ranked.filter((s) => s !== picked).map((s) => s.id)], approach: 'success_rate_explore' };
  }
  return { order: ranked.map((s) => s.id), approach: eliminated.length > 0 ? 'elimination' : 'success_rate_exploit' };
}
