/**
 * An operation sent (or about to be sent) to a processor whose answer is not yet
 * recorded: the durable record written *before* the processor call, so a crash, a
 * timeout or a failed write after the call leaves a trace that the reconciler settles.
 */

/** Processor operations that move money and are recorded before the call. */
export const PENDING_OPERATION_KINDS = ['authorize', 'capture', 'void', 'refund', 'payout'] as const;

/** One of {@link PENDING_OPERATION_KINDS}. */
export type PendingOperationKind = (typeof PENDING_OPERATION_KINDS)[number];

/**
 * The record of a processor call in flight, as stored on the payment (authorize,
 * capture, void), the refund (refund) or the payout (payout: its send, or its OTP) it concerns.
 * - `connector`: the processor called; `reference`: our id sent to it (payment or refund id);
 * - `amount`: minor units the call moves (the payment amount, the capture amount, the refund amount);
 * - `started_at`, `lease_expires_at`: ISO 8601 UTC. Until the lease expires the request that
 *   made the call may still be running and nobody else takes the operation over; after it the
 *   outcome is unknown and the reconciler (or a force_sync, or a keyed retry) asks the processor.
 * - `request`: set when the request that made the call carried an `Idempotency-Key`: a keyed hash of
 *   (merchant, payment, operation, key) that lets that request's retry recognise the call as its own
 *   (`requestToken` in shared/operations/payments/payment-state.ts). Never shown by the API.
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
  /** The keyed hash naming the keyed request that made the call; absent for a request without `Idempotency-Key`. */
  request?: string;
}

/**
 * A {@link PendingOperation} as the API shows it (`pending_operation` on payments and
 * refunds): `state` is `in_progress` while the lease runs, `outcome_unknown` after it
 * (the request that made the call ended without recording the processor's answer; the
 * reconciler is settling it).
 */
export interface PendingOperationView extends Omit<PendingOperation, 'request'> {
  merchant_connector_id: string | null;
  state: 'in_progress' | 'outcome_unknown';
}

/**
 * The longest an API function can run, in ms: 29 000, the stages' `lambdaTimeoutSeconds`
 * (lib/config/stage-config.ts; test/unit/convergence-bounds.test.ts fails if a stage or a route sets a
 * longer one). API Gateway HTTP APIs stop waiting after 30 s
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html), and Lambda stops an
 * invocation at its timeout and resets its execution environment (Lambda developer guide, "Understanding the
 * Lambda execution environment lifecycle", failures in the Invoke phase:
 * https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html), so no code of a request runs
 * after it.
 */
export const API_FUNCTION_TIMEOUT_MS = 29_000;

/**
 * Time a claim outlives the request that holds it, in ms: 3 000. It covers the clocks of two Lambda
 * hosts (the holder wrote the lease by its clock, another request or the reconciler reads it by its own;
 * AWS hosts keep time with the Amazon Time Sync Service, whose error is of the order of milliseconds — EC2
 * user guide, "Set the time reference on your EC2 instance" — so 3 s is a wide bound) and the last write the holder sent
 * just before its end. A write landing after the lease is harmless anyway: every write is conditional on
 * the version (payments) or the `Pending` status (refunds) read before it, so a late write of the holder
 * and a takeover cannot both apply. It is not there for the processor: a processor may keep working on a
 * call after we stopped waiting, and that is covered where an answer is interpreted — a lookup that does
 * not find the call yet inside the processor's window keeps the claim (shared/operations/payments/payment-sync.ts,
 * refund-sync.ts; {@link PROCESSOR_WORK_WINDOW_MS} for captures and voids).
 */
export const CLAIM_LEASE_MARGIN_MS = 3_000;

/**
 * The longest a claim protects its call, in ms: {@link API_FUNCTION_TIMEOUT_MS} +
 * {@link CLAIM_LEASE_MARGIN_MS} = 32 000. A claim written by an API request ends
 * CLAIM_LEASE_MARGIN_MS after that request's own end (its invocation's deadline, {@link claimLeaseEnd}),
 * which is at most API_FUNCTION_TIMEOUT_MS after the claim; a claim written where no request deadline is
 * known gets the whole of it from its write. Then the outcome is unknown, and a retry, a sync or the
 * reconciler (which checks every few seconds: shared/settings/reconcile-settings.ts) takes over.
 */
export const CLAIM_LEASE_MS = API_FUNCTION_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS;

/**
 * How long after a capture or void was sent the processor may still act on it although a lookup does not
 * show it yet, in ms: 80 000 — the longest per-call timeout of our processor clients (stripe-node's default
 * request timeout, `STRIPE_DEFAULT_TIMEOUT_MS` in shared/connectors/stripe/timeouts.ts; Paystack's is
 * 30 s, Flutterwave's 35 s — its server waits up to 28 s for a provider). A capture or void claim whose
 * lookup shows the payment unchanged is kept (its outcome still unknown) until this long after
 * `started_at`, then released: a call the processor has not applied by then never reached it. Lookups of
 * authorizations and refunds have their own, longer windows in each connector.
 */
export const PROCESSOR_WORK_WINDOW_MS = 80_000;

/**
 * When a claim made at `nowMs` ends: {@link CLAIM_LEASE_MARGIN_MS} after `holderEndMs`, the end of the
 * request that makes it (the Lambda's remaining time or API Gateway's 30 s, whichever is first:
 * `requestEndMs` in shared/operations/storage-retry.ts), or {@link CLAIM_LEASE_MS} after `nowMs` when the
 * holder's end is not known.
 * @param nowMs epoch ms of the claim
 * @param holderEndMs epoch ms by which the request writing the claim has ended, when known
 * @returns epoch ms
 */
export function claimLeaseEnd(nowMs: number, holderEndMs?: number): number {
  if (holderEndMs === undefined || !Number.isFinite(holderEndMs)) return nowMs + CLAIM_LEASE_MS;
  return Math.max(nowMs, holderEndMs) + CLAIM_LEASE_MARGIN_MS;
}

/** Who holds a new claim: the end of the request making it, and its keyed-request hash (both optional). */
export interface ClaimHolder {
  /** Epoch ms by which the request making the claim has ended ({@link claimLeaseEnd}). */
  holderEndMs?: number | undefined;
  /** {@link PendingOperation.request}: set for a request with an `Idempotency-Key`. */
  request?: string | undefined;
}

/**
 * A new pending-operation record starting now.
 * @param connector the connector's name (the stage's own account) or the account called (`ConnectorTarget`, shared/processor-call/connector-target.ts)
 * @param amount minor units
 * @param nowMs epoch ms of the claim (default now)
 * @param holder the request making the claim: its end (the lease is {@link claimLeaseEnd}) and keyed-request hash
 */
export function startPendingOperation(
  operation: PendingOperationKind,
  connector: string | { readonly name: string; readonly merchantConnectorId: string | null },
  reference: string,
  amount: number,
  nowMs = Date.now(),
  holder: ClaimHolder = {},
): PendingOperation {
  return {
    operation,
    connector: typeof connector === 'string' ? connector : connector.name,
    merchant_connector_id: typeof connector === 'string' ? null : connector.merchantConnectorId,
    reference,
    amount,
    started_at: new Date(nowMs).toISOString(),
    lease_expires_at: new Date(claimLeaseEnd(nowMs, holder.holderEndMs)).toISOString(),
    ...(holder.request ? { request: holder.request } : {}),
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
