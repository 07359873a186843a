/**
 * An operation sent (or about to be sent) to a processor whose answer is not yet
 * recorded: the durable record written *before* the processor call, so a crash, a
 * timeout or a failed write after the call leaves a trace that the reconciler settles.
 */

/** Processor operations that move money and are recorded before the call. */
export const PENDING_OPERATION_KINDS = ['authorize', 'capture', 'void', 'refund'] as const;

/** One of {@link PENDING_OPERATION_KINDS}. */
export type PendingOperationKind = (typeof PENDING_OPERATION_KINDS)[number];

/**
 * The record of a processor call in flight, as stored on the payment (authorize,
 * capture, void) or the refund (refund) it concerns.
 * - `connector`: the processor called; `reference`: our id sent to it (payment or refund id);
 * - `amount`: minor units the call moves (the payment amount, the capture amount, the refund amount);
 * - `started_at`, `lease_expires_at`: ISO 8601 UTC. Until the lease expires the request that
 *   made the call may still be running and nobody else takes the operation over; after it the
 *   outcome is unknown and the reconciler (or a force_sync) asks the processor.
 */
export interface PendingOperation {
  operation: PendingOperationKind;
  connector: string;
  /** The merchant connector account called (`mca_…`); null or absent for the stage's own account of the connector. */
  merchant_connector_id?: string | null;
  reference: string;
  amount: number;
  started_at: string;
  lease_expires_at: string;
}

/**
 * A {@link PendingOperation} as the API shows it (`pending_operation` on payments and
 * refunds): `state` is `in_progress` while the lease runs, `outcome_unknown` after it
 * (the request that made the call ended without recording the processor's answer; the
 * reconciler is settling it).
 */
export interface PendingOperationView extends PendingOperation {
  merchant_connector_id: string | null;
  state: 'in_progress' | 'outcome_unknown';
}

/**
 * How long a claim protects a processor call: 120 000 ms. It must outlast the longest
 * request that can hold it — the API functions' 29 s Lambda timeout (API Gateway HTTP APIs
 * stop waiting at 30 s: https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html) —
 * and the longest a processor may keep working on a call we stopped waiting for (stripe-node's
 * default request timeout is 80 s; Flutterwave's server waits up to 28 s), so neither the
 * reconciler nor a retry takes over a call that may still be running.
 */
export const CLAIM_LEASE_MS = 120_000;

/**
 * A new pending-operation record starting now.
 * @param connector the connector's name (the stage's own account) or the account called ({@link ConnectorTarget})
 * @param amount minor units
 * @param leaseMs lease length in ms (default {@link CLAIM_LEASE_MS})
 */
export function startPendingOperation(
  operation: PendingOperationKind,
  connector: string | { readonly name: string; readonly merchantConnectorId: string | null },
  reference: string,
  amount: number,
  nowMs = Date.now(),
  leaseMs = CLAIM_LEASE_MS,
): PendingOperation {
  return {
    operation,
    connector: typeof connector === 'string' ? connector : connector.name,
    merchant_connector_id: typeof connector === 'string' ? null : connector.merchantConnectorId,
    reference,
    amount,
    started_at: new Date(nowMs).toISOString(),
    lease_expires_at: new Date(nowMs + leaseMs).toISOString(),
  };
}

/** Whether the request that holds this operation may still be running (its lease has not expired). */
export function leaseActive(op: PendingOperation, nowMs = Date.now()): boolean {
  return nowMs < Date.parse(op.lease_expires_at);
}

/** The API view of a stored pending operation (null stays null). */
export function viewPendingOperation(op: PendingOperation | null, nowMs = Date.now()): PendingOperationView | null {
  if (!op) return null;
  return {
    operation: op.operation,
    connector: op.connector,
    merchant_connector_id: op.merchant_connector_id ?? null,
    reference: op.reference,
    amount: op.amount,
    started_at: op.started_at,
    lease_expires_at: op.lease_expires_at,
    state: leaseActive(op, nowMs) ? 'in_progress' : 'outcome_unknown',
  };
}
