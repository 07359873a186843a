/**
 * The sandbox's hosted page (`/sandbox/{kind}/{payment_id}`: a 3-D Secure challenge or a checkout page with Approve
 * and Decline) and the CSRF token of its form. The token is the payer pages' (./checkout-csrf.ts: the signed
 * double-submit cookie `checkout_csrf`), scoped to the page kind and the payment, so a token of the payment's step
 * page (`/pay/{payment_id}/authenticate`, scoped to the payment id alone) or of the other sandbox page is refused here.
 */
import { formatMinorUnits } from '../domain/money';
import type { Payment } from '../domain/payment';
import type { SandboxPageKind } from '../operations/sandbox/sandbox-page-operations';
import { csrfToken, csrfValid } from './checkout-csrf';
import { escapeHtml, htmlPage } from './html-handler';

/** What the CSRF token of a sandbox page is bound to: `sandbox-{kind}:{payment_id}`. */
const scopeOf = (kind: SandboxPageKind, paymentId: string) => `sandbox-${kind}:${paymentId}`;

/**
 * The form token of a sandbox page for a CSRF cookie value.
 * @param cookie the request's `checkout_csrf` cookie value (32 hex)
 * @returns 64 hex characters
 */
export function sandboxPageCsrfToken(cookie: string, kind: SandboxPageKind, paymentId: string): Promise<string> {
  return csrfToken(cookie, scopeOf(kind, paymentId));
}

/**
 * Whether a posted token matches the cookie the request came with, for this page of this payment (constant-time).
 * @param cookie the request's well-formed `checkout_csrf` cookie, or `undefined` when it carries none
 * @param token the form's `csrf_token`, or `undefined` when absent
 */
export function sandboxPageCsrfValid(
  cookie: string | undefined,
  kind: SandboxPageKind,
  paymentId: string,
  token: string | undefined,
): Promise<boolean> {
  return csrfValid(cookie, scopeOf(kind, paymentId), token);
}

/** The sentence of a refused form (no token, a wrong one, or no cookie). */
export const SANDBOX_PAGE_CSRF_REFUSAL =
  'This form expired or did not come from this page. Nothing was approved or declined. Press Approve or Decline again.';

/**
 * The sandbox's hosted page: the amount, the payment id and description, and, while the payment waits on this very
 * page, the Approve and Decline form carrying its CSRF token; otherwise a sentence saying why there is nothing to do.
 * @param waiting whether the payment waits on this page (`waitsOnSandboxPage`)
 * @param csrf the form's token ({@link sandboxPageCsrfToken}; 64 hex)
 * @param message a sentence above the form (a refused form), announced to screen readers (`role="alert"`)
 */
export function sandboxHostedPage(payment: Payment, kind: SandboxPageKind, waiting: boolean, csrf: string, message?: string): string {
  const title = kind === '3ds' ? '3-D Secure check' : 'Sandbox checkout';
  const said = message ? `<p style="color:#cf222e" role="alert">${escapeHtml(message)}</p>` : '';
  const action = waiting
    ? `<form method="post"><input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}"><button class="approve" name="decision" value="approve">Approve</button><button class="decline" name="decision" value="decline">Decline</button></form>`
    : payment.status === 'RequiresAction'
      ? '<p>This payment waits on another step, not on this page: there is nothing to approve here.</p>'
      : `<p>This payment is <b>${escapeHtml(payment.status)}</b>.</p>`;
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1><div class="box">
<p><b>${escapeHtml(formatMinorUnits(payment.amount, payment.currency))}</b><br><small>${escapeHtml(payment.payment_id)}${payment.description ? ` · ${escapeHtml(payment.description)}` : ''}</small></p>
${said}${action}</div><p><small>Switchyard sandbox: no real money moves.</small></p>`,
  );
}
