import { deliverSandboxWebhook } from '../connectors/sandbox/sandbox-webhooks';
import { ApiError } from '../domain/errors';
import type { Payment } from '../domain/payment';
import { payerPayment } from './payer-page-operations';

/**
 * The sandbox payment behind a hosted page (3DS challenge or checkout), found by
 * its id alone like a processor's page would.
 * @throws ApiError 404 when no sandbox payment has this id
 */
export async function sandboxPagePayment(paymentId: string): Promise<Payment> {
  const { stored } = await payerPayment(paymentId);
  if (stored.payment.connector !== 'sandbox') {
    throw new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such sandbox payment. Check the link you followed.');
  }
  return stored.payment;
}

/**
 * The payer's answer on a sandbox hosted page: the sandbox "processor" delivers
 * its signed webhook to the service (as a real one would), which completes the
 * payment; then the payment is read again.
 * @param decision `approve` or `decline`
 * @param publicBaseUrl where the service's `/webhooks/sandbox` endpoint is
 * @returns the payment after the webhook was applied
 * @throws ApiError 409 when the payment no longer waits for the payer
 */
export async function completeSandboxPage(paymentId: string, decision: 'approve' | 'decline', publicBaseUrl: string): Promise<Payment> {
  const payment = await sandboxPagePayment(paymentId);
  if (payment.status !== 'RequiresAction') {
    throw new ApiError(
      409,
      'invalid_request_error',
      'payment_unexpected_state',
      `This payment is ${payment.status}; there is nothing left to approve.`,
    );
  }
  await deliverSandboxWebhook(
    publicBaseUrl,
    {
      payment_id: payment.payment_id,
      transaction_id: payment.connector_transaction_id ?? `sbx_${payment.payment_id.slice(4)}`,
      amount: payment.amount,
      capture_method: payment.capture_method,
      ...(decision === 'decline'
        ? { error_code: 'authentication_failed', error_message: 'The payer declined the payment on the sandbox page.' }
        : {}),
    },
    decision === 'approve' ? 'succeeded' : 'failed',
  );
  return sandboxPagePayment(paymentId);
}
