import { csrfToken } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, checkoutPolicyHeaders, csrfCookieFor, newAttempt } from '../../shared/http/checkout-handler';
import { brandOf, checkoutFormPage, checkoutStatusPage, closedLinkPage } from '../../shared/http/checkout-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { checkoutLink } from '../../shared/operations/payment-links/checkout';

/**
 * `GET /checkout/{payment_link_id}` (public, no api-key): a payment link's hosted checkout page, the form a payer pays
 * with. A link that takes no payment (deactivated, expired, used up; a single-use link whose payment is final) answers
 * 410 with a sentence saying why.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const { link, payment, closed, display } = await checkoutLink(paymentLinkId);
  const brand = brandOf(display);
  const policy = checkoutPolicyHeaders(nonce, display);
  if (closed) return { statusCode: 410, html: closedLinkPage(closed, nonce, brand), headers: policy };
  // A single-use link whose payment is under way (its 3-D Secure step, the processor's answer): its status.
  if (payment && payment.status !== 'RequiresConfirmation')
    return { html: checkoutStatusPage(link, payment, nonce, brand), headers: policy };
  const { cookie, headers } = csrfCookieFor(event, display.allowed_domains.length > 0);
  const view = { nonce, csrfToken: await csrfToken(cookie, paymentLinkId), attempt: newAttempt(), brand };
  return { html: checkoutFormPage(link, view), headers: { ...headers, ...policy } };
}, CHECKOUT_PAGE_OPTIONS);
