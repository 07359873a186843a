/**
 * Paying on a payment link's checkout page: the payment is created and confirmed through the payments capability like
 * every other payment (routing, claims, 3-D Secure steps), the link's place taken in the same transaction.
 */
import { ApiError, OutcomeUnknownError } from '../../domain/errors';
import type { CheckoutDisplay } from '../../domain/merchant-profile';
import type { Currency } from '../../domain/money';
import type { Payment, PaymentMethod } from '../../domain/payment';
import { CLOSED_LINK_SENTENCES, PAYMENT_CLOSED_SENTENCES, type PaymentLink } from '../../domain/payment-link';
import { logger } from '../../observability/logger';
import { confirmPaymentBodySchema, createPaymentBodySchema } from '../../schemas/payment-schemas';
import { idempotentId } from '../../security/keyed-hash';
import { linkOfReservationImage, linkPlaceReservation, releaseLinkPlace } from '../../storage/payment-links-repository';
import { getPayment } from '../../storage/payments-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import { createPayment } from '../payments/create-payment';
import { ConnectorUnavailableError } from '../routing/route-candidates';
import { type CheckoutForm, checkFormFields, checkoutLink, closedSentence, completionUrl, type FieldErrors, formValue } from './checkout';
import { isPaymentMethod, METHOD_NOT_OFFERED_SENTENCE, methodRouting, normalizedPhone } from './checkout-methods';

/** The USSD bank field's error when no connector the merchant's routing reaches serves that bank. */
const USSD_BANK_NOT_SERVED = 'USSD is not available for this bank here. Choose another bank or pay another way.';

/**
 * What the page says when the processor could not take the payment and the payment's state shows nothing was charged
 * (docs/api.md "Unknown outcomes": only a refusal or a call never made is known): `unreachable` when no processor could
 * be called (every circuit open), `refused` when the processor refused the request (its 4xx: the payment `Failed`).
 */
export const PROCESSOR_FAILURE_SENTENCES = {
  unreachable: 'We could not reach the payment processor; nothing was charged. Try again.',
  refused: 'The payment processor could not take this payment; nothing was charged. Try again, or pay another way.',
} as const;

/** What paying on the page led to. */
export type CheckoutOutcome =
  /** The link takes no payment (any more): nothing was created; the sentence says why. */
  | { kind: 'closed'; sentence: string; display: CheckoutDisplay }
  /** The form has mistakes: nothing was created. */
  | { kind: 'invalid'; errors: FieldErrors }
  /** The method is not one the link allows or routing can serve now: nothing was created; the sentence says why. */
  | { kind: 'refused'; sentence: string }
  /** The payment failed at once (a decline): its place is given back; the payer may try again. */
  | { kind: 'declined'; payment: Payment; message: string }
  /** Where the payer goes next: the processor's 3-D Secure or step page, or the completion route. */
  | { kind: 'redirect'; payment: Payment; location: string }
  /**
   * The processor could not take the payment and nothing was charged (the payment is `Failed`, its place given back,
   * or none was made or sent): the form again, fresh, with the sentence. `statusCode` 502 (the processor refused) or
   * 503 (no processor could be called, `retryAfterSeconds` until one may be). `ended`: the payment is `Failed`.
   */
  | { kind: 'processor_failed'; sentence: string; statusCode: 502 | 503; retryAfterSeconds?: number; ended?: boolean }
  /**
   * The processor was called and its outcome is not known here (storage failed after the call): nothing is said about
   * money and nothing is given back; the payer waits for the payment to be confirmed. Drawn without a read.
   */
  | { kind: 'unknown'; link: PaymentLink; display: CheckoutDisplay; paymentId: string; amount: number; currency: Currency };

