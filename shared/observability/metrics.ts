import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Payment } from '../domain/payment';
import type { Refund } from '../domain/refund';

/**
 * The Powertools Metrics instance of the service, in namespace `POWERTOOLS_METRICS_NAMESPACE` (the
 * stack sets `Switchyard/<stage>`). The business metrics below do not go through it: each is written
 * at once as its own CloudWatch EMF blob by a reused emitter (`emitterFor`), so no end-of-invocation
 * flush is needed. Locally and in tests `POWERTOOLS_METRICS_DISABLED=true` keeps them off stdout.
 */
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'Switchyard',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard',
});

/** Metric names, shared with the dashboard in lib/ so they are written once. */
export const BUSINESS_METRICS = {
  paymentsCreated: 'PaymentsCreated',
  paymentsSucceeded: 'PaymentsSucceeded',
  paymentsFailed: 'PaymentsFailed',
  refunds: 'Refunds',
  refundedAmount: 'RefundedAmountMinor',
  connectorLatency: 'ConnectorLatency',
  /** Open operations seen by one reconciler run (gauge), dimension `kind` (payment, refund, customer_delete). */
  openOperations: 'OpenOperations',
  /** Age in seconds of the oldest open operation (gauge, from `started`), dimension `kind`. */
  oldestOpenOperationAge: 'OldestOpenOperationAgeSeconds',
  /** Operations the reconciler settled, dimensions `kind` and `outcome` (e.g. succeeded, failed, released, unchanged, error). */
  operationsSettled: 'OperationsSettled',
  /** Reconciler runs that failed as a whole (count). */
  reconcilerFailures: 'ReconcilerFailures',
  /**
   * A processor reports money that our record says is not there (a capture or success for a
   * cancelled or failed payment, a failure of a refund we recorded as succeeded), dimension
   * `connector`: an operator must settle it at the processor (docs/money-safety.md runbook).
   */
  moneyMismatch: 'MoneyMismatch',
  /**
   * Webhook delivery attempts, dimension `outcome`: `delivered` (2xx), `retrying` (failed, another
   * attempt scheduled), `failed` (failed, given up), `gone` (410: endpoint disabled).
   */
  webhookDeliveryAttempts: 'WebhookDeliveryAttempts',
  /** Duration of one webhook delivery attempt, milliseconds (no dimension). */
  webhookAttemptDuration: 'WebhookAttemptDuration',
  /** Delivery latency: from the event's `created_at` to its 2xx at an endpoint, seconds (no dimension). */
  webhookDeliveryLatency: 'WebhookDeliveryLatencySeconds',
  /**
   * Endpoints the delivery worker disabled, dimension `reason` (`failing` for 5 days, `gone`: 410).
   * The undelivered backlog and the age of the oldest undelivered event are the reconciler's
   * `OpenOperations` / `OldestOpenOperationAgeSeconds` with `kind = webhook_delivery`.
   */
  webhookEndpointsDisabled: 'WebhookEndpointsDisabled',
  /**
   * Processor webhook events acknowledged as unmatched (count), dimension `connector`: signed events
   * naming a payment or refund id of ours that exists nowhere here, after the bound of
   * docs/connectors.md "Webhooks" (each event counted once, with a `webhook event matches nothing`
   * log line naming it).
   */
  unmatchedWebhooks: 'UnmatchedWebhooks',
  /**
   * Authorization attempts at a processor by result (Count), one per attempt (a confirm that falls
   * back to a second connector counts two; each answer to an authentication step counts one). Dimension sets: `{connector, outcome}` (what the
   * success-rate alarms read) and `{connector, currency, payment_method, outcome}` (the dashboard's
   * breakdown). `outcome` is one of {@link AUTHORIZATION_OUTCOMES}.
   */
  authorizations: 'Authorizations',
  /**
   * The issuer's answers at a merchant's own connector account (one sample per `Authorizations` of outcome
   * `succeeded` or `declined` with a `merchant_connector_id`): 100 when approved, 0 when declined, so its Average over
   * a period is the account's authorization rate in percent. Dimension set `{connector, merchant_connector_id}`
   * (the dashboard's per-account panel reads it); none for the stage's own accounts.
   */
  accountAuthorizationRate: 'AccountAuthorizationRate',
  /**
   * The same answers as {@link BUSINESS_METRICS.accountAuthorizationRate}, each worth the approvals it leaves the
   * account short of {@link ACCOUNT_AUTHORIZATION_RATE_FLOOR}: `floor − 1` when approved (≤ 0), `floor` when
   * declined, so its Sum over a period is `attempts × (floor − rate)`: how many more approvals the period needed to
   * reach the floor (negative above it). The per-account alarm reads it: a rate alarm that needs volume to fire,
   * in one series (lib/monitoring/account-authorization-section.ts). Dimension set `{connector, merchant_connector_id}`.
   */
  accountAuthorizationShortfall: 'AccountAuthorizationShortfall',
  /**
   * Processor calls (Count) by result, every operation through `callWithinBudget` (authorize,
   * authenticate, capture, void, refund, sync, sync_refund, find_refund; the webhook handler's
   * re-verify calls are not among them). Dimension sets `{connector, outcome}` and `{connector, operation, outcome}`;
   * `outcome` is `ok` (the processor answered, a decline included) or `technical_error` (timeout,
   * network failure, 5xx, unparseable answer: {@link CONNECTOR_CALL_OUTCOMES}).
   */
  connectorCalls: 'ConnectorCalls',
  /**
   * Refunds by the result the processor gave (Count), dimension set `{connector, outcome}`;
   * `outcome` is one of {@link REFUND_OUTCOMES}: one count at the refund call, and one more
   * (`succeeded` or `failed`) when a pending or unknown refund is settled later ({@link recordRefundOutcome}).
   */
  refundOutcomes: 'RefundOutcomes',
  /**
   * Payouts that reached a final status (Count), dimension sets `{connector, outcome}` and `{connector,
   * merchant_connector_id, outcome}` (the per-account alarms read it); `outcome` is `succeeded`, `failed` or
   * `reversed`, counted once per payout and status ({@link recordPayoutOutcome}).
   */
  payoutOutcomes: 'PayoutOutcomes',
  /**
   * A connector's circuit breaker state as this container sees it (gauge, no unit): 0 closed,
   * 1 half-open, 2 open; emitted on every change, dimension `connector`.
   */
  circuitState: 'CircuitState',
  /** A connector skipped by routing because its circuit was open (Count), dimension `connector`. */
  circuitSkips: 'CircuitSkips',
  /**
   * A rate-limit lease write that failed (Count, no dimension): the request was admitted without a
   * lease (fail open, shared/http/rate-limit.ts; docs/rate-limits.md). Steady counts mean merchants are
   * not being limited.
   */
  rateLimiterErrors: 'RateLimiterErrors',
  /**
   * How long past its due time the most overdue webhook delivery is (gauge, seconds, no dimension),
   * from each reconciler run: the alarm "webhook deliveries overdue" reads it (docs/operations.md).
   * Unlike `OldestOpenOperationAgeSeconds` of kind `webhook_delivery` (since the delivery opened,
   * stretched by a merchant's failing endpoint over the whole retry schedule), it grows only when
   * due retries are not being sent.
   */
  oldestOverdueWebhookDelivery: 'OldestOverdueWebhookDeliverySeconds',
} as const;

