/**
 * A merchant's routing profile: which routing algorithm is active (a copy of it, so routing a payment
 * reads one partition) and its default fallback list. Stored beside its connector accounts
 * (shared/storage/item-keys.ts `connectorConfig.profile`).
 */

import type { RoutingAlgorithmType } from './routing-algorithm';

/**
 * The active algorithm as copied into the profile when it was activated: its id, name and
 * `algorithm` (`{type, data}`, shared/domain/routing-algorithm.ts). Algorithms are immutable once
 * created, so the copy never goes stale.
 */
export interface ActiveAlgorithm {
  routing_algorithm_id: string;
  name: string;
  algorithm: unknown;
  /** ISO 8601 UTC: when it was activated. */
  activated_at: string;
}

/**
 * The `data` of a `routing.activated` event and the answer of the activation routes (component `RoutingActivation`,
 * shared/schemas/routing-activation-schema.ts): the algorithm active now, or none after a deactivation.
 */
export interface RoutingActivation {
  active: boolean;
  /** `routing_…`, or null when none is active. */
  routing_algorithm_id: string | null;
  name: string | null;
  algorithm_type: RoutingAlgorithmType | null;
  /** ISO 8601 UTC, or null when routing was never set. */
  activated_at: string | null;
}

/**
 * Automatic retries of soft declines (docs/routing.md "Automatic retries"): off unless enabled; `max_auto_retries`
 * other accounts tried after a soft decline, 0–3.
 */
export interface AutoRetries {
  enabled: boolean;
  max_auto_retries: number;
}

/** Automatic retries as a merchant that never set them has them: off, 1 retry when enabled. */
export const DEFAULT_AUTO_RETRIES: Readonly<AutoRetries> = Object.freeze({ enabled: false, max_auto_retries: 1 });

/** Most automatic retries per payment a merchant may set. */
export const MAX_AUTO_RETRIES = 3;

/** The profile. `version` guards concurrent changes (activation, default list, account deletes). */
export interface RoutingProfile {
  active_algorithm: ActiveAlgorithm | null;
  /** Automatic retries of soft declines; absent (or null) = {@link DEFAULT_AUTO_RETRIES}. */
  auto_retries?: AutoRetries | null;
  /** The merchant's ordered fallback list of `merchant_connector_id`s; null = its accounts in creation order. */
  default_fallback: string[] | null;
  /**
   * The merchant's payout priority list (`PUT /routing/payouts`): `merchant_connector_id`s tried first for payouts,
   * in order; absent (or null) = payouts follow {@link default_fallback}.
   */
  payout_priority?: string[] | null;
  version: number;
  /** ISO 8601 UTC. */
  updated_at: string;
}