/**
 * Pays on a link's page: checks the form, then creates and confirms a payment with the form's method (`payment_method`:
 * card when absent; refused, creating nothing, when the link does not allow it or routing cannot serve it), routed like
 * every other (the
 * place under `max_payments` taken in the payment's create transaction). On a payment's single-use link, confirms
 * that payment instead (no new payment). The payer's e-mail is required, and put on the payment, when routing may
 * reach a connector that needs one and none is known (./checkout-methods.ts `methodRouting`, asked again at the amount
 * the payer chose). The attempt id makes the create idempotent:
 * the same form posted twice (a double click, a reload) answers the first payment and never charges twice.
 * When the processor cannot take the payment, the answer follows the payment's state (see `processorFailure`): a
 * known failure (nothing charged) gives the place back at once and draws the form again; an unknown outcome keeps the
 * place and answers the waiting view.
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
  const { merchantId, link, payment: single, closed, display, payerEmail } = await checkoutLink(paymentLinkId);
  if (closed) return { kind: 'closed', sentence: closed, display };
  // A single-use link whose payment is under way (an earlier post, its 3-D Secure step): its status, never a second confirm.
  if (single && single.status !== 'RequiresConfirmation')
    return { kind: 'redirect', payment: single, location: doneUrl(page, paymentLinkId, single) };
  // No method named: the card form (the page's first, and the only one before the page offered others).
  const method = form.payment_method === undefined ? 'card' : form.payment_method;
  if (!isPaymentMethod(method) || (link.payment_methods !== null && !link.payment_methods.includes(method))) {
    return { kind: 'refused', sentence: METHOD_NOT_OFFERED_SENTENCE };
  }
  // The method first (its fields mean nothing when it is not offered), then the fields, then the USSD bank.
  const routed = await methodRouting(merchantId, link, method);
  if (!routed.served) return { kind: 'refused', sentence: METHOD_NOT_OFFERED_SENTENCE };
  // The e-mail, as the page drawn asked it: routing could pick a connector that needs one, and none is known.
  let askEmail = routed.payerEmailRequired && !payerEmail;
  const checked = checkFormFields(link, form, method, askEmail);
  const { amount } = checked;
  let errors = checked.errors;
  if (Object.keys(errors).length > 0 || amount === undefined) return { kind: 'invalid', errors };
  const ussdBankCode = method === 'ussd' ? formValue(form, 'ussd_bank_code') : undefined;
  // Routing again with what the payer chose (the amount in a range, the USSD bank): a connector that needs the e-mail
  // may take only part of the range; the bank narrows the connectors.
  if (link.amount === null || ussdBankCode) {
    const exact = await methodRouting(merchantId, link, method, { amount, ussdBankCode });
    if (!exact.served) return notServed(method);
    if (!askEmail && exact.payerEmailRequired && !payerEmail) {
      askEmail = true;
      errors = checkFormFields(link, form, method, askEmail).errors;
      if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    }
  }
  if (single) {
    // The e-mail the processor needs goes onto the payment at its confirm: typed on the page, else its customer's.
    const email = askEmail ? formValue(form, 'email') : routed.payerEmailRequired && !single.email ? payerEmail : undefined;
    return confirmOnCheckout(page, { merchantId, paymentLinkId, link, payment: single, display }, form, attempt, email);
  }
  const holder = (method === 'card' ? formValue(form, 'card_name') : undefined) ?? formValue(form, 'name');
  const [first, ...rest] = (holder ?? '').split(/\s+/);
  const parsed = createPaymentBodySchema.safeParse({
    amount,
    currency: link.currency,
    confirm: true,
    ...methodOfForm(method, form),
    ...(link.description ? { description: link.description } : {}),
    ...(askEmail || link.customer_fields.includes('email') ? { email: formValue(form, 'email') } : {}),
    ...(holder ? { billing: { address: { first_name: first, ...(rest.length ? { last_name: rest.join(' ') } : {}) } } } : {}),
    metadata: { ...link.metadata, ...(link.customer_fields.includes('phone') ? { payer_phone: formValue(form, 'phone') } : {}) },
  });
  // The fields were checked one by one above; what is left (a name holding a card number, metadata over its limit)
  // is answered on the name field, the only free text left.
  if (!parsed.success)
    return {
      kind: 'invalid',
      errors: { [holder ? (method === 'card' ? 'card_name' : 'name') : fieldOf(method)]: 'Check this field and try again.' },
    };
  const now = new Date();
  const idempotencyKey = `checkout:${paymentLinkId}:${attempt}`;
  let payment: Payment;
  try {
    payment = await createPayment(
      { merchantId, publicBaseUrl: page.publicBaseUrl, deadlineMs: page.deadlineMs, idempotencyKey },
      // Our own completion URL, set after the payer-input schema: its card refinement would refuse the link's id
      // when its random hex holds a card-number-shaped digit run (about one link in 10,000).
      { ...parsed.data, return_url: completionUrl(page.publicBaseUrl, paymentLinkId) },
      {
        paymentLinkId,
        placeReservation: linkPlaceReservation(merchantId, paymentLinkId, now.toISOString()),
        ...payerPhoneOf(method, form),
      },
    );
  } catch (err) {
    const refusal = routingRefusal(err, method);
    if (refusal) return refusal;
    if (err instanceof ConditionFailedError) {
      // The place was refused (deactivated, expired or used up since the page was drawn): nothing was created.
      const seen = linkOfReservationImage(err.current as Record<string, unknown> | undefined, now.getTime()) ?? link;
      // Only a place count can have moved between the drawing and the refusal: an image still active means used up.
      return { kind: 'closed', sentence: closedSentence(seen.status === 'active' ? { ...seen, status: 'completed' } : seen), display };
    }
    const failed = await processorFailure(err, { merchantId, paymentLinkId, link, display, amount, idempotencyKey }, true);
    if (failed) return failed;
    throw err;
  }
  if (payment.status === 'Failed' || payment.status === 'Cancelled') {
    await givePlaceBack(merchantId, paymentLinkId, payment.payment_id);
    return { kind: 'declined', payment, message: payment.error_message ?? 'The payment was declined.' };
  }
  return nextStep(page, paymentLinkId, payment);
}

/**
 * Gives back the place a failed payment took, at once (the payer may not come back to the completion route). A
 * storage failure here is logged and the place stays taken: the completion route gives it back when the payer
 * returns; the answer about the payment (nothing charged) is still true.
 */
