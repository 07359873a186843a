import { ApiError } from '../../shared/domain/errors';
import { processorReturnUrl } from '../../shared/domain/payment';
import { csrfCookieOf } from '../../shared/http/checkout-csrf';
import { csrfCookieFor } from '../../shared/http/checkout-handler';
import { htmlHandler } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { SANDBOX_PAGE_CSRF_REFUSAL, sandboxHostedPage, sandboxPageCsrfToken, sandboxPageCsrfValid } from '../../shared/http/sandbox-page';
import {
  completeSandboxPage,
  sandboxPageKind,
  sandboxPagePayment,
  waitsOnSandboxPage,
} from '../../shared/operations/sandbox/sandbox-page-operations';

/**
 * `POST /sandbox/{kind}/{payment_id}` (form `csrf_token` and `decision=approve|decline`, no
 * api-key): the payer's answer on the hosted page (only for a payment waiting on this very page:
 * 409 otherwise, and for a payment the API is changing); the sandbox delivers its
 * signed webhook, then sends the payer (303) to the payment's return route, as a
 * processor's page does, which redirects to the merchant's `return_url` or shows the result.
 * A form whose CSRF token does not match the page's cookie (none, a wrong one, another page's, or no cookie) is
 * refused 403 with the page again and a fresh token; nothing is recorded or delivered.
 */
export const handler = htmlHandler(async (event) => {
  const kind = sandboxPageKind(event.pathParameters?.kind);
  const paymentId = event.pathParameters?.payment_id ?? '';
  const form = (event.body as unknown as Record<string, string | undefined> | undefined) ?? {};
  // A form without the page's token (another site's, or a stale one): refused before the decision is read.
  if (!(await sandboxPageCsrfValid(csrfCookieOf(event.cookies, event.headers?.cookie), kind, paymentId, form.csrf_token))) {
    const payment = await sandboxPagePayment(paymentId);
    const { cookie, headers } = csrfCookieFor(event);
    const csrf = await sandboxPageCsrfToken(cookie, kind, payment.payment_id);
    return {
      statusCode: 403,
      headers,
      html: sandboxHostedPage(payment, kind, waitsOnSandboxPage(payment, kind), csrf, SANDBOX_PAGE_CSRF_REFUSAL),
    };
  }
  const decision = form.decision;
  if (decision !== 'approve' && decision !== 'decline') {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'Choose Approve or Decline.');
  }
  const base = publicBaseUrl(event);
  const payment = await completeSandboxPage(paymentId, kind, decision, base);
  return {
    statusCode: 303,
    headers: { location: processorReturnUrl(base, payment.payment_id) },
    html: '<!doctype html><p>Continue to the result page.</p>',
  };
});
