// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { csrfToken } from '../../shared/http/checkout-csrf';
import { csrfCookieFor } from '../../shared/http/checkout-handler';
import { htmlHandler } from '../../shared/http/html-handler';
import { authenticationPage, resultPage } from '../../shared/http/payer-pages';
import { payerPayment } from '../../shared/operations/payer/payer-payment';
import { isAuthenticationAction } from '../../shared/operations/payments/payment-authentication';

/**
 * `GET /pay/{payment_id}/authenticate` (public, no api-key): Switchyard's hosted page for the
 * payment's PIN, OTP, phone, birthday or address step (`next_action.redirect_to_url`), so a
 * merchant's server never touches a PIN. A payment no longer asking for a step shows its result. The form carries
 * a CSRF token matching the cookie the page sets.
 */
export const handler = htmlHandler(async (event) => {
  const { stored } = await payerPayment(event.pathParameters?.payment_id ?? '');
  const p = stored.payment;
  const action = p.status === 'RequiresAction' && isAuthenticationAction(p.next_action) ? p.next_action : null;
  if (!action) return { html: resultPage(p) };
  // The form's CSRF token: the signed double-submit cookie of the checkout form, scoped to this payment.
  const { cookie, headers } = csrfCookieFor(event);
  return { html: authenticationPage(p, action, await csrfToken(cookie, p.payment_id)), headers };
});
