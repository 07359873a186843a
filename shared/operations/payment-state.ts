import type { PaymentResult } from '../connectors/connector';
import { maskOptionalText } from '../domain/card-mask';
import { ApiError, resourceNotFound, unexpectedState } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import type { Attempt, Payment } from '../domain/payment';
import { ALLOWED_FROM, type PaymentOperation, type PaymentStatus } from '../domain/payment-status';
import { leaseActive } from '../domain/pending-operation';
import { type ConnectorTarget, targetAccount, targetName } from '../routing/connector-target';
import { getPayment as readPayment, type StoredPayment } from '../storage/payments-repository';
import type { ConditionFailedError } from '../storage/storage-errors';

/*
 * Reading a payment and expressing its changes: shared by the payment use cases
 * (create/confirm, capture/void, sync, webhooks, the reconciler).
 */

/**
 * Reads a payment of the merchant.
 * @throws ApiError 404 when the id is malformed or no such payment exists for this merchant
 */
export async function loadPayment(merchantId: string, paymentId: string): Promise<StoredPayment> {
  const stored = isIdOf('payment', paymentId) ? await readPayment(merchantId, paymentId) : undefined;
  if (!stored) throw resourceNotFound('payment', 'payment_id');
  return stored;
}

/**
 * The 409 for a conditional write that lost: another processor call is in flight on the
 * payment (a transient answer, never stored for Idempotency-Key replay), or its status is not
 * one the operation starts from.
 */
export function conflict(operation: PaymentOperation, err: ConditionFailedError<StoredPayment>): ApiError {
  const current = err.current;
  if (current?.pendingOperation) {
    return new ApiError(
      409,
      'invalid_request_error',
      'payment_unexpected_state',
      `This payment has status ${current.payment.status} and its ${current.pendingOperation.operation} at ${current.pendingOperation.connector} is not settled yet (see pending_operation); retrieve it and retry if still needed.`,
    ).asTransient();
  }
  return unexpectedState(operation, current?.payment.status ?? 'unknown', ALLOWED_FROM[operation]);
}

/**
 * Fields of a payment that a connector result sets (status, transaction id, captured amount, next action, error).
 * The processor's error code and message pass the card-number masker before they are stored.
 */
export function resultFields(result: PaymentResult, payment: Payment): Partial<Payment> & { status: PaymentStatus } {
  return {
    status: result.status,
    connector_transaction_id: result.connectorTransactionId ?? payment.connector_transaction_id,
    amount_captured: payment.amount_captured + result.amountCaptured,
    // A processor that answers "still waiting on the payer" without restating the step (a sync)
    // leaves the step the payer was asked for in place.
    next_action:
      result.nextAction ?? (result.status === 'RequiresAction' && payment.status === 'RequiresAction' ? payment.next_action : null),
    error_code: maskOptionalText(result.errorCode),
    error_message: maskOptionalText(result.errorMessage),
  };
}

/** The connector account a payment is on: its `connector` and `merchant_connector_id` (null: the stage's own account). */
export function targetOf(p: Pick<Payment, 'connector' | 'merchant_connector_id'>): ConnectorTarget {
  return { name: p.connector, merchantConnectorId: p.merchant_connector_id ?? null };
}

/** One attempt record for the payment's `attempts` (the processor's error code and message masked of card numbers). */
export function attemptOf(
  connector: string | ConnectorTarget,
  startedAt: string,
  outcome: { status: PaymentStatus; connectorTransactionId?: string | null; errorCode?: string | null; errorMessage?: string | null },
): Attempt {
  return {
    attempt_id: newId('attempt'),
    connector: targetName(connector),
    merchant_connector_id: targetAccount(connector),
    status: outcome.status,
    connector_transaction_id: outcome.connectorTransactionId ?? null,
    error_code: maskOptionalText(outcome.errorCode),
    error_message: maskOptionalText(outcome.errorMessage),
    created_at: startedAt,
  };
}

/**
 * Whether a processor call made under a claim may still be running: the payment
 * has a `pending_operation` whose lease has not expired. After the lease the
 * request that made the call has ended, and a sync, a webhook, a retry or the
 * reconciler may take over.
 */
export function claimInFlight(stored: StoredPayment): boolean {
  return stored.pendingOperation !== null && leaseActive(stored.pendingOperation);
}
