import { CHECKOUT_PAGE_OPTIONS, checkoutPolicyHeaders } from '../../shared/http/checkout-handler';
import { brandOf, checkoutStatusPage } from '../../shared/http/checkout-page';
import { htmlHandler } from '../../shared/http/html-handler';
import { completeCheckout } from '../../shared/operations/payment-links/checkout';

/**
 * `GET /checkout/{payment_link_id}/complete?payment_id=…` (public): where a link's payment sends the payer once its
 * steps are done (the payment's `return_url`). A failed payment gives its place back (once); then 303 to the merchant's
 * `return_url` with `payment_id`, `payment_link_id`, `status` and `signature`, or the status view. 404 for a payment
 * that is not the link's.
 */
export const handler = htmlHandler(async (event, _context, { nonce }) => {
  const outcome = await completeCheckout(event.pathParameters?.payment_link_id ?? '', event.queryStringParameters?.payment_id);
  if (outcome.kind === 'return') {
    return { statusCode: 303, headers: { location: outcome.location }, html: '<!doctype html><p>Returning to the merchant.</p>' };
  }
  return {
    html: checkoutStatusPage(outcome.link, outcome.payment, nonce, brandOf(outcome.display)),
    headers: checkoutPolicyHeaders(nonce, outcome.display),
  };
}, CHECKOUT_PAGE_OPTIONS);