/**
 * The authorization rate (a fraction, approvals / approvals and declines) under which a merchant connector account
 * falls short ({@link BUSINESS_METRICS.accountAuthorizationShortfall}). 0.5: card approval rates of healthy accounts
 * in our markets sit well above it (the simulator's accounts approve 85–92 %, docs/routing.md), so an account
 * approving fewer than half of its issuer answers is broken for the merchant (keys, a processor-side block, an issuer
 * outage), not having an ordinary day.
 */
export const ACCOUNT_AUTHORIZATION_RATE_FLOOR = 0.5;

/** Values of the `outcome` dimension of `Authorizations`. */
export const AUTHORIZATION_OUTCOMES = ['succeeded', 'declined', 'technical_failure', 'unknown', 'requires_action'] as const;
/** Values of the `outcome` dimension of `ConnectorCalls`. */
export const CONNECTOR_CALL_OUTCOMES = ['ok', 'technical_error'] as const;
/** Values of the `outcome` dimension of `RefundOutcomes`. */
export const REFUND_OUTCOMES = ['succeeded', 'failed', 'pending', 'unknown'] as const;

/** One of {@link AUTHORIZATION_OUTCOMES}. */
export type AuthorizationOutcome = (typeof AUTHORIZATION_OUTCOMES)[number];
/** One of {@link CONNECTOR_CALL_OUTCOMES}. */
export type ConnectorCallOutcome = (typeof CONNECTOR_CALL_OUTCOMES)[number];
/** One of {@link REFUND_OUTCOMES}. */
export type RefundOutcome = (typeof REFUND_OUTCOMES)[number];

