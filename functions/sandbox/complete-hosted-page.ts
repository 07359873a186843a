import { ApiError } from '../../shared/domain/errors';
import { processorReturnUrl } from '../../shared/domain/payment';
import { htmlHandler } from '../../shared/http/html-handler';
import { publicBaseUrl } from '../../shared/http/public-base-url';
import { completeSandboxPage, sandboxPageKind } from '../../shared/operations/sandbox/sandbox-page-operations';

/**
 * `POST /sandbox/{kind}/{payment_id}` (form `decision=approve|decline`, no
 * api-key): the payer's answer on the hosted page (only for a payment waiting on this very page:
 * 409 otherwise, and for a payment the API is changing); the sandbox delivers its
 * signed webhook, then sends the payer (303) to the payment's return route, as a
 * processor's page does, which redirects to the merchant's `return_url` or shows the result.
 */
export const handler = htmlHandler(async (event) => {
  const decision = (event.body as unknown as Record<string, string> | undefined)?.decision;
  if (decision !== 'approve' && decision !== 'decline') {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'Choose Approve or Decline.');
  }
  const kind = sandboxPageKind(event.pathParameters?.kind);
  const base = publicBaseUrl(event);
  const payment = await completeSandboxPage(event.pathParameters?.payment_id ?? '', kind, decision, base);
  return {
    statusCode: 303,
    headers: { location: processorReturnUrl(base, payment.payment_id) },
    html: '<!doctype html><p>Continue to the result page.</p>',
  };
});
