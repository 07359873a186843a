// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { htmlHandler } from '../../shared/http/html-handler';
import { authenticationPage, resultPage } from '../../shared/http/payer-pages';
import { payerPayment } from '../../shared/operations/payer/payer-payment';
import { isAuthenticationAction } from '../../shared/operations/payments/payment-authentication';

/**
 * `GET /pay/{payment_id}/authenticate` (public, no api-key): Switchyard's hosted page for the
 * payment's PIN, OTP, phone, birthday or address step (`next_action.redirect_to_url`), so a
 * merchant's server never touches a PIN. A payment no longer asking for a step shows its result.
 */
export const handler = htmlHandler(async (event) => {
  const { stored } = await payerPayment(event.pathParameters?.payment_id ?? '');
  const p = stored.payment;
  const action = p.status === 'RequiresAction' && isAuthenticationAction(p.next_action) ? p.next_action : null;
  return { html: action ? authenticationPage(p, action) : resultPage(p) };
});