/** Most emitter instances kept ({@link emitterFor}); each is a few hundred bytes. */
const MAX_EMITTERS = 256;
const emitters = new Map<string, Metrics>();

/**
 * A reusable Powertools Metrics instance whose default dimensions are `service` plus `common`, for
 * emitting one metric at a time: add, then `publishStoredMetrics()` at once (which writes one EMF blob
 * and clears the instance's dimensions and metrics, keeping its defaults). `metrics.singleMetric()`
 * builds a new instance per metric (a new `Console`, the environment read again): measured on Node 20,
 * 55 µs per metric with metrics disabled and 205 µs enabled, against 5 and 32 µs for a reused one
 * (20,000 emits each way; docs/benchmarks.md "Cold start and warm overhead: where the targets stand"). Instances
 * are cached per dimension values (connectors, currencies, outcomes, kinds: a few dozen) and per `POWERTOOLS_METRICS_DISABLED`
 * (read by Powertools when an instance is built), at most {@link MAX_EMITTERS}.
 */
function emitterFor(common: Record<string, string>): Metrics {
  const key = `${process.env.POWERTOOLS_METRICS_DISABLED ?? ''}\u0000${JSON.stringify(common)}`;
  let emitter = emitters.get(key);
  if (!emitter) {
    emitter = new Metrics({
      namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'Switchyard',
      serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard',
      defaultDimensions: common,
    });
    if (emitters.size >= MAX_EMITTERS) emitters.delete(emitters.keys().next().value as string);
    emitters.set(key, emitter);
  }
  return emitter;
}

/** Emits one metric with one dimension set (`service` plus `dimensions`): {@link emitWithSets} without extra sets. */
function emit(name: string, value: number, unit: (typeof MetricUnit)[keyof typeof MetricUnit], dimensions: Record<string, string>): void {
  emitWithSets(name, value, unit, dimensions, []);
}

/**
 * Emits one metric under several dimension sets in **one** EMF blob: `common` (plus `service`) as
 * the first set, and `common` plus each of `extra` as the next ones. Powertools 2.35 gives every
 * `addDimensions()` call its own dimension set (`Dimensions` holds one array per set); sets that
 * repeat a key (`connector` in both) make its serializer warn on every flush ("EMF key … is defined
 * as both a dimension set and dimension set"), so the keys of every set are the default dimensions
 * of the emitter ({@link emitterFor}) and each set adds only its own keys (an empty set is the defaults
 * alone). The blob has each key once at its root, as EMF wants.
 */
function emitWithSets(
  name: string,
  value: number,
  unit: (typeof MetricUnit)[keyof typeof MetricUnit],
  common: Record<string, string>,
  extra: Record<string, string>[],
): void {
  const emitter = emitterFor(common);
  emitter.addDimensions({});
  for (const set of extra) emitter.addDimensions(set);
  emitter.addMetric(name, unit, value);
  emitter.publishStoredMetrics();
}

