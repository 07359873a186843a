import { deliverSandboxWebhook, duringSandboxPageDecision } from '../../connectors/sandbox/sandbox-webhooks';
import { ApiError } from '../../domain/errors';
import type { Payment } from '../../domain/payment';
import { logger } from '../../observability/logger';
import type { StoredPayment } from '../../storage/payments-repository';
import { decideSandboxPayment } from '../../storage/sandbox-decisions-repository';
import { payerPayment } from '../payer/payer-payment';
import { claimInFlight } from '../payments/payment-state';

/** The sandbox's hosted pages: a 3DS challenge (`3ds`) or a checkout page (`checkout`). */
/** The sandbox's hosted page kinds (the `{kind}` of `/sandbox/{kind}/{payment_id}`). */
export const SANDBOX_PAGE_KINDS = ['3ds', 'checkout'] as const;
/** One of {@link SANDBOX_PAGE_KINDS}. */
export type SandboxPageKind = (typeof SANDBOX_PAGE_KINDS)[number];

const noSuchPayment = () =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such sandbox payment. Check the link you followed.');

/**
 * The page kind of a `/sandbox/{kind}/…` path.
 * @throws ApiError 404 for any other kind (no such page)
 */
export function sandboxPageKind(kind: string | undefined): SandboxPageKind {
  if (kind === '3ds' || kind === 'checkout') return kind;
  throw noSuchPayment();
}

/**
 * Whether the payment waits on this very page: `RequiresAction` with a `redirect_to_url` next action
 * pointing at `/sandbox/{kind}/{payment_id}`. A payment waiting on a PIN, an OTP, a bank transfer or
 * the other sandbox page does not.
 */
export function waitsOnSandboxPage(payment: Payment, kind: SandboxPageKind): boolean {
  const action = payment.next_action;
  if (payment.status !== 'RequiresAction' || !action || action.type !== 'redirect_to_url') return false;
  const url = 'redirect_to_url' in action ? action.redirect_to_url : undefined;
  return typeof url === 'string' && url.endsWith(`/sandbox/${kind}/${payment.payment_id}`);
}

/** The stored sandbox payment behind a page, found by its id alone like a processor's page would. */
async function sandboxPageStored(paymentId: string): Promise<StoredPayment> {
  const { stored } = await payerPayment(paymentId);
  if (stored.payment.connector !== 'sandbox') throw noSuchPayment();
  return stored;
}

/**
 * The sandbox payment behind a hosted page (3DS challenge or checkout), found by
 * its id alone like a processor's page would.
 * @throws ApiError 404 when no sandbox payment has this id
 */
export async function sandboxPagePayment(paymentId: string): Promise<Payment> {
  return (await sandboxPageStored(paymentId)).payment;
}

const unexpectedState = (message: string) => new ApiError(409, 'invalid_request_error', 'payment_unexpected_state', message);
const beingChanged = () =>
  unexpectedState('This payment is being changed right now (for example cancelled); nothing was approved or declined. Reload the page.');

/**
 * The payer's answer on a sandbox hosted page: the sandbox "processor" delivers
 * its signed webhook to the service (as a real one would), which completes the
 * payment; then the payment is read again. The page acts only on the step it shows, and only on
 * a payment that is open and not being changed: a payment waiting on another step (a PIN, an OTP,
 * a bank transfer, the other page), closed, or under a claim of the API (a cancel, a capture, a sync
 * calling the sandbox) is refused, so the sandbox never reports money on a payment the API closed. The
 * decision is recorded by the sandbox first (once; a void recorded before it wins, and one after it is
 * answered with it), so the same holds across Lambda containers.
 * @param kind the page the payer answered on
 * @param decision `approve` or `decline`
 * @param publicBaseUrl where the service's `/webhooks/sandbox` endpoint is
 * @returns the payment after the webhook was applied
 * @throws ApiError 404 when no sandbox payment has this id; 409 `payment_unexpected_state` when the
 *   payment no longer waits for the payer on this page, or is being changed
 */
export async function completeSandboxPage(
  paymentId: string,
  kind: SandboxPageKind,
  decision: 'approve' | 'decline',
  publicBaseUrl: string,
): Promise<Payment> {
  // One step of the sandbox "processor": a void of this payment waits for it (no approval after a void).
  await duringSandboxPageDecision(paymentId, () => decideOnPage(paymentId, kind, decision, publicBaseUrl));
  return sandboxPagePayment(paymentId);
}

/** Checks the payment and delivers the decision's webhook (see {@link completeSandboxPage}). */
async function decideOnPage(
  paymentId: string,
  kind: SandboxPageKind,
  decision: 'approve' | 'decline',
  publicBaseUrl: string,
): Promise<void> {
  const stored = await sandboxPageStored(paymentId);
  const payment = stored.payment;
  if (payment.status !== 'RequiresAction') {
    throw unexpectedState(`This payment is ${payment.status}; there is nothing left to approve.`);
  }
  if (!waitsOnSandboxPage(payment, kind)) {
    throw unexpectedState('This payment waits on another step, not on this page: nothing was approved or declined.');
  }
  if (claimInFlight(stored)) throw beingChanged();
  // The sandbox records the decision first, once (its own ledger, a conditional write): a void that
  // reached it before wins, and then nothing is approved; a void after it finds the payment decided.
  const mine = decision === 'approve' ? 'approved' : 'declined';
  const standing = await decideSandboxPayment(payment.payment_id, {
    decision: mine,
    amount: payment.amount,
    captureMethod: payment.capture_method,
  });
  if (standing.decision === 'voided') throw unexpectedState('This payment was cancelled; nothing was approved or declined.');
  if (standing.decision !== mine) throw unexpectedState(`This payment was already ${standing.decision} on this page.`);
  const status = await deliverSandboxWebhook(
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
  // 409: the API was changing the payment (a cancel's claim, a sync). The decision stands at the sandbox:
  // the void finds it (and answers it), or the next sync (the reconciler's, a retrieve) applies it.
  if (status === 409)
    logger.info('sandbox page decision recorded; its webhook met a claim, a sync applies it', { payment_id: payment.payment_id });
}
