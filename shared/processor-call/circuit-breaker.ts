/**
 * Health-aware routing: one circuit breaker per connector, kept in memory by each Lambda container
 * (docs/connectors.md, "Health-aware routing"). Built on cockatiel 3.2.1's `CircuitBreakerPolicy`
 * with a `ConsecutiveBreaker` (https://github.com/connor4312/cockatiel, README "circuitBreaker";
 * `node_modules/cockatiel/dist/CircuitBreakerPolicy.d.ts`): the circuit opens after
 * `CIRCUIT_FAILURE_THRESHOLD` consecutive technical failures, stays open `CIRCUIT_HALF_OPEN_AFTER_MS`,
 * then lets one probe call through (half-open): its success closes the circuit, its technical failure
 * opens it again for another period.
 *
 * What counts:
 * - a **technical failure** is a {@link ConnectorTechnicalError}: timeout (the processor's or the
 *   request's budget), network error, 5xx, an unreadable answer; a call abandoned with its outcome
 *   unknown counts as one (the payment's own handling is not changed by it);
 * - **any answer of the processor** — success, decline, pending, a 4xx refusal
 *   (`ConnectorRequestError`) — is a success for health: a run of declines never opens it;
 * - a read (`sync`, `sync_refund`, `find_refund`) counts when it fails technically but its answer does
 *   not reset the count: a processor whose charges time out while its lookups answer (each failed
 *   authorize is followed by a lookup by our reference) must still open;
 * - any other error (a bug of ours) counts neither way.
 *
 * Only routing ({@link ConnectorCircuit.routingView}, used by `routeCandidates` through shared/processor-call/circuit-registry.ts) acts on the state: calls on a payment
 * that already lives at a connector (capture, void, refund, sync, authentication steps) always go to
 * it — there is no other processor that could take them — and, while the circuit is not closed, are
 * neither blocked nor counted. A routed authorization always runs through the policy: it is the
 * half-open probe when one is due.
 */
import { BrokenCircuitError, type CircuitBreakerPolicy, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { ConnectorTechnicalError } from '../connectors/connector';
import { logger } from '../observability/logger';
import { recordCircuitState } from '../observability/metrics';
import { wholeNumberSetting } from '../settings/whole-number-setting';
import { circuitOrNew, type RoutingCircuit, type RoutingHealth } from './circuit-registry';
import { type ConnectorTarget, targetAccount, targetName } from './connector-target';

/** Consecutive technical failures that open a connector's circuit when `CIRCUIT_FAILURE_THRESHOLD` is not set. */
export const DEFAULT_CIRCUIT_FAILURE_THRESHOLD = 5;
/** Milliseconds an open circuit waits before one probe call when `CIRCUIT_HALF_OPEN_AFTER_MS` is not set. */
export const DEFAULT_CIRCUIT_HALF_OPEN_AFTER_MS = 30_000;

/** Operations that only read at the processor: their technical failures count, their answers do not reset the count. */
const READ_OPERATIONS: ReadonlySet<string> = new Set(['sync', 'sync_refund', 'find_refund']);

/** The settings of the circuits created from now on (read from the environment when a connector's circuit is first used). */
export interface CircuitSettings {
  /** Consecutive technical failures that open the circuit (≥ 1). */
  failureThreshold: number;
  /** Milliseconds from opening (or from a failed probe) to the next probe (≥ 1). */
  halfOpenAfterMs: number;
}

/** What `CircuitState` (the metric) reports: 0 closed, 1 half-open, 2 open. */
export type CircuitGauge = 0 | 1 | 2;

function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = wholeNumberSetting(raw, { min: 1 }, Number.NaN);
  if (!Number.isNaN(value)) return value;
  if (raw !== undefined && raw.trim() !== '') {
    logger.warn(`${name} is not a positive integer; the default is used`, { variable: name, default: fallback });
  }
  return fallback;
}

/**
 * The settings from the environment: `CIRCUIT_FAILURE_THRESHOLD` (default
 * {@link DEFAULT_CIRCUIT_FAILURE_THRESHOLD}) and `CIRCUIT_HALF_OPEN_AFTER_MS` (default
 * {@link DEFAULT_CIRCUIT_HALF_OPEN_AFTER_MS}); a value that is not a positive integer is logged and ignored.
 */
export function circuitSettings(): CircuitSettings {
  return {
    failureThreshold: positiveIntFromEnv('CIRCUIT_FAILURE_THRESHOLD', DEFAULT_CIRCUIT_FAILURE_THRESHOLD),
    halfOpenAfterMs: positiveIntFromEnv('CIRCUIT_HALF_OPEN_AFTER_MS', DEFAULT_CIRCUIT_HALF_OPEN_AFTER_MS),
  };
}

/** Whether an error is a technical failure for health (see the module's documentation). */
export function isTechnicalFailure(err: unknown): boolean {
  return err instanceof ConnectorTechnicalError;
}

/** cockatiel's state → the `CircuitState` metric's value. */
function gaugeOf(state: CircuitState): CircuitGauge {
  if (state === CircuitState.Closed) return 0;
  if (state === CircuitState.HalfOpen) return 1;
  return 2;
}

/** What a wrapped call produced, so only technical failures reach cockatiel as failures. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The circuit of one connector in this container. */
export class ConnectorCircuit implements RoutingCircuit {
  private readonly policy: CircuitBreakerPolicy;
  /** When the probe of the current open period was handed to a request by routing (epoch ms; 0: none). */
  private probeHandedOutAt = 0;

