/**
 * A merchant's routing profile: which routing algorithm is active (a copy of it, so routing a payment
 * reads one partition) and its default fallback list. Stored beside its connector accounts
 * (shared/storage/item-keys.ts `connectorConfig.profile`).
 */

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

/** The profile. `version` guards concurrent changes (activation, default list, account deletes). */
export interface RoutingProfile {
  active_algorithm: ActiveAlgorithm | null;
  /** The merchant's ordered fallback list of `merchant_connector_id`s; null = its accounts in creation order. */
  default_fallback: string[] | null;
  version: number;
  /** ISO 8601 UTC. */
  updated_at: string;
}
