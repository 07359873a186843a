import { csrfToken } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, checkoutPolicyHeaders, csrfCookieFor, newAttempt } from '../../shared/http/checkout-handler';
import { brandOf, checkoutFormPage, checkoutStatusPage, closedLinkPage } from '../../shared/http/checkout-page';
import { checkoutWaitingPage } from '../../shared/http/checkout-waiting-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { awaitsPayer, checkoutLink, completionUrl } from '../../shared/operations/payment-links/checkout';
import { METHOD_NOT_OFFERED_SENTENCE, methodChoice, NO_METHOD_SENTENCE } from '../../shared/operations/payment-links/checkout-methods';

/**
 * `GET /checkout/{payment_link_id}[?payment_method=…]` (public, no api-key): a payment link's hosted checkout page, the
 * form a payer pays with: the methods the link allows that the merchant's routing serves in its currency (cards
 * first; a link per other method), and the fields of the one asked for. A method not offered answers 400 with the
 * first method's form and a sentence saying so. The payer's e-mail is asked when routing may pick a processor that
 * needs one and none is known. A link that takes no payment (deactivated, expired, used up; a
 * single-use link whose payment is final; no method served) answers 410 with a sentence saying why.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const { merchantId, link, payment, closed, display, payerEmail } = await checkoutLink(paymentLinkId);
  const brand = brandOf(display);
  const policy = checkoutPolicyHeaders(nonce, display);
  if (closed) return { statusCode: 410, html: closedLinkPage(closed, nonce, brand), headers: policy };
  // A single-use link whose payment is under way (its 3-D Secure step, a transfer to make, the processor's answer).
  if (payment && payment.status !== 'RequiresConfirmation') {
    if (!awaitsPayer(payment)) return { html: checkoutStatusPage(link, payment, nonce, brand), headers: policy };
    const check = new URL(completionUrl(publicBaseUrl(event), paymentLinkId));
    check.searchParams.set('payment_id', payment.payment_id);
    return { html: checkoutWaitingPage(link, payment, { nonce, brand, checkUrl: check.toString() }), headers: policy };
  }
  const { choice, refused } = await methodChoice(merchantId, link, event.queryStringParameters?.payment_method, Boolean(payerEmail));
  if (!choice) return { statusCode: 410, html: closedLinkPage(NO_METHOD_SENTENCE, nonce, brand), headers: policy };
  const { cookie, headers } = csrfCookieFor(event, display.allowed_domains.length > 0);
  const view = {
    nonce,
    csrfToken: await csrfToken(cookie, paymentLinkId),
    attempt: newAttempt(),
    brand,
    choice,
    ...(refused ? { message: METHOD_NOT_OFFERED_SENTENCE } : {}),
  };
  return { statusCode: refused ? 400 : 200, html: checkoutFormPage(link, view), headers: { ...headers, ...policy } };
}, CHECKOUT_PAGE_OPTIONS);
