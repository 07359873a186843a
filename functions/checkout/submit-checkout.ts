// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import type { CheckoutDisplay } from '../../shared/domain/merchant-profile';
import { csrfCookieOf, csrfToken, csrfValid } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, checkoutPolicyHeaders, csrfCookieFor, isAttempt, newAttempt } from '../../shared/http/checkout-handler';
import { brandOf, checkoutFormPage, closedLinkPage } from '../../shared/http/checkout-page';
import { checkoutConfirmingPage } from '../../shared/http/checkout-waiting-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { pageDeadline } from '../../shared/http/payer-pages';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { type CheckoutForm, checkoutLink, completionUrl } from '../../shared/operations/payment-links/checkout';
import { methodChoice, NO_METHOD_SENTENCE } from '../../shared/operations/payment-links/checkout-methods';
import { payOnCheckout } from '../../shared/operations/payment-links/checkout-payment';

/**
 * `POST /checkout/{payment_link_id}` (public form post): pays on the link. The CSRF token must match the page's cookie
 * (else 403 and the form again, nothing done). Then: a closed link 410; a form with mistakes 400 and the form with
 * each error by its field; a method the link does not allow or routing does not serve 400 and the form saying so
 * (nothing created); a decline 402 and the form to try again; the processor unable to take it with nothing charged
 * (the payment's state says so) 502, or 503 with `Retry-After` when no processor could be called, and a fresh form
 * saying so; an outcome not known (storage failed after the processor call) 202 and the waiting view, never
 * "nothing was charged"; otherwise 303 to the processor's 3-D Secure or step page, or to the link's completion route.
 */
export const handler = htmlHandler(async (event, context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const form = ((event.body as unknown as Record<string, string> | undefined) ?? {}) as CheckoutForm;
  // The form again, with the method it was posted with (the first offered when that one is not offered).
  const redraw = async (statusCode: number, extra: { errors?: Record<string, string>; message?: string }) => {
    const { merchantId, link, display, payerEmail } = await checkoutLink(paymentLinkId);
    const { choice } = await methodChoice(merchantId, link, form.payment_method, Boolean(payerEmail));
    if (!choice) return closedAnswer(NO_METHOD_SENTENCE, display);
    const { cookie, headers } = csrfCookieFor(event, display.allowed_domains.length > 0);
    const csrf = await csrfToken(cookie, paymentLinkId);
    const view = { nonce, csrfToken: csrf, attempt: newAttempt(), form, brand: brandOf(display), choice, ...extra };
    return { statusCode, headers: { ...headers, ...checkoutPolicyHeaders(nonce, display) }, html: checkoutFormPage(link, view) };
  };
  const closedAnswer = (sentence: string, display: CheckoutDisplay) => ({
    statusCode: 410,
    html: closedLinkPage(sentence, nonce, brandOf(display)),
    headers: checkoutPolicyHeaders(nonce, display),
  });
  const cookie = csrfCookieOf(event.cookies, event.headers?.cookie);
  if (!(await csrfValid(cookie, paymentLinkId, form.csrf_token)) || !isAttempt(form.attempt)) {
    const { closed, display } = await checkoutLink(paymentLinkId);
    if (closed) return closedAnswer(closed, display);
    return redraw(403, { message: 'This form expired or did not come from this page. Nothing was paid. Check the details and pay again.' });
  }
  const outcome = await payOnCheckout(
    { publicBaseUrl: publicBaseUrl(event), deadlineMs: pageDeadline(context) },
    paymentLinkId,
    form,
    form.attempt,
  );
  switch (outcome.kind) {
    case 'closed':
      return closedAnswer(outcome.sentence, outcome.display);
    case 'invalid':
      return redraw(400, { errors: outcome.errors });
    case 'refused':
      return redraw(400, { message: outcome.sentence });
    case 'declined':
      return redraw(402, {
        message: `${outcome.message} No money was taken. ${
          outcome.payment.payment_method === 'card' ? 'Check the card details or use another card.' : 'Try again, or pay another way.'
        }`,
      });
    case 'redirect':
      return { statusCode: 303, headers: { location: outcome.location }, html: '<!doctype html><p>Continue.</p>' };
    case 'processor_failed': {
      const again = await redraw(outcome.statusCode, { message: outcome.sentence });
      if (outcome.retryAfterSeconds === undefined) return again;
      return { ...again, headers: { ...again.headers, 'retry-after': String(outcome.retryAfterSeconds) } };
    }
    case 'unknown': {
      const check = new URL(completionUrl(publicBaseUrl(event), paymentLinkId));
      check.searchParams.set('payment_id', outcome.paymentId);
      return {
        statusCode: 202,
        headers: checkoutPolicyHeaders(nonce, outcome.display),
        html: checkoutConfirmingPage(outcome.link, outcome, { nonce, brand: brandOf(outcome.display), checkUrl: check.toString() }),
      };
    }
  }
}, CHECKOUT_PAGE_OPTIONS);
