import { ApiError } from '../../shared/domain/errors';
import { escapeHtml, htmlHandler, htmlPage } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { completeSandboxPage } from '../../shared/operations/sandbox-page-operations';

/**
 * `POST /sandbox/{kind}/{payment_id}` (form `decision=approve|decline`, no
 * api-key): the payer's answer on the hosted page; the sandbox delivers its
 * signed webhook and the page shows the payment's new status.
 */
export const handler = htmlHandler(async (event) => {
  const decision = (event.body as unknown as Record<string, string> | undefined)?.decision;
  if (decision !== 'approve' && decision !== 'decline') {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'Choose Approve or Decline.');
  }
  const payment = await completeSandboxPage(event.pathParameters?.payment_id ?? '', decision, publicBaseUrl(event));
  return {
    html: htmlPage('Payment ' + payment.status, `<h1>Payment ${escapeHtml(payment.status)}</h1><div class="box"><p>${escapeHtml(payment.payment_id)} is now <b>${escapeHtml(payment.status)}</b>.</p><p><small>You can close this window and return to the merchant.</small></p></div>`),
  };
});
