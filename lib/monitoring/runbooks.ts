/** The runbook every alarm description points to (an anchor of it per alarm: {@link RUNBOOK}). */
export const RUNBOOK_DOC = 'docs/operations.md';

/**
 * Anchors of docs/operations.md, one runbook section per alarm (GitHub's heading slugs; the
 * template tests check each exists in the file).
 */
export const RUNBOOK = {
  connectorSuccessRate: 'connector-success-rate-below-its-usual-level',
  connectorTechnicalErrors: 'connector-technical-error-rate-high',
  accountAuthorizationRate: 'authorization-rate-of-a-connector-account-low',
  openOperationAge: 'operation-open-longer-than-30-minutes',
  webhookBacklog: 'webhook-deliveries-stuck',
  webhookOverdue: 'webhook-deliveries-overdue',
  merchantWebhookFailures: 'a-merchants-webhook-endpoints-are-failing',
  refundFailures: 'refunds-failing-at-the-processor',
  payoutFailures: 'payouts-failing-or-reversed',
  moneyMismatch: 'money-mismatch',
  healthCanary: 'health-canary-failing',
  sandboxPaymentCanary: 'sandbox-payment-canary-failing',
  renewals: 'renewals',
  disputes: 'disputes-of-a-connector-account',
} as const;

/** `Runbook: docs/operations.md#<anchor>`, the last sentence of every business alarm's description. */
export const runbookRef = (anchor: string): string => `Runbook: ${RUNBOOK_DOC}#${anchor}`;
