// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import type { Payment } from '../../shared/domain/payment';
import { processorReturnUrl } from '../../shared/domain/payment';
import { csrfCookieOf, csrfToken, csrfValid } from '../../shared/http/checkout-csrf';
import { csrfCookieFor } from '../../shared/http/checkout-handler';
import { htmlHandler } from '../../shared/http/html-handler';
import { authenticationPage, pageDeadline, resultPage } from '../../shared/http/payer-pages';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { submitAuthenticationPage } from '../../shared/operations/payer/authentication-page-submission';
import { payerPayment } from '../../shared/operations/payer/payer-payment';
import { isAuthenticationAction } from '../../shared/operations/payments/payment-authentication';

/**
 * `POST /pay/{payment_id}/authenticate` (public form post): relays the payer's answer exactly as
 * `POST /payments/{payment_id}/authenticate` does. When the processor asks for another step the
 * page shows it; when it asks for 3-D Secure the payer is sent (303) there; otherwise to the return
 * route, which redirects to the merchant's `return_url`. The form's CSRF token must match the page's cookie (else
 * 403 and the step's form again, nothing sent to the processor).
 */
export const handler = htmlHandler(async (event, context) => {
  const paymentId = event.pathParameters?.payment_id ?? '';
  const base = publicBaseUrl(event);
  const form = (event.body as unknown as Record<string, string | undefined> | undefined) ?? {};
  const { cookie, headers } = csrfCookieFor(event);
  const stepPage = async (payment: Payment, statusCode?: number, message?: string) => {
    const action = payment.status === 'RequiresAction' && isAuthenticationAction(payment.next_action) ? payment.next_action : null;
    if (!action) return { statusCode, html: resultPage(payment) };
    return { statusCode, headers, html: authenticationPage(payment, action, await csrfToken(cookie, payment.payment_id), message) };
  };
  // A form without the page's token (another site's, or a stale one): refused before any read of the answer, nothing sent.
  if (!(await csrfValid(csrfCookieOf(event.cookies, event.headers?.cookie), paymentId, form.csrf_token))) {
    const { stored } = await payerPayment(paymentId);
    return stepPage(stored.payment, 403, 'This form expired or did not come from this page. Nothing was sent. Enter your answer again.');
  }
  const payment = await submitAuthenticationPage(paymentId, form, base, pageDeadline(context));
  if (payment.status === 'RequiresAction' && isAuthenticationAction(payment.next_action)) return stepPage(payment);
  if (payment.status === 'RequiresAction' && payment.next_action?.type === 'redirect_to_url') {
    // The step led to the issuer's 3-D Secure page: the payer goes there, and comes back to the return route.
    return {
      statusCode: 303,
      headers: { location: payment.next_action.redirect_to_url },
      html: '<!doctype html><p>Continue to your bank.</p>',
    };
  }
  const location = processorReturnUrl(base, payment.payment_id);
  return { statusCode: 303, headers: { location }, html: '<!doctype html><p>Continue to the result page.</p>' };
});
