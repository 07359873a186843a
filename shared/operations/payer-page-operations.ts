import { ApiError } from '../domain/errors';
import { isIdOf } from '../domain/ids';
import type { Payment } from '../domain/payment';
import { canApply } from '../domain/payment-status';
import { apiErrorFromZod } from '../http/zod-errors';
import { logger } from '../observability/logger';
import { authenticatePaymentBodySchema } from '../schemas/authentication-schemas';
import { wholeNumberSetting } from '../settings/whole-number-setting';
import { claimReturnSync, findPaymentOwner, getPayment, type StoredPayment } from '../storage/payments-repository';
import { authenticatePayment } from './payment-authentication';
import { claimInFlight } from './payment-state';
import { reconcilePayment } from './payment-sync';
import type { RequestContext } from './request-context';

/*
 * The payer-facing pages (no api-key; the payment id is the capability, as a processor's hosted
 * checkout link is): the hosted authentication step page and the return route every processor
 * sends the payer back to.
 */

/**
 * A payment found by its id alone, with its merchant.
 * @throws ApiError 404 when no payment has this id
 */
export async function payerPayment(paymentId: string): Promise<{ merchantId: string; stored: StoredPayment }> {
  const merchantId = isIdOf('payment', paymentId) ? await findPaymentOwner(paymentId) : undefined;
  const stored = merchantId ? await getPayment(merchantId, paymentId) : undefined;
  if (!merchantId || !stored)
    throw new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such payment. Check the link you followed.');
  return { merchantId, stored };
}

/** Form fields of the hosted step page, by the API field they fill. */
const ADDRESS_FIELDS = ['line1', 'city', 'state', 'zip', 'country'] as const;
const CARD_FIELDS = ['card_number', 'card_exp_month', 'card_exp_year', 'card_cvc'] as const;

/**
 * The authenticate body a submitted hosted page form stands for: `pin`, `otp`, `phone`, `birthday`,
 * `address_<line1|city|state|zip|country>` and, when the step needs the card, `card_<…>` fields
 * (empty fields are left out, so the schema names what is missing).
 */
export function authenticateBodyOfForm(form: Record<string, string | undefined>): Record<string, unknown> {
  const value = (k: string) => (typeof form[k] === 'string' && form[k]!.trim() !== '' ? form[k]!.trim() : undefined);
  const body: Record<string, unknown> = {};
  for (const k of ['pin', 'otp', 'phone', 'birthday'] as const) if (value(k) !== undefined) body[k] = value(k);
  if (ADDRESS_FIELDS.some((f) => value(`address_${f}`) !== undefined)) {
    body.address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, value(`address_${f}`) ?? '']));
  }
  if (CARD_FIELDS.some((f) => value(f) !== undefined)) {
    body.payment_method_data = { card: Object.fromEntries(CARD_FIELDS.map((f) => [f, (value(f) ?? '').replace(/\s/g, '')])) };
  }
  return body;
}

/**
 * The payer's answer on the hosted step page: validated like the API's body, then the same
 * operation as `POST /payments/{id}/authenticate` (claim, processor call, conditional write).
 * @param deadlineMs the request's processor-call deadline (epoch ms)
 * @returns the payment after the processor's answer
 * @throws ApiError 400 when the form does not answer the step (the message names the field);
 *   any error of `authenticatePayment`
 */
export async function submitAuthenticationPage(
  paymentId: string,
  form: Record<string, string | undefined>,
  publicBaseUrl: string,
  deadlineMs: number,
): Promise<Payment> {
  const { merchantId } = await payerPayment(paymentId);
  const input = authenticateBodyOfForm(form);
  const parsed = authenticatePaymentBodySchema.safeParse(input);
  if (!parsed.success) throw apiErrorFromZod(parsed.error, input, 'body');
  const ctx: RequestContext = { merchantId, publicBaseUrl, deadlineMs };
  return authenticatePayment(ctx, paymentId, parsed.data);
}

/**
 * How long after one sync on the return route the next may ask the processor about the same payment,
 * milliseconds: `PAYER_RETURN_SYNC_COOLDOWN_MS`, default 10 000 (read on every call). Inside it the route
 * answers from what is stored: a payer reloading the page, or anyone replaying the link, cannot spend the
 * processor account's rate limit (the webhook and the reconciler settle the payment meanwhile).
 */
export function payerReturnSyncCooldownMs(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberSetting(env.PAYER_RETURN_SYNC_COOLDOWN_MS, { min: 0 }, 10_000);
}

/**
 * Whether the return route may ask the processor about this payment now: only an open payment (a
 * status a processor's answer settles, or a claim whose lease ended) outside its cooldown, taken with one
 * conditional write (`last_synced_at`) so that at most one container per cooldown gets the turn. A
 * storage failure there answers no (nothing is asked; the reconciler settles the payment).
 */
async function mayAskProcessor(merchantId: string, stored: StoredPayment): Promise<boolean> {
  if (claimInFlight(stored)) return false;
  if (!stored.pendingOperation && !canApply('connector_update', stored.payment.status)) return false;
  try {
    return await claimReturnSync(merchantId, stored.payment.payment_id, new Date(), payerReturnSyncCooldownMs());
  } catch (err) {
    logger.warn('return sync cooldown could not be taken; answering from the stored payment', {
      payment_id: stored.payment.payment_id,
      error: (err as Error).name,
    });
    return false;
  }
}

/**
 * The payer is back from a 3DS page, a processor's hosted page or a step: the payment is synced
 * with its processor when it is still open (best effort: a processor or storage failure leaves
 * the reconciler to settle it, and the payer still gets an answer), then returned so the caller
 * can redirect to the merchant's `return_url`. The processor is asked at most once per payment per
 * {@link payerReturnSyncCooldownMs} (`last_synced_at`); otherwise the stored payment is the answer.
 * @param deadlineMs the request's processor-call deadline (epoch ms)
 * @param publicBaseUrl this API's public base URL (for a step's hosted page, should the sync name one)
 * @throws ApiError 404 when no payment has this id
 */
export async function payerReturn(paymentId: string, deadlineMs: number, publicBaseUrl: string): Promise<Payment> {
  const { merchantId, stored } = await payerPayment(paymentId);
  if (!(await mayAskProcessor(merchantId, stored))) return stored.payment;
  try {
    return (await reconcilePayment({ merchantId, deadlineMs, publicBaseUrl }, stored)).payment;
  } catch (err) {
    logger.warn('sync on the payer return failed; the reconciler will settle the payment', {
      payment_id: paymentId,
      error: (err as Error).name,
    });
    return stored.payment;
  }
}

/**
 * Where the return route sends the payer: the merchant's `return_url` with `payment_id` and
 * `status` added to its query (existing query parameters are kept), or null when the payment
 * has none.
 */
export function merchantReturnLocation(payment: Payment): string | null {
  if (!payment.return_url) return null;
  const url = new URL(payment.return_url);
  url.searchParams.set('payment_id', payment.payment_id);
  url.searchParams.set('status', payment.status);
  return url.toString();
}
