import { csrfToken } from '../../shared/http/checkout-csrf';
import { CHECKOUT_PAGE_OPTIONS, csrfCookieFor, newAttempt } from '../../shared/http/checkout-handler';
import { checkoutFormPage, closedLinkPage } from '../../shared/http/checkout-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { checkoutLink, closedSentence } from '../../shared/operations/payment-links/checkout';

/**
 * `GET /checkout/{payment_link_id}` (public, no api-key): a payment link's hosted checkout page, the form a payer pays
 * with. A link that takes no payment (deactivated, expired, used up) answers 410 with a sentence saying why.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const { link } = await checkoutLink(paymentLinkId);
  if (link.status !== 'active') return { statusCode: 410, html: closedLinkPage(closedSentence(link), nonce) };
  const { cookie, headers } = csrfCookieFor(event);
  return { html: checkoutFormPage(link, { nonce, csrfToken: await csrfToken(cookie, paymentLinkId), attempt: newAttempt() }), headers };
}, CHECKOUT_PAGE_OPTIONS);