/** Counts a created payment, by currency and connector. */
export function recordPaymentCreated(payment: Payment): void {
  emit(BUSINESS_METRICS.paymentsCreated, 1, MetricUnit.Count, { currency: payment.currency, connector: payment.connector });
}

/** Counts a payment that reached `Succeeded` or `Failed`, by currency and connector; other statuses emit nothing. */
export function recordPaymentOutcome(payment: Payment): void {
  const name =
    payment.status === 'Succeeded'
      ? BUSINESS_METRICS.paymentsSucceeded
      : payment.status === 'Failed'
        ? BUSINESS_METRICS.paymentsFailed
        : undefined;
  if (name) emit(name, 1, MetricUnit.Count, { currency: payment.currency, connector: payment.connector });
}

/** Counts a refund and adds its amount (minor units), by currency. */
export function recordRefund(refund: Refund): void {
  emit(BUSINESS_METRICS.refunds, 1, MetricUnit.Count, { currency: refund.currency });
  emit(BUSINESS_METRICS.refundedAmount, refund.amount, MetricUnit.Count, { currency: refund.currency });
}

/** Records how long one connector call took, in milliseconds, by connector and operation. */
export function recordConnectorLatency(connector: string, operation: string, milliseconds: number): void {
  emit(BUSINESS_METRICS.connectorLatency, milliseconds, MetricUnit.Milliseconds, { connector, operation });
}

/**
 * Runs a connector call and records its latency whether it succeeds or throws.
 * @returns what `call` returns
 */
export async function timedConnectorCall<T>(connector: string, operation: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    recordConnectorLatency(connector, operation, Math.round(performance.now() - started));
  }
}

/**
 * Records the open-operation gauges of one reconciler run for one kind: how many are
 * open (count) and the age of the oldest (seconds).
 */
export function recordOpenOperations(kind: string, open: number, oldestAgeSeconds: number): void {
  emit(BUSINESS_METRICS.openOperations, open, MetricUnit.Count, { kind });
  emit(BUSINESS_METRICS.oldestOpenOperationAge, oldestAgeSeconds, MetricUnit.Seconds, { kind });
}

/** Counts one open operation handled by the reconciler, by kind and outcome. */
export function recordOperationSettled(kind: string, outcome: string): void {
  emit(BUSINESS_METRICS.operationsSettled, 1, MetricUnit.Count, { kind, outcome });
}

/** Counts a reconciler run that failed as a whole (the index could not be read). */
export function recordReconcilerFailure(): void {
  emit(BUSINESS_METRICS.reconcilerFailures, 1, MetricUnit.Count, {});
}

/** Counts one processor report that contradicts a closed payment or refund, by connector (an operator must act). */
export function recordMoneyMismatch(connector: string): void {
  emit(BUSINESS_METRICS.moneyMismatch, 1, MetricUnit.Count, { connector });
}

/**
 * Records one webhook delivery attempt: its outcome (`delivered`, `retrying`, `failed`, `gone`)
 * and its duration (milliseconds); for a delivered one also the latency since the event was
 * created (seconds).
 * @param eventCreatedAt ISO 8601 UTC of the event, for the delivery latency
 */
export function recordWebhookAttempt(outcome: string, durationMs: number, eventCreatedAt?: string): void {
  emit(BUSINESS_METRICS.webhookDeliveryAttempts, 1, MetricUnit.Count, { outcome });
  emit(BUSINESS_METRICS.webhookAttemptDuration, durationMs, MetricUnit.Milliseconds, {});
  const created = eventCreatedAt ? Date.parse(eventCreatedAt) : Number.NaN;
  if (outcome === 'delivered' && Number.isFinite(created)) {
    emit(BUSINESS_METRICS.webhookDeliveryLatency, Math.max(0, (Date.now() - created) / 1000), MetricUnit.Seconds, {});
  }
}

/** Counts an endpoint disabled by the delivery worker, by reason (`failing`, `gone`). */
export function recordWebhookEndpointDisabled(reason: 'failing' | 'gone'): void {
  emit(BUSINESS_METRICS.webhookEndpointsDisabled, 1, MetricUnit.Count, { reason });
}

