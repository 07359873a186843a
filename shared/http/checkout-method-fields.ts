/**
 * The method part of the checkout form: the chooser (plain links to `?payment_method=…`, so it works with no script;
 * none when the page offers one method) and each method's fields: the card (HTML autofill tokens `cc-name`,
 * `cc-number`, `cc-exp-month`, `cc-exp-year`, `cc-csc`: WHATWG HTML "Autofill"), the payer's bank for USSD, the
 * phone for mobile money; a bank transfer needs none. Every field has its label and its error next to it.
 */
import type { Currency } from '../domain/money';
import type { PaymentMethod } from '../domain/payment';
import type { CheckoutForm, FieldErrors } from '../operations/payment-links/checkout';
import { METHOD_LABELS, type MethodChoice } from '../operations/payment-links/checkout-methods';
import { describedBy, fieldError, type InputSpec, input } from './checkout-inputs';
import { escapeHtml } from './html-handler';

/** The styles of the chooser and the bank list (added to the page's). */
export const METHOD_STYLE =
  '.methods{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:.5rem 0}' +
  '.methods a,.methods strong{display:block;padding:.45rem .75rem;border:1px solid #6e7781;border-radius:6px;color:#0a3069}' +
  'a.button{display:block;text-align:center;padding:.75rem;border-radius:6px;background:#0a3069;color:#fff;text-decoration:none}' +
  'dt{color:#57606a;margin-top:.5rem}dd{margin:0;font-size:1.1rem}' +
  'select{box-sizing:border-box;width:100%;font-size:1rem;padding:.55rem;border:1px solid #6e7781;border-radius:6px;background:#fff}';

/**
 * The chooser: a link per other method (`?payment_method=…`, a GET that draws the page with that method's fields), the
 * shown one marked `aria-current`. '' when the page offers one method.
 */
export function methodChooser(choice: MethodChoice): string {
  if (choice.methods.length < 2) return '';
  const items = choice.methods.map((m) =>
    m === choice.method
      ? `<li><strong aria-current="true">${METHOD_LABELS[m]}</strong></li>`
      : `<li><a href="?payment_method=${m}">${METHOD_LABELS[m]}</a></li>`,
  );
  return `<nav aria-label="Payment method"><ul class="methods">${items.join('')}</ul></nav>`;
}

/** The card's fields. */
function cardFields(form: CheckoutForm, errors: FieldErrors): string {
  const top: InputSpec[] = [
    { field: 'card_name', label: 'Name on card', attrs: 'autocomplete="cc-name"' },
    { field: 'card_number', label: 'Card number', attrs: 'inputmode="numeric" autocomplete="cc-number" maxlength="23" required' },
  ];
  const expiry: InputSpec[] = [
    { field: 'card_exp_month', label: 'Month (MM)', attrs: 'inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" required' },
    { field: 'card_exp_year', label: 'Year (YYYY)', attrs: 'inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" required' },
    { field: 'card_cvc', label: 'CVC', attrs: 'type="password" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required' },
  ];
  return `${top.map((f) => input(f, form, errors)).join('')}<div class="row">${expiry.map((f) => `<div>${input(f, form, errors)}</div>`).join('')}</div>`;
}

/** The USSD bank list: a labelled `<select>` of the banks routing serves, the payer's choice kept after a mistake. */
function ussdFields(banks: readonly { code: string; name: string }[], form: CheckoutForm, errors: FieldErrors): string {
  const chosen = form.ussd_bank_code;
  const options = banks.map(
    (b) => `<option value="${escapeHtml(b.code)}"${b.code === chosen ? ' selected' : ''}>${escapeHtml(b.name)}</option>`,
  );
  return `<label for="ussd_bank_code">Your bank</label><select id="ussd_bank_code" name="ussd_bank_code" required${describedBy('ussd_bank_code', errors)}><option value="">Choose your bank</option>${options.join('')}</select>${fieldError('ussd_bank_code', errors)}<p><small>After you press Pay, you get a code to dial on the phone registered with your bank.</small></p>`;
}

/** The mobile-money phone, labelled for the currency's networks. */
function mobileMoneyFields(currency: Currency, form: CheckoutForm, errors: FieldErrors): string {
  const label = currency === 'KES' ? 'M-PESA number (like +254722000000)' : 'Mobile money number: MTN, Telecel or AT (like +233241234567)';
  return `${input({ field: 'mobile_money_phone', label, attrs: 'type="tel" autocomplete="tel" required' }, form, errors)}<p><small>After you press Pay, approve the payment on your phone.</small></p>`;
}

/** What each method's form says under it. */
const METHOD_NOTES: Readonly<Record<PaymentMethod, string>> = {
  card: 'Card details go to the payment processor only: they are never stored or shown again.',
  bank_transfer: 'After you press Pay, you get an account number to transfer the exact amount to, valid for a limited time.',
  ussd: 'Your bank asks you to confirm the payment on your phone.',
  mobile_money: 'Your phone number goes to the payment processor only, to ask you to approve.',
};

/**
 * The method's fieldset, with the hidden `payment_method` the form posts, and the note said under the form.
 * @param currency the link's currency (the mobile-money label names its networks)
 */
export function methodFields(
  choice: MethodChoice,
  currency: Currency,
  form: CheckoutForm,
  errors: FieldErrors,
): { fields: string; note: string } {
  const method = choice.method;
  const inner =
    method === 'card'
      ? cardFields(form, errors)
      : method === 'ussd'
        ? ussdFields(choice.ussdBanks ?? [], form, errors)
        : method === 'mobile_money'
          ? mobileMoneyFields(currency, form, errors)
          : '';
  const fields = `<input type="hidden" name="payment_method" value="${method}"><fieldset style="border:0;padding:0;margin:0"><legend style="font-weight:700;margin-top:.8rem">${METHOD_LABELS[method]}</legend>${inner}</fieldset>`;
  return { fields, note: METHOD_NOTES[method] };
}
