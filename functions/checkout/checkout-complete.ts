import { CHECKOUT_PAGE_OPTIONS, checkoutPolicyHeaders } from '../../shared/http/checkout-handler';
import { brandOf, checkoutStatusPage } from '../../shared/http/checkout-page';
import { checkoutWaitingPage } from '../../shared/http/checkout-waiting-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { completeCheckout, completionUrl } from '../../shared/operations/payment-links/checkout';

/**
 * `GET /checkout/{payment_link_id}/complete?payment_id=…` (public): where a link's payment sends the payer once its
 * steps are done (the payment's `return_url`). A failed payment gives its place back (once). A payment the payer still
 * pays away from the page (a transfer, a USSD code, a phone prompt) shows what to do, refreshing itself (a read only,
 * never a confirm); once final: 303 to the merchant's `return_url` with `payment_id`, `payment_link_id`, `status` and
 * `signature`, or the status view. 404 for a payment that is not the link's.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const paymentLinkId = event.pathParameters?.payment_link_id ?? '';
  const outcome = await completeCheckout(paymentLinkId, event.queryStringParameters?.payment_id);
  if (outcome.kind === 'return') {
    return { statusCode: 303, headers: { location: outcome.location }, html: '<!doctype html><p>Returning to the merchant.</p>' };
  }
  const brand = brandOf(outcome.display);
  const headers = checkoutPolicyHeaders(nonce, outcome.display);
  if (outcome.kind === 'waiting') {
    const check = new URL(completionUrl(publicBaseUrl(event), paymentLinkId));
    check.searchParams.set('payment_id', outcome.payment.payment_id);
    return { html: checkoutWaitingPage(outcome.link, outcome.payment, { nonce, brand, checkUrl: check.toString() }), headers };
  }
  return { html: checkoutStatusPage(outcome.link, outcome.payment, nonce, brand), headers };
}, CHECKOUT_PAGE_OPTIONS);
