import { type ConnectorTarget, healthKey } from './connector-target';

/**
 * How routing sees a connector now:
 * - `closed`: healthy, route to it;
 * - `probe`: open, and its half-open probe is due and not yet handed out: route to it (one request);
 * - `open`: open and not due (or its probe is already handed out or running): skip it.
 */
export type RoutingHealth = 'closed' | 'probe' | 'open';

/** What routing reads of a connector's circuit (the breaker's `ConnectorCircuit` in shared/processor-call/circuit-breaker.ts). */
export interface RoutingCircuit {
  /** How routing sees the connector at `now` (epoch ms); `handOut`: the request will call it first and may take the probe. */
  routingView(now?: number, handOut?: boolean): RoutingHealth;
  /** Milliseconds until routing may send a probe (0 when closed or due). */
  retryAfterMs(now?: number): number;
}

/**
 * The connector circuits of this container (shared/processor-call/circuit-breaker.ts), by health key
 * (`healthKey`: one per merchant connector account, one per connector for the stage's own accounts).
 * Apart from the breaker so that routing can read a circuit without loading cockatiel: a connector
 * account this container has never called through the breaker has no circuit (a call started with less
 * than `MIN_BUDGET_FOR_HEALTH_MS` of its request left bypasses it), and routing treats it as closed —
 * which is what a new circuit would say. The breaker module (loaded with the first processor call) creates them.
 */
const circuits = new Map<string, RoutingCircuit>();

/**
 * The circuit of a connector account if this container has one (it has called the account).
 * @param target the connector's name (its platform account) or a {@link ConnectorTarget}
 * @returns undefined when no call to the account went through the breaker in this container (its circuit is closed)
 */
export function existingCircuit(target: string | ConnectorTarget): RoutingCircuit | undefined {
  return circuits.get(healthKey(target));
}

/**
 * The circuit of a connector account, created with `create` when this container has none yet.
 * @param target the connector's name (its platform account) or a {@link ConnectorTarget}
 * @param create builds a closed circuit for the account
 */
export function circuitOrNew<C extends RoutingCircuit>(target: string | ConnectorTarget, create: () => C): C {
  const key = healthKey(target);
  // Every circuit here was made by the one creator (the breaker's circuitFor), so it is a C.
  const existing = circuits.get(key) as C | undefined;
  if (existing) return existing;
  const circuit = create();
  circuits.set(key, circuit);
  return circuit;
}

/**
 * Forgets every circuit of this container (the next use creates them closed, with the environment's
 * settings then). For tests; a deployed container never needs it.
 */
export function resetCircuits(): void {
  circuits.clear();
}
