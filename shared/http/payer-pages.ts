import type { Context } from 'aws-lambda';
import { formatMinorUnits } from '../domain/money';
import type { AuthenticationAction, Payment } from '../domain/payment';
import { requestDeadline } from '../operations/request-context';
import { escapeHtml, htmlPage } from './html-handler';

/** The Lambda's remaining time when the context has none (local gateway): 29 000 ms, the API functions' timeout. */
const FALLBACK_REMAINING_MS = 29_000;

/** The processor-call deadline of a payer page request (epoch ms), as for API requests. */
export function pageDeadline(context: Context): number {
  return requestDeadline(
    typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : FALLBACK_REMAINING_MS,
  );
}

/** What each step's form asks, and its input(s). Inputs never carry a value back (PIN, OTP). */
const STEP_FORMS: Readonly<Record<AuthenticationAction['type'], { title: string; inputs: string }>> = {
  submit_pin: {
    title: 'Enter your card PIN',
    inputs: '<label>PIN <input name="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="4" required></label>',
  },
  submit_otp: {
    title: 'Enter the one-time code',
    inputs: '<label>Code <input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required></label>',
  },
  submit_phone: {
    title: 'Enter your phone number',
    inputs: '<label>Phone <input name="phone" type="tel" autocomplete="tel" required></label>',
  },
  submit_birthday: {
    title: 'Enter your date of birth',
    inputs: '<label>Date of birth <input name="birthday" type="date" required></label>',
  },
  submit_address: {
    title: 'Enter your billing address',
    inputs: ['line1', 'city', 'state', 'zip', 'country']
      .map((f) => `<label>${f === 'line1' ? 'Address' : f[0]!.toUpperCase() + f.slice(1)} <input name="address_${f}" required></label>`)
      .join('<br>'),
  },
};

const CARD_INPUTS =
  '<p><small>Your bank needs the card again with this step.</small></p>' +
  '<label>Card number <input name="card_number" inputmode="numeric" autocomplete="cc-number" required></label><br>' +
  '<label>Month <input name="card_exp_month" size="2" autocomplete="cc-exp-month" required></label> ' +
  '<label>Year <input name="card_exp_year" size="4" autocomplete="cc-exp-year" required></label> ' +
  '<label>CVC <input name="card_cvc" type="password" size="4" autocomplete="cc-csc" required></label><br>';

/**
 * The hosted page for a payment's authentication step: amount, the processor's prompt, the
 * processor's last error for this step (e.g. a wrong OTP), and a form posting to the same URL with
 * its CSRF token (./checkout-csrf.ts: the signed double-submit cookie, scoped to the payment).
 * @param csrfToken the token of the request's CSRF cookie for this payment (64 hex)
 * @param message a sentence above the form instead of the processor's error (a refused form)
 */
export function authenticationPage(payment: Payment, action: AuthenticationAction, csrfToken: string, message?: string): string {
  const form = STEP_FORMS[action.type];
  const said = message ?? payment.error_message;
  const error = said ? `<p style="color:#cf222e" role="alert">${escapeHtml(said)}</p>` : '';
  const prompt = action.display_text ? `<p>${escapeHtml(action.display_text)}</p>` : '';
  return htmlPage(
    form.title,
    `<h1>${escapeHtml(form.title)}</h1><div class="box"><p><b>${escapeHtml(formatMinorUnits(payment.amount, payment.currency))}</b><br><small>${escapeHtml(payment.payment_id)}</small></p>${prompt}${error}
<form method="post"><input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">${action.card_required ? CARD_INPUTS : ''}${form.inputs}<br><button class="approve" type="submit">Continue</button></form></div>`,
  );
}

/** The plain result page shown when a payment has no `return_url`. */
export function resultPage(payment: Payment): string {
  const done = payment.status === 'Succeeded' || payment.status === 'RequiresCapture';
  const text = done
    ? 'Payment complete'
    : payment.status === 'Failed' || payment.status === 'Cancelled'
      ? 'Payment not completed'
      : 'Payment pending';
  // Why a failed payment failed (e.g. too many wrong answers to a step): the processor's or Switchyard's message.
  const reason = payment.status === 'Failed' && payment.error_message ? `<p>${escapeHtml(payment.error_message)}</p>` : '';
  return htmlPage(
    text,
    `<h1>${escapeHtml(text)}</h1><div class="box"><p><b>${escapeHtml(formatMinorUnits(payment.amount, payment.currency))}</b><br><small>${escapeHtml(payment.payment_id)} · ${escapeHtml(payment.status)}</small></p>${reason}<p><small>You can close this window and return to the merchant.</small></p></div>`,
  );
}
