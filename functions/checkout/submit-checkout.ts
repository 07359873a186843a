// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { csrfCookieOf, csrfToken, csrfValid } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, csrfCookieFor, isAttempt, newAttempt } from '../../shared/http/checkout-handler';
import { checkoutFormPage, closedLinkPage } from '../../shared/http/checkout-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { pageDeadline } from '../../shared/http/payer-pages';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { type CheckoutForm, checkoutLink } from '../../shared/operations/payment-links/checkout';
import { payOnCheckout } from '../../shared/operations/payment-links/checkout-payment';

/**
 * `POST /checkout/{payment_link_id}` (public form post): pays on the link. The CSRF token must match the page's cookie
 * (else 403 and the form again, nothing done). Then: a closed link 410; a form with mistakes 400 and the form with
 * each error by its field; a decline 402 and the form to try again; otherwise 303 to the processor's 3-D Secure or
 * step page, or to the link's completion route.
 */
export const handler = htmlHandler(async (event, context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const form = ((event.body as unknown as Record<string, string> | undefined) ?? {}) as CheckoutForm;
  const redraw = async (statusCode: number, extra: { errors?: Record<string, string>; message?: string }) => {
    const { link } = await checkoutLink(paymentLinkId);
    const { cookie, headers } = csrfCookieFor(event);
    const csrf = await csrfToken(cookie, paymentLinkId);
    return { statusCode, headers, html: checkoutFormPage(link, { nonce, csrfToken: csrf, attempt: newAttempt(), form, ...extra }) };
  };
  const cookie = csrfCookieOf(event.cookies, event.headers?.cookie);
  if (!(await csrfValid(cookie, paymentLinkId, form.csrf_token)) || !isAttempt(form.attempt)) {
    const { closed } = await checkoutLink(paymentLinkId);
    if (closed) return { statusCode: 410, html: closedLinkPage(closed, nonce) };
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
      return { statusCode: 410, html: closedLinkPage(outcome.sentence, nonce) };
    case 'invalid':
      return redraw(400, { errors: outcome.errors });
    case 'declined':
      return redraw(402, { message: `${outcome.message} No money was taken. Check the card details or use another card.` });
    case 'redirect':
      return { statusCode: 303, headers: { location: outcome.location }, html: '<!doctype html><p>Continue.</p>' };
  }
}, CHECKOUT_PAGE_OPTIONS);
