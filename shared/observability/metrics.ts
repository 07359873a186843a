import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Payment } from '../domain/payment';
import type { Refund } from '../domain/refund';

/**
 * Business metrics, emitted as CloudWatch EMF by Powertools Metrics in namespace
 * `POWERTOOLS_METRICS_NAMESPACE` (the stack sets `Switchyard/<stage>`). Flushed by
 * the `logMetrics` middleware at the end of each invocation. Locally and in tests
 * `POWERTOOLS_METRICS_DISABLED=true` keeps them off stdout.
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
   * back to a second connector counts two). Dimension sets: `{connector, outcome}` (what the
   * success-rate alarms read) and `{connector, currency, payment_method, outcome}` (the dashboard's
   * breakdown). `outcome` is one of {@link AUTHORIZATION_OUTCOMES}.
   */
  authorizations: 'Authorizations',
  /**
   * Processor calls (Count) by result, every operation (authorize, capture, void, refund, sync,
   * customer…). Dimension sets `{connector, outcome}` and `{connector, operation, outcome}`;
   * `outcome` is `ok` (the processor answered, a decline included) or `technical_error` (timeout,
   * network failure, 5xx, unparseable answer: {@link CONNECTOR_CALL_OUTCOMES}).
   */
  connectorCalls: 'ConnectorCalls',
  /**
   * Refunds by the result the processor gave (Count), dimension sets `{connector, outcome}`;
   * `outcome` is one of {@link REFUND_OUTCOMES}.
   */
  refundOutcomes: 'RefundOutcomes',
  /**
   * A connector's circuit breaker state as this container sees it (gauge, no unit): 0 closed,
   * 1 half-open, 2 open; emitted on every change, dimension `connector`.
   */
  circuitState: 'CircuitState',
  /** A connector skipped by routing because its circuit was open (Count), dimension `connector`. */
  circuitSkips: 'CircuitSkips',
} as const;

/** Values of the `outcome` dimension of `Authorizations`. */
export const AUTHORIZATION_OUTCOMES = ['succeeded', 'declined', 'technical_failure', 'unknown', 'requires_action'] as const;
/** Values of the `outcome` dimension of `ConnectorCalls`. */
export const CONNECTOR_CALL_OUTCOMES = ['ok', 'technical_error'] as const;
/** Values of the `outcome` dimension of `RefundOutcomes`. */
export const REFUND_OUTCOMES = ['succeeded', 'failed', 'pending', 'unknown'] as const;

function emit(name: string, value: number, unit: (typeof MetricUnit)[keyof typeof MetricUnit], dimensions: Record<string, string>): void {
  const single = metrics.singleMetric();
  for (const [k, v] of Object.entries(dimensions)) single.addDimension(k, v);
  single.addMetric(name, unit, value);
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
