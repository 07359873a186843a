import { csrfToken } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, csrfCookieFor, newAttempt } from '../../shared/http/checkout-handler';
import { checkoutFormPage, checkoutStatusPage, closedLinkPage } from '../../shared/http/checkout-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { checkoutLink } from '../../shared/operations/payment-links/checkout';

/**
 * `GET /checkout/{payment_link_id}` (public, no api-key): a payment link's hosted checkout page, the form a payer pays
 * with. A link that takes no payment (deactivated, expired, used up; a single-use link whose payment is final) answers
 * 410 with a sentence saying why.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const { link, payment, closed } = await checkoutLink(paymentLinkId);
  if (closed) return { statusCode: 410, html: closedLinkPage(closed, nonce) };
  // A single-use link whose payment is under way (its 3-D Secure step, the processor's answer): its status.
  if (payment && payment.status !== 'RequiresConfirmation') return { html: checkoutStatusPage(link, payment, nonce) };
  const { cookie, headers } = csrfCookieFor(event);
  return { html: checkoutFormPage(link, { nonce, csrfToken: await csrfToken(cookie, paymentLinkId), attempt: newAttempt() }), headers };
}, CHECKOUT_PAGE_OPTIONS);
