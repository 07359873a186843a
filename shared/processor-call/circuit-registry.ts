import type { ConnectorCircuit } from './circuit-breaker';
import { type ConnectorTarget, healthKey } from './connector-target';

/**
 * The connector circuits of this container (shared/processor-call/circuit-breaker.ts), by health key
 * (`healthKey`: one per merchant connector account, one per connector for the stage's own accounts).
 * Apart from the breaker so that routing can read a circuit without loading cockatiel: a connector
 * account this container has never called through the breaker has no circuit (a call started with less
 * than `MIN_BUDGET_FOR_HEALTH_MS` of its request left bypasses it), and routing treats it as closed —
 * which is what a new circuit would say. The breaker module (loaded with the first processor call) creates them.
 */
const circuits = new Map<string, ConnectorCircuit>();

/**
 * The circuit of a connector account if this container has one (it has called the account).
 * @param target the connector's name (its platform account) or a {@link ConnectorTarget}
 * @returns undefined when no call to the account went through the breaker in this container (its circuit is closed)
 */
export function existingCircuit(target: string | ConnectorTarget): ConnectorCircuit | undefined {
  return circuits.get(healthKey(target));
}

/**
 * The circuit of a connector account, created with `create` when this container has none yet.
 * @param target the connector's name (its platform account) or a {@link ConnectorTarget}
 * @param create builds a closed circuit for the account
 */
export function circuitOrNew(target: string | ConnectorTarget, create: () => ConnectorCircuit): ConnectorCircuit {
  const key = healthKey(target);
  let circuit = circuits.get(key);
  if (!circuit) {
    circuit = create();
    circuits.set(key, circuit);
  }
  return circuit;
}

/**
 * Forgets every circuit of this container (the next use creates them closed, with the environment's
 * settings then). For tests; a deployed container never needs it.
 */
export function resetCircuits(): void {
  circuits.clear();
}
