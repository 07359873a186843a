import { ApiError } from '../../domain/errors';
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import type { RoutingApproach } from '../../domain/routing-algorithm';
import { recordCircuitSkip } from '../../observability/metrics';
import { existingCircuit } from '../../processor-call/circuit-registry';
import { configuredConnector } from '../../processor-call/connector-registry';
import { RoutedConnector } from '../../processor-call/connector-target';
import { connectorsFor, type RoutingRule } from './routing-rules';

export type { RoutingRule } from './routing-rules';

/** A qualifying connector routing passed over because its circuit was open (shared/processor-call/circuit-breaker.ts). */
export interface CircuitSkip {
  /** The connector's name; it was not called. */
  connector: string;
  /** The connector account passed over (`mca_…`), or null for the stage's own account. */
  merchantConnectorId: string | null;
  /** ISO 8601 UTC: when routing decided. */
  at: string;
  /** Milliseconds until a probe may be sent to it (its half-open delay left). */
  retryAfterMs: number;
}

/**
 * Why routing put a candidate where it is, for its attempt: `routing_approach`, and the success-rate segment
 * its outcome counts in (null when success rate did not order it).
 */
export interface CandidateRouting {
  approach: RoutingApproach;
  segment: string | null;
}

/**
 * The connectors to try, in routing order (at least one), carrying in `skipped` the qualifying
 * connectors passed over because their circuit was open, in routing order (empty when none):
 * `authorizeClaimed` records each as an attempt with `error_code: circuit_open`. `routing`, when given, says
 * why each candidate (and each skipped one) is there, by `healthKey` (shared/processor-call/connector-target.ts: the account id, or the connector
 * name for the stage's own account).
 */
export type RoutedCandidates = [RoutedConnector, ...RoutedConnector[]] & {
  readonly skipped: readonly CircuitSkip[];
  readonly routing?: ReadonlyMap<string, CandidateRouting>;
};

/**
 * 503 `connector_error/connector_unavailable`: every connector that could take the payment has its
 * circuit open (repeated technical failures in this container) and none is due for its probe.
 * Nothing was created, changed or sent. Transient (never stored for `Idempotency-Key` replay: a
 * retry routes again). `retryAfterSeconds` is when the first of them may be probed, for `Retry-After`.
 */
export class ConnectorUnavailableError extends ApiError {
  /**
   * @param connectors the connectors skipped, in routing order
   * @param retryAfterSeconds whole seconds until one of them may be probed (≥ 1)
   */
  constructor(
    readonly connectors: readonly string[],
    readonly retryAfterSeconds: number,
  ) {
    super(
      503,
      'connector_error',
      'connector_unavailable',
      `No connector can take this payment right now: ${connectors.join(', ')} ${connectors.length > 1 ? 'are' : 'is'} failing (repeated timeouts or errors). Nothing was changed and nothing was sent; retry in ${retryAfterSeconds} s.`,
    );
    this.name = 'ConnectorUnavailableError';
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
    this.asTransient();
  }

  /** The response headers of this refusal: `Retry-After` (seconds), as `RateLimitExceededError.headers` carries its own. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Options of {@link routeCandidates}. */
export interface RouteOptions {
  /** USSD: the payer's bank (CBN code); connectors that do not serve it are left out. */
  ussdBankCode?: string | undefined;
  /**
   * Whether connectors with an open circuit are passed over (default true: the routing of an
   * authorization). False for a routing that calls no processor (a create without confirm), so a
   * failing processor never refuses it and no probe is handed out.
   */
  respectCircuits?: boolean;
}

/**
 * The connectors that can take a payment, in routing order: the matching rule's
 * list, keeping those that are configured and support the currency and method (and, for USSD,
 * the payer's bank: `options.ussdBankCode`).
 * `preferred` (the connector chosen at create) goes first when it qualifies.
 *
 * Health-aware (docs/connectors.md "Health-aware routing"): a qualifying connector whose circuit is
 * open in this container is passed over (listed in `skipped`, counted in `CircuitSkips`) when
 * another qualifies; one whose half-open probe is due is kept, in its place (this request is the
 * probe). When every qualifying connector is open and none is due, nothing can take the payment now.
 * @returns at least one connector, with `skipped`
 * @throws ApiError 400 `no_connector_available` when none can take the payment
 * @throws ConnectorUnavailableError (503 `connector_unavailable`, transient, with `retryAfterSeconds`)
 *   when every connector that could take it has its circuit open
 */
export async function routeCandidates(
  currency: Currency,
  paymentMethod: PaymentMethod | undefined,
  preferred?: string,
  rules?: readonly RoutingRule[],
  options: RouteOptions = {},
): Promise<RoutedCandidates> {
  const bank = options.ussdBankCode ? { ussdBankCode: options.ussdBankCode } : undefined;
  const names = connectorsFor(currency, paymentMethod, rules);
  const ordered = preferred && names.includes(preferred) ? [preferred, ...names.filter((n) => n !== preferred)] : names;
  const out: RoutedConnector[] = [];
  for (const name of ordered) {
    const connector = await configuredConnector(name);
    if (connector && (paymentMethod === undefined || connector.supports(currency, paymentMethod, bank)))
      out.push(new RoutedConnector(connector, null));
  }
  if (!out[0]) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'no_connector_available',
      bank
        ? `No connector serves USSD payments from this bank (payment_method_data.ussd.bank_code). Choose another bank; docs/connectors.md lists the banks each processor serves.`
        : `No connector is configured for ${currency}${paymentMethod ? ` ${paymentMethod}` : ''} payments. Use another currency or payment_method.`,
      bank ? 'payment_method_data.ussd.bank_code' : paymentMethod ? 'payment_method' : 'currency',
    );
  }
  return withoutOpenCircuits(out as [RoutedConnector, ...RoutedConnector[]], options.respectCircuits ?? true);
}

/**
 * Passes over the connector accounts whose circuit is open (see {@link routeCandidates}): one circuit
 * per merchant connector account, one per connector for the stage's own accounts.
 * @param qualifying the accounts that can take the payment, in routing order
 * @param respect false to keep them all (a routing that calls no processor)
 * @throws ConnectorUnavailableError when all are open and none is due for its probe
 */
export function withoutOpenCircuits(qualifying: [RoutedConnector, ...RoutedConnector[]], respect: boolean): RoutedCandidates {
  if (!respect) return Object.assign(qualifying, { skipped: [] as CircuitSkip[] });
  const now = Date.now();
  const at = new Date(now).toISOString();
  const kept: RoutedConnector[] = [];
  const skipped: CircuitSkip[] = [];
  for (const connector of qualifying) {
    // No circuit yet: this container never called the account, so it is closed.
    const circuit = existingCircuit(connector);
    // The probe is handed out only to the request that will call this connector first.
    if (circuit && circuit.routingView(now, kept.length === 0) === 'open')
      skipped.push({
        connector: connector.name,
        merchantConnectorId: connector.merchantConnectorId,
        at,
        retryAfterMs: circuit.retryAfterMs(now),
      });
    else kept.push(connector);
  }
  for (const skip of skipped) recordCircuitSkip(skip.connector);
  const [first, ...rest] = kept;
  if (!first) {
    const soonest = Math.min(...skipped.map((s) => s.retryAfterMs));
    throw new ConnectorUnavailableError(
      skipped.map((s) => s.connector),
      Math.max(1, Math.ceil(soonest / 1000)),
    );
  }
  return Object.assign([first, ...rest] as [RoutedConnector, ...RoutedConnector[]], { skipped });
}
