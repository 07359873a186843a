// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../billing/invoice-settlement-hook';
import '../payment-links/link-place-hook';
import type { Payment } from '../../domain/payment';
import { authenticatePaymentBodySchema } from '../../schemas/authentication-schemas';
import { apiErrorFromZod } from '../../schemas/zod-errors';
import { authenticatePayment } from '../payments/payment-authentication';
import type { RequestContext } from '../request-context';
import { payerPayment } from './payer-payment';

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
