/**
 * A circuit per webhook endpoint, kept in memory by each delivery worker container, so
 * an endpoint that keeps timing out gets a circuit of its own (docs/api.md "Webhook delivery"). Built on cockatiel 3.2.1's
 * `circuitBreaker` with a `ConsecutiveBreaker` (https://github.com/connor4312/cockatiel, README
 * "circuitBreaker"), as the connectors' circuits are (shared/processor-call/circuit-breaker.ts).
 *
 * What counts as a failure: an attempt that got no answer at all (timeout, refused or reset
 * connection, DNS failure): those are what hold a worker for up to the delivery timeout. Any
 * HTTP answer, even a 5xx, is quick and counts as a success for the circuit (the delivery itself
 * is still retried on its schedule). After {@link ENDPOINT_CIRCUIT_THRESHOLD} consecutive failures
 * the circuit opens: attempts are not made for {@link ENDPOINT_CIRCUIT_HALF_OPEN_AFTER_MS}, and are
 * recorded as failed attempts saying so (the retry schedule goes on); then one attempt is let
 * through (half-open) and its answer closes the circuit, its failure opens it again.
 */
import { BrokenCircuitError, type CircuitBreakerPolicy, ConsecutiveBreaker, circuitBreaker, handleType } from 'cockatiel';
import type { SendResult } from './delivery';

/** Consecutive attempts without an answer that open an endpoint's circuit: 3. */
export const ENDPOINT_CIRCUIT_THRESHOLD = 3;
/** How long an endpoint's open circuit skips attempts before one probe: 30 000 ms. */
export const ENDPOINT_CIRCUIT_HALF_OPEN_AFTER_MS = 30_000;
/** Most endpoints' circuits one container keeps (the least recently used is forgotten, closed): 2 000. */
export const MAX_ENDPOINT_CIRCUITS = 2_000;

/** The error recorded on an attempt skipped by an open circuit. */
export const CIRCUIT_OPEN_ERROR = `not sent: the endpoint gave no answer to ${ENDPOINT_CIRCUIT_THRESHOLD} attempts in a row; sending resumes after a pause`;

class NoAnswer extends Error {
  constructor(readonly result: SendResult) {
    super('no answer');
  }
}

const circuits = new Map<string, CircuitBreakerPolicy>();

function circuitOf(endpointId: string): CircuitBreakerPolicy {
  let policy = circuits.get(endpointId);
  if (policy) {
    // Most recently used last: the Map's insertion order is the eviction order.
    circuits.delete(endpointId);
  } else {
    policy = circuitBreaker(handleType(NoAnswer), {
      halfOpenAfter: ENDPOINT_CIRCUIT_HALF_OPEN_AFTER_MS,
      breaker: new ConsecutiveBreaker(ENDPOINT_CIRCUIT_THRESHOLD),
    });
    if (circuits.size >= MAX_ENDPOINT_CIRCUITS) {
      const oldest = circuits.keys().next().value;
      if (oldest !== undefined) circuits.delete(oldest);
    }
  }
  circuits.set(endpointId, policy);
  return policy;
}

/**
 * Runs one attempt through the endpoint's circuit.
 * @param endpointId `we_…`
 * @param send the attempt ({@link SendResult}; never throws)
 * @returns the attempt's result, or `circuit_open` when the circuit skipped it (nothing was sent)
 */
export async function sendThroughCircuit(endpointId: string, send: () => Promise<SendResult>): Promise<SendResult | 'circuit_open'> {
  try {
    return await circuitOf(endpointId).execute(async () => {
      const result = await send();
      if (result.attempt.http_status === null && result.outcome === 'failed') throw new NoAnswer(result);
      return result;
    });
  } catch (err) {
    if (err instanceof NoAnswer) return err.result;
    if (err instanceof BrokenCircuitError) return 'circuit_open';
    throw err;
  }
}

/** Forgets every endpoint's circuit (tests). */
export function resetEndpointCircuits(): void {
  circuits.clear();
}