  /**
   * @param connector the connector's name (metric dimension, log field)
   * @param settings threshold and half-open delay
   * @param merchantConnectorId the merchant connector account this circuit guards, or null for the
   *   stage's own (platform) account of the connector
   */
  constructor(
    readonly connector: string,
    readonly settings: CircuitSettings,
    readonly merchantConnectorId: string | null = null,
  ) {
    this.policy = circuitBreaker(
      handleWhen((err) => isTechnicalFailure(err)),
      { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.failureThreshold) },
    );
    this.policy.onStateChange((state) => {
      recordCircuitState(connector, gaugeOf(state), merchantConnectorId);
      const fields = {
        connector,
        ...(merchantConnectorId ? { merchant_connector_id: merchantConnectorId } : {}),
        state: CircuitState[state],
        failure_threshold: settings.failureThreshold,
      };
      if (state === CircuitState.Open)
        logger.warn('connector circuit opened: routing skips it', { ...fields, half_open_after_ms: settings.halfOpenAfterMs });
      else logger.info('connector circuit changed state', fields);
    });
  }

  /** cockatiel's state: Closed, Open, HalfOpen (a probe is running) or Isolated (unused here). */
  get state(): CircuitState {
    return this.policy.state;
  }

  /** When the circuit last opened (epoch ms), or undefined when it is not open. From cockatiel's `toJSON()` snapshot. */
  private openedAt(): number | undefined {
    const snapshot = this.policy.toJSON() as { ownState?: { value?: CircuitState; openedAt?: number } };
    return snapshot.ownState?.value === CircuitState.Open && this.policy.state === CircuitState.Open
      ? snapshot.ownState.openedAt
      : undefined;
  }

  /**
   * How routing sees this connector at `now` (epoch ms). With `handOut` (the request will call this
   * connector first), a due probe is handed out and that is remembered: for one half-open period no
   * other request is routed here, so one probe goes through even when several requests of this
   * container route at once. A probe handed out but never called (the request ended first) is handed
   * out again after a period. Without `handOut` (a fallback further down the list) a due connector is
   * kept without taking the probe: if the fallback reaches it, that call is the probe.
   */
  routingView(now = Date.now(), handOut = true): RoutingHealth {
    const state = this.policy.state;
    if (state === CircuitState.Closed) return 'closed';
    const openedAt = this.openedAt();
    if (openedAt === undefined) return 'open'; // half-open: the probe is running
    const due = now - openedAt >= this.settings.halfOpenAfterMs && now - this.probeHandedOutAt >= this.settings.halfOpenAfterMs;
    if (!due) return 'open';
    if (handOut) this.probeHandedOutAt = now;
    return 'probe';
  }

  /**
   * Milliseconds until routing may send a probe here (0 when closed or due). For `Retry-After`.
   */
  retryAfterMs(now = Date.now()): number {
    if (this.policy.state === CircuitState.Closed) return 0;
    const openedAt = this.openedAt() ?? now;
    const from = Math.max(openedAt, this.probeHandedOutAt);
    return Math.max(0, from + this.settings.halfOpenAfterMs - now);
  }

  /**
   * Runs one processor call, counting it for health (see the module's documentation).
   * An `authorize` always runs through cockatiel: while closed it is counted; when the circuit is open
   * and a probe is due it is the probe (half-open); when it is open and not due (routing chose it just
   * before it opened) it is not sent.
   * @param operation the call's operation label (`authorize`, `capture`, `sync`…)
   * @returns what `call` returns
   * @throws ConnectorTechnicalError with `notSent` when an authorization meets an open circuit (nothing was sent);
   *   whatever `call` throws
   */
  async run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    const state = this.policy.state;
    if (operation !== 'authorize' && state !== CircuitState.Closed) return call();
    if (READ_OPERATIONS.has(operation)) {
      try {
        return await call();
      } catch (err) {
        // Counted as a failure without letting the read's answers reset the count.
        if (isTechnicalFailure(err) && this.policy.state === CircuitState.Closed) {
          await this.policy.execute(() => Promise.reject(err)).catch(() => undefined);
        }
        throw err;
      }
    }
    let outcome: Outcome<T>;
    try {
      outcome = await this.policy.execute(async (): Promise<Outcome<T>> => {
        try {
          return { ok: true, value: await call() };
        } catch (err) {
          if (isTechnicalFailure(err)) throw err;
          // The processor answered (a refusal), or a bug of ours: not a health failure.
          return { ok: false, error: err };
        }
      });
    } catch (err) {
      if (err instanceof BrokenCircuitError) {
        throw new ConnectorTechnicalError(
          this.connector,
          `${this.connector} was not called: its circuit opened after repeated technical failures.`,
          true,
        );
      }
      throw err;
    }
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  }
}

/**
 * The circuit of a connector account in this container, created on first use with {@link circuitSettings}
 * (kept in shared/processor-call/circuit-registry.ts, where routing reads it).
 * One circuit per merchant connector account (one merchant's failing account never opens another's),
 * and one per connector for the stage's own (platform) accounts.
 * @param target the connector's name (its platform account) or a {@link ConnectorTarget}
 */
export function circuitFor(target: string | ConnectorTarget): ConnectorCircuit {
  return circuitOrNew(target, () => new ConnectorCircuit(targetName(target), circuitSettings(), targetAccount(target)));
}