async function givePlaceBack(merchantId: string, paymentLinkId: string, paymentId: string): Promise<void> {
  try {
    await releaseLinkPlace(merchantId, paymentLinkId, paymentId);
  } catch (err) {
    logger.warn('a failed checkout payment kept its link place (storage failed on its release)', {
      payment_link_id: paymentLinkId,
      payment_id: paymentId,
      error: (err as Error).name,
    });
  }
}

/**
 * What the page answers when the create or confirm threw after routing: decided by what the payments capability says
 * happened (docs/api.md "Unknown outcomes"), never guessed from the error alone.
 * - every connector's circuit open (`ConnectorUnavailableError`): nothing was created or sent → the form, 503;
 * - the processor refused the request, or its account was unusable (502 `connector_error`): the payment is read back;
 *   `Failed` with no claim left is known (nothing charged): its place given back (reusable links), the form, 502; no
 *   payment at all, or one still `RequiresConfirmation` with no claim: nothing was sent, the form, 502;
 * - the processor was called and the outcome could not be recorded (`OutcomeUnknownError`), or the payment read back
 *   is anything but `Failed`: unknown, the waiting view, nothing given back.
 * @param target.idempotencyKey the create's or confirm's key; for a create, the payment's id derives from it
 * @param reusable the payment took a place of a reusable link (a single-use link holds none)
 * @param target.paymentId a single-use link's payment (a create's is derived from the key)
 * @returns undefined for any other error (the caller throws it)
 */