/**
 * Counts one authorization attempt at a processor ({@link BUSINESS_METRICS.authorizations}), under
 * the dimension sets `{connector, outcome}` and `{connector, currency, payment_method, outcome}` in
 * one EMF blob. Emitted where the processor's answer to an authorize (confirm, routing fallbacks
 * included: one per connector tried) or to an authentication step (PIN, OTP…) is known. The outcome,
 * by what the attempt ended with:
 * - `succeeded`: authorized (`Succeeded`, or `RequiresCapture` for manual capture);
 * - `declined`: the processor said no (`Failed`, `Cancelled`, or refused the request with a 4xx);
 * - `requires_action`: the payer must act (another step, a 3DS page, a mobile-money prompt: `RequiresAction`,
 *   or `Processing` with a `next_action`);
 * - `technical_failure`: the processor could not be used and holds nothing (the request was not sent,
 *   or its lookup by our reference found nothing, so routing fell back);
 * - `unknown`: the request was sent and no answer came (timeout after sending, 5xx), or the processor
 *   answered `Processing` with nothing for the payer to do: the reconciler settles it.
 * No card data, amount or id is a dimension.
 * @param currency ISO 4217 code of the payment
 * @param paymentMethod `card`, `bank_transfer`, `ussd` or `mobile_money`
 */
export function recordAuthorization(
  connector: string,
  currency: string,
  paymentMethod: string,
  outcome: AuthorizationOutcome,
  merchantConnectorId: string | null = null,
): void {
  emitWithSets(BUSINESS_METRICS.authorizations, 1, MetricUnit.Count, { connector, outcome }, [
    { currency, payment_method: paymentMethod },
    ...accountSet(merchantConnectorId),
  ]);
  if (merchantConnectorId && (outcome === 'succeeded' || outcome === 'declined')) {
    recordAccountAuthorization(connector, merchantConnectorId, outcome === 'succeeded');
  }
}

/**
 * The issuer's answer at a merchant's own account as {@link BUSINESS_METRICS.accountAuthorizationRate} (100 or 0)
 * and {@link BUSINESS_METRICS.accountAuthorizationShortfall} (`floor − 1` or `floor`), in one EMF blob with the
 * dimension set `{service, connector, merchant_connector_id}` only.
 */
function recordAccountAuthorization(connector: string, merchantConnectorId: string, approved: boolean): void {
  // The account as the blob's one added set (no `addDimensions({})`): one set, `{service, connector,
  // merchant_connector_id}`, no per-connector series mixing merchants; one emitter per connector, not per account.
  const emitter = emitterFor({ connector });
  emitter.addDimensions({ merchant_connector_id: merchantConnectorId });
  emitter.addMetric(BUSINESS_METRICS.accountAuthorizationRate, MetricUnit.Percent, approved ? 100 : 0);
  emitter.addMetric(
    BUSINESS_METRICS.accountAuthorizationShortfall,
    MetricUnit.Count,
    approved ? ACCOUNT_AUTHORIZATION_RATE_FLOOR - 1 : ACCOUNT_AUTHORIZATION_RATE_FLOOR,
  );
  emitter.publishStoredMetrics();
}

/**
 * The extra dimension set `{merchant_connector_id}` (added to the common `{connector, outcome}`) of a
 * call on a merchant's own connector account: per-account health for alarms and dashboards
 * (lib/monitoring/connector-accounts-section.ts); none for the stage's own (platform) accounts.
 */
function accountSet(merchantConnectorId: string | null): Record<string, string>[] {
  return merchantConnectorId ? [{ merchant_connector_id: merchantConnectorId }] : [];
}

/**
 * Counts one processor call ({@link BUSINESS_METRICS.connectorCalls}) of any operation, under the
 * dimension sets `{connector, outcome}` and `{connector, operation, outcome}` in one EMF blob.
 * `outcome` is `ok` when the processor answered (a result, a decline, a 4xx refusal) and
 * `technical_error` otherwise (timeout — the processor's or the request's budget —, network error,
 * 5xx, an unreadable answer). Emitted by `callWithinBudget` (shared/processor-call/connector-call.ts) next
 * to `ConnectorLatency`; a call the circuit breaker did not let through is not a call and is not counted.
 * @param operation the call's label, e.g. `authorize`, `authenticate`, `capture`, `void`, `refund`, `sync`, `sync_refund`, `find_refund`
 */
