// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { htmlHandler } from '../../shared/http/html-handler';
import { pageDeadline, resultPage } from '../../shared/http/payer-pages';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { merchantReturnLocation, payerReturn } from '../../shared/operations/payer/payer-return';
import { isAuthenticationAction } from '../../shared/operations/payments/payment-authentication';

/**
 * `GET /pay/{payment_id}/return` (public): where every processor sends the payer back (after 3DS,
 * a hosted page or a step). Syncs the payment with its processor; a payment still asking for a step
 * sends the payer (303) to its hosted step page; otherwise redirects (303) to the merchant's `return_url` with `payment_id` and `status` in the query, or shows a plain result
 * page when the payment has none. The merchant must still trust only its own API read (or the
 * webhook), never the query, for fulfilment.
 */
export const handler = htmlHandler(async (event, context) => {
  const payment = await payerReturn(event.pathParameters?.payment_id ?? '', pageDeadline(context), publicBaseUrl(event));
  if (payment.status === 'RequiresAction' && isAuthenticationAction(payment.next_action)) {
    // The processor still needs a step from the payer (e.g. an OTP after 3-D Secure): its hosted page.
    return { statusCode: 303, headers: { location: payment.next_action.redirect_to_url }, html: '<!doctype html><p>One more step.</p>' };
  }
  const location = merchantReturnLocation(payment);
  if (location) return { statusCode: 303, headers: { location }, html: '<!doctype html><p>Returning to the merchant.</p>' };
  return { html: resultPage(payment) };
});