async function processorFailure(
  err: unknown,
  target: {
    merchantId: string;
    paymentLinkId: string;
    link: PaymentLink;
    display: CheckoutDisplay;
    amount: number;
    idempotencyKey: string;
    paymentId?: string;
  },
  reusable: boolean,
): Promise<CheckoutOutcome | undefined> {
  const unknown = (paymentId: string): CheckoutOutcome => ({
    kind: 'unknown',
    link: target.link,
    display: target.display,
    paymentId,
    amount: target.amount,
    currency: target.link.currency,
  });
  if (err instanceof ConnectorUnavailableError) {
    return {
      kind: 'processor_failed',
      sentence: PROCESSOR_FAILURE_SENTENCES.unreachable,
      statusCode: 503,
      retryAfterSeconds: err.retryAfterSeconds,
    };
  }
  if (err instanceof OutcomeUnknownError && err.resource === 'payment') return unknown(err.resourceId);
  if (!(err instanceof ApiError) || err.statusCode !== 502 || err.type !== 'connector_error') return undefined;
  const paymentId = target.paymentId ?? (await idempotentId('pay', target.merchantId, 'payments', target.idempotencyKey));
  const stored = await getPayment(target.merchantId, paymentId);
  const status = stored?.payment.status;
  // Known: no payment, or one never sent (still awaiting its confirm), or one Failed, with no claim left.
  if (stored && (stored.pendingOperation || (status !== 'Failed' && status !== 'RequiresConfirmation'))) return unknown(paymentId);
  if (status === 'Failed' && reusable) await givePlaceBack(target.merchantId, target.paymentLinkId, paymentId);
  return { kind: 'processor_failed', sentence: PROCESSOR_FAILURE_SENTENCES.refused, statusCode: 502, ended: status === 'Failed' };
}

/**
 * The method part of a create or confirm body for the form's method: the card; the USSD bank
 * (`payment_method_data.ussd.bank_code`); nothing more for a bank transfer or mobile money (the phone goes apart:
 * {@link payerPhoneOf}).
 */
function methodOfForm(method: PaymentMethod, form: CheckoutForm) {
  if (method === 'card') return { payment_method: method, payment_method_data: { card: cardOfForm(form) } };
  if (method === 'ussd') return { payment_method: method, payment_method_data: { ussd: { bank_code: formValue(form, 'ussd_bank_code') } } };
  return { payment_method: method };
}

/** The payer's mobile-money phone (E.164, checked by the form), for mobile money only. */
function payerPhoneOf(method: PaymentMethod, form: CheckoutForm): { payerPhone?: string } {
  return method === 'mobile_money' ? { payerPhone: normalizedPhone(formValue(form, 'mobile_money_phone')) } : {};
}

/** The form field a method's own mistakes are shown by. */
function fieldOf(method: PaymentMethod): keyof FieldErrors {
  return method === 'ussd' ? 'ussd_bank_code' : method === 'mobile_money' ? 'mobile_money_phone' : 'card_number';
}

/**
 * Routing's refusal at the create or confirm (the merchant's accounts changed since the page's own check, or the
 * amount the payer chose is outside what they enable) as the page answers it: for USSD by the bank field, otherwise
 * the method is refused. Nothing was created or changed: routing runs before any write.
 * @returns undefined for any other error
 */
function routingRefusal(err: unknown, method: PaymentMethod): CheckoutOutcome | undefined {
  if (!(err instanceof ApiError) || err.code !== 'no_connector_available') return undefined;
  return notServed(method);
}

/** The answer when routing takes no payment of the form: for USSD by the bank field, otherwise the method is refused. */
function notServed(method: PaymentMethod): CheckoutOutcome {
  if (method === 'ussd') return { kind: 'invalid', errors: { ussd_bank_code: USSD_BANK_NOT_SERVED } };
  return { kind: 'refused', sentence: METHOD_NOT_OFFERED_SENTENCE };
}

/**
 * Where the payer goes after a confirm: the processor's 3-D Secure page or Switchyard's PIN/OTP step page (any
 * `next_action` with a `redirect_to_url`), or the completion route (the status, the return, or the waiting view with
 * a transfer's account, a USSD code or a phone prompt).
 */
function nextStep(page: { publicBaseUrl: string }, paymentLinkId: string, payment: Payment): CheckoutOutcome {
  if (payment.status === 'RequiresAction' && payment.next_action && 'redirect_to_url' in payment.next_action) {
    return { kind: 'redirect', payment, location: payment.next_action.redirect_to_url };
  }
  return { kind: 'redirect', payment, location: doneUrl(page, paymentLinkId, payment) };
}

/** The link's completion route for a payment (its status page, or the merchant's signed `return_url`). */
function doneUrl(page: { publicBaseUrl: string }, paymentLinkId: string, payment: Payment): string {
  const done = new URL(completionUrl(page.publicBaseUrl, paymentLinkId));
  done.searchParams.set('payment_id', payment.payment_id);
  return done.toString();
}

