/**
 * Paying on a payment link's checkout page: the payment is created and confirmed through the payments capability like
 * every other payment (routing, claims, 3-D Secure steps), the link's place taken in the same transaction.
 */
import type { Payment } from '../../domain/payment';
import type { PaymentLink } from '../../domain/payment-link';
import { createPaymentBodySchema } from '../../schemas/payment-schemas';
import { linkOfReservationImage, linkPlaceReservation, releaseLinkPlace } from '../../storage/payment-links-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import { createPayment } from '../payments/create-payment';
import { type CheckoutForm, checkFormFields, checkoutLink, completionUrl, type FieldErrors, formValue } from './checkout';

/** What paying on the page led to. */
export type CheckoutOutcome =
  /** The link takes no payment (any more): nothing was created. */
  | { kind: 'closed'; link: PaymentLink }
  /** The form has mistakes: nothing was created. */
  | { kind: 'invalid'; errors: FieldErrors }
  /** The payment failed at once (a decline): its place is given back; the payer may try again. */
  | { kind: 'declined'; payment: Payment; message: string }
  /** Where the payer goes next: the processor's 3-D Secure or step page, or the completion route. */
  | { kind: 'redirect'; payment: Payment; location: string };

/**
 * Pays on a link's page: checks the form, then creates and confirms a card payment (routed like every other; the
 * place under `max_payments` taken in the payment's create transaction). The attempt id makes the create idempotent:
 * the same form posted twice (a double click, a reload) answers the first payment and never charges twice.
 * @param page the API's public base URL and the processor-call deadline (epoch ms)
 * @param attempt the form's attempt id (32 hex characters, fresh on each drawing of the form)
 * @throws ApiError 404 when no link has this id; what `createPayment` throws besides a refused place
 */
export async function payOnCheckout(
  page: { publicBaseUrl: string; deadlineMs: number },
  paymentLinkId: string,
  form: CheckoutForm,
  attempt: string,
): Promise<CheckoutOutcome> {
  const { merchantId, link } = await checkoutLink(paymentLinkId);
  if (link.status !== 'active') return { kind: 'closed', link };
  const { errors, amount } = checkFormFields(link, form);
  if (Object.keys(errors).length > 0 || amount === undefined) return { kind: 'invalid', errors };
  const holder = formValue(form, 'card_name') ?? formValue(form, 'name');
  const [first, ...rest] = (holder ?? '').split(/\s+/);
  const parsed = createPaymentBodySchema.safeParse({
    amount,
    currency: link.currency,
    confirm: true,
    payment_method: 'card',
    payment_method_data: {
      card: {
        card_number: (formValue(form, 'card_number') ?? '').replace(/[\s-]/g, ''),
        card_exp_month: formValue(form, 'card_exp_month'),
        card_exp_year: formValue(form, 'card_exp_year'),
        card_cvc: formValue(form, 'card_cvc'),
      },
    },
    ...(link.description ? { description: link.description } : {}),
    ...(link.customer_fields.includes('email') ? { email: formValue(form, 'email') } : {}),
    ...(holder ? { billing: { address: { first_name: first, ...(rest.length ? { last_name: rest.join(' ') } : {}) } } } : {}),
    metadata: { ...link.metadata, ...(link.customer_fields.includes('phone') ? { payer_phone: formValue(form, 'phone') } : {}) },
    return_url: completionUrl(page.publicBaseUrl, paymentLinkId),
  });
  // The fields were checked one by one above; what is left (a name holding a card number, metadata over its limit)
  // is answered on the name field, the only free text left.
  if (!parsed.success) return { kind: 'invalid', errors: { [holder ? 'card_name' : 'card_number']: 'Check this field and try again.' } };
  const now = new Date();
  let payment: Payment;
  try {
    payment = await createPayment(
      {
        merchantId,
        publicBaseUrl: page.publicBaseUrl,
        deadlineMs: page.deadlineMs,
        idempotencyKey: `checkout:${paymentLinkId}:${attempt}`,
      },
      parsed.data,
      { paymentLinkId, placeReservation: linkPlaceReservation(merchantId, paymentLinkId, now.toISOString()) },
    );
  } catch (err) {
    if (!(err instanceof ConditionFailedError)) throw err;
    // The place was refused (deactivated, expired or used up since the page was drawn): nothing was created.
    const seen = linkOfReservationImage(err.current as Record<string, unknown> | undefined, now.getTime()) ?? link;
    // Only a place count can have moved between the drawing and the refusal: an image still active means used up.
    return { kind: 'closed', link: seen.status === 'active' ? { ...seen, status: 'completed' } : seen };
  }
  if (payment.status === 'Failed' || payment.status === 'Cancelled') {
    await releaseLinkPlace(merchantId, paymentLinkId, payment.payment_id);
    return { kind: 'declined', payment, message: payment.error_message ?? 'The payment was declined.' };
  }
  if (payment.status === 'RequiresAction' && payment.next_action?.type === 'redirect_to_url') {
    return { kind: 'redirect', payment, location: payment.next_action.redirect_to_url };
  }
  const done = new URL(completionUrl(page.publicBaseUrl, paymentLinkId));
  done.searchParams.set('payment_id', payment.payment_id);
  return { kind: 'redirect', payment, location: done.toString() };
}
