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

/** The profile. `version` guards concurrent changes (activation, default list, account deletes). */
export interface RoutingProfile {
  active_algorithm: ActiveAlgorithm | null;
  /** The merchant's ordered fallback list of `merchant_connector_id`s; null = its accounts in creation order. */
  default_fallback: string[] | null;
  version: number;
  /** ISO 8601 UTC. */
  updated_at: string;
}