export function recordConnectorCall(
  connector: string,
  operation: string,
  outcome: ConnectorCallOutcome,
  merchantConnectorId: string | null = null,
): void {
  emitWithSets(BUSINESS_METRICS.connectorCalls, 1, MetricUnit.Count, { connector, outcome }, [
    { operation },
    ...accountSet(merchantConnectorId),
  ]);
}

/**
 * Counts a processor's answer about a refund ({@link BUSINESS_METRICS.refundOutcomes}), dimension set
 * `{connector, outcome}`. At the refund call (shared/operations/refunds/refund-operations.ts): `succeeded`,
 * `pending`, `failed` (declined, or refused with a 4xx: nothing refunded) or `unknown` (technical
 * failure: the reconciler finds it by our id). When the reconciler or a `force_sync` settles a
 * pending or unknown refund (shared/operations/refunds/refund-sync.ts): `succeeded` or `failed` (declined, or
 * known absent at the processor); a refund still pending there is not counted again.
 */
export function recordRefundOutcome(connector: string, outcome: RefundOutcome): void {
  emit(BUSINESS_METRICS.refundOutcomes, 1, MetricUnit.Count, { connector, outcome });
}

/**
 * Counts one payout reaching a final status ({@link BUSINESS_METRICS.payoutOutcomes}): emitted after the conditional
 * write that moved it (shared/operations/payouts), so a webhook and the reconciler racing count once.
 * @param status `Succeeded`, `Failed` or `Reversed`
 */
export function recordPayoutOutcome(
  connector: string,
  merchantConnectorId: string | null,
  status: 'Succeeded' | 'Failed' | 'Reversed',
): void {
  emitWithSets(
    BUSINESS_METRICS.payoutOutcomes,
    1,
    MetricUnit.Count,
    { connector, outcome: status.toLowerCase() },
    accountSet(merchantConnectorId),
  );
}

/**
 * Records a connector's circuit breaker state in this container ({@link BUSINESS_METRICS.circuitState},
 * a gauge with no unit, dimension `connector`): 0 closed, 1 half-open (one probe call running), 2 open
 * (routing skips it). Emitted on every change by shared/processor-call/circuit-breaker.ts; between changes the
 * last value holds (use the maximum over a period on a dashboard: any container that sees it open).
 */
export function recordCircuitState(connector: string, state: 0 | 1 | 2, merchantConnectorId: string | null = null): void {
  emitWithSets(BUSINESS_METRICS.circuitState, state, MetricUnit.NoUnit, { connector }, accountSet(merchantConnectorId));
}

/**
 * Counts a connector routing passed over because its circuit was open ({@link BUSINESS_METRICS.circuitSkips},
 * dimension `connector`): once per routing decision that skipped it, whether another connector took the
 * payment (recorded in its `attempts` as `circuit_open`) or none could (503 `connector_unavailable`).
 */
export function recordCircuitSkip(connector: string): void {
  emit(BUSINESS_METRICS.circuitSkips, 1, MetricUnit.Count, { connector });
}

/** Counts one failed rate-limit lease ({@link BUSINESS_METRICS.rateLimiterErrors}); the request it served was admitted. */
export function recordRateLimiterError(): void {
  emit(BUSINESS_METRICS.rateLimiterErrors, 1, MetricUnit.Count, {});
}

/** Records the reconciler's overdue gauge for webhook deliveries ({@link BUSINESS_METRICS.oldestOverdueWebhookDelivery}), seconds (0 when none is due). */
export function recordOverdueWebhookDelivery(seconds: number): void {
  emit(BUSINESS_METRICS.oldestOverdueWebhookDelivery, seconds, MetricUnit.Seconds, {});
}