/**
 * Pays a payment's single-use link: confirms that payment with the form's method (no new payment), its processor's return
 * sent to the link's completion route. The attempt id keys the confirm, so the same form posted twice confirms once
 * (shared/operations/payments/confirm-payment.ts answers the first confirm's payment). A decline is final for the
 * payment (its link then answers 410), as a failed payment is never confirmed again.
 * @param email the payer's e-mail to put on the payment at its confirm (it has none), for a connector that needs one
 */
async function confirmOnCheckout(
  page: { publicBaseUrl: string; deadlineMs: number },
  target: { merchantId: string; paymentLinkId: string; link: PaymentLink; payment: Payment; display: CheckoutDisplay },
  form: CheckoutForm,
  attempt: string,
  email: string | undefined,
): Promise<CheckoutOutcome> {
  const method = (form.payment_method ?? 'card') as PaymentMethod;
  const parsed = confirmPaymentBodySchema.safeParse(methodOfForm(method, form));
  if (!parsed.success) return { kind: 'invalid', errors: { [fieldOf(method)]: 'Check this field and try again.' } };
  // The confirm (and its processor call) is loaded by the first single-use link paid, not at cold start.
  const { confirmPayment } = await import('../payments/confirm-payment');
  const idempotencyKey = `checkout:${target.paymentLinkId}:${attempt}`;
  let payment: Payment;
  try {
    payment = await confirmPayment(
      { merchantId: target.merchantId, publicBaseUrl: page.publicBaseUrl, deadlineMs: page.deadlineMs, idempotencyKey },
      target.payment.payment_id,
      // Our own completion URL, set after the payer-input schema (see payOnCheckout's create).
      { ...parsed.data, return_url: completionUrl(page.publicBaseUrl, target.paymentLinkId) },
      // The link's expiry is judged again in the confirm's claim, at its time.
      { ...payerPhoneOf(method, form), ...(email ? { payerEmail: email } : {}), onSingleUseLink: true },
    );
  } catch (err) {
    const refusal = routingRefusal(err, method);
    if (refusal) return refusal;
    // The link expired between the page's read and the claim: nothing was claimed or sent.
    if (err instanceof ApiError && err.code === 'payment_link_expired') {
      return { kind: 'closed', sentence: CLOSED_LINK_SENTENCES.expired, display: target.display };
    }
    // Another post confirmed it first (a second tab): the payment as it is now, on the completion route.
    if (err instanceof ApiError && err.statusCode === 409) {
      return { kind: 'redirect', payment: target.payment, location: doneUrl(page, target.paymentLinkId, target.payment) };
    }
    const failed = await processorFailure(
      err,
      { ...target, amount: target.payment.amount, idempotencyKey, paymentId: target.payment.payment_id },
      false,
    );
    // The payment is Failed for good (a failed payment is never confirmed again): its link answers 410 from now on.
    if (failed?.kind === 'processor_failed' && failed.ended) {
      return {
        kind: 'closed',
        sentence: `The payment processor could not take this payment. ${PAYMENT_CLOSED_SENTENCES.ended}`,
        display: target.display,
      };
    }
    if (failed) return failed;
    throw err;
  }
  if (payment.status === 'Failed' || payment.status === 'Cancelled') {
    const reason = payment.error_message ?? 'The payment was declined.';
    return { kind: 'closed', sentence: `${reason} ${PAYMENT_CLOSED_SENTENCES.ended}`, display: target.display };
  }
  return nextStep(page, target.paymentLinkId, payment);
}

/** The card of the form, as the payments API takes it (spaces and dashes out of the number). */
function cardOfForm(form: CheckoutForm) {
  return {
    card_number: (formValue(form, 'card_number') ?? '').replace(/[\s-]/g, ''),
    card_exp_month: formValue(form, 'card_exp_month'),
    card_exp_year: formValue(form, 'card_exp_year'),
    card_cvc: formValue(form, 'card_cvc'),
  };
}
