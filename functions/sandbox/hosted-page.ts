import { formatMinorUnits } from '../../shared/domain/money';
import { escapeHtml, htmlHandler, htmlPage } from '../../shared/http/html-handler';
import { sandboxPageKind, sandboxPagePayment, waitsOnSandboxPage } from '../../shared/operations/sandbox/sandbox-page-operations';

/**
 * `GET /sandbox/{kind}/{payment_id}` (no api-key): the sandbox's hosted page a
 * `redirect_to_url` points to — a 3DS challenge (`3ds`) or a checkout page
 * (`checkout`) — where a person approves or declines the payment. The buttons show only while the
 * payment waits on this very page (not on a PIN, an OTP, a bank transfer or the other page); any
 * other `kind` is 404.
 */
export const handler = htmlHandler(async (event) => {
  const pageKind = sandboxPageKind(event.pathParameters?.kind);
  const kind = pageKind === '3ds' ? '3-D Secure check' : 'Sandbox checkout';
  const payment = await sandboxPagePayment(event.pathParameters?.payment_id ?? '');
  const waiting = waitsOnSandboxPage(payment, pageKind);
  const body = `<h1>${escapeHtml(kind)}</h1><div class="box">
<p><b>${escapeHtml(formatMinorUnits(payment.amount, payment.currency))}</b><br><small>${escapeHtml(payment.payment_id)}${payment.description ? ` · ${escapeHtml(payment.description)}` : ''}</small></p>
${
  waiting
    ? `<form method="post"><button class="approve" name="decision" value="approve">Approve</button><button class="decline" name="decision" value="decline">Decline</button></form>`
    : payment.status === 'RequiresAction'
      ? '<p>This payment waits on another step, not on this page: there is nothing to approve here.</p>'
      : `<p>This payment is <b>${escapeHtml(payment.status)}</b>.</p>`
}</div><p><small>Switchyard sandbox: no real money moves.</small></p>`;
  return { html: htmlPage(kind, body) };
});
