import { csrfCookieFor } from '../../shared/http/checkout-handler';
import { htmlHandler } from '../../shared/http/html-handler';
import { sandboxHostedPage, sandboxPageCsrfToken } from '../../shared/http/sandbox-page';
import { sandboxPageKind, sandboxPagePayment, waitsOnSandboxPage } from '../../shared/operations/sandbox/sandbox-page-operations';

/**
 * `GET /sandbox/{kind}/{payment_id}` (no api-key): the sandbox's hosted page a
 * `redirect_to_url` points to — a 3DS challenge (`3ds`) or a checkout page
 * (`checkout`) — where a person approves or declines the payment. The buttons show only while the
 * payment waits on this very page (not on a PIN, an OTP, a bank transfer or the other page); any
 * other `kind` is 404. The form carries a CSRF token matching the cookie the page sets
 * (shared/http/sandbox-page.ts).
 */
export const handler = htmlHandler(async (event) => {
  const kind = sandboxPageKind(event.pathParameters?.kind);
  const payment = await sandboxPagePayment(event.pathParameters?.payment_id ?? '');
  const { cookie, headers } = csrfCookieFor(event);
  const csrf = await sandboxPageCsrfToken(cookie, kind, payment.payment_id);
  return { html: sandboxHostedPage(payment, kind, waitsOnSandboxPage(payment, kind), csrf), headers };
});
