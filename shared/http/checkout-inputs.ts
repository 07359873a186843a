/**
 * One labelled input of the checkout form, with its error written next to it and tied to it with `aria-describedby`
 * (WCAG 2.2 SC 3.3.1). What the payer typed is written back after a mistake, escaped, except the card number and
 * the CVC, which are never written anywhere.
 */
import type { CheckoutField, CheckoutForm, FieldErrors } from '../operations/payment-links/checkout';
import { escapeHtml } from './html-handler';

/** What the form may write back into its inputs after a mistake: never the card number or the CVC. */
const ECHOED: readonly CheckoutField[] = [
  'amount',
  'email',
  'name',
  'phone',
  'card_name',
  'card_exp_month',
  'card_exp_year',
  'mobile_money_phone',
];

/** One input: its field (also its `id` and `name`), its label and its other attributes (autofill token, inputmode). */
export interface InputSpec {
  field: CheckoutField;
  label: string;
  attrs: string;
}

/** The error of a field, next to it: `<p class="err" id="err-…">`, or '' without one. */
export function fieldError(field: CheckoutField, errors: FieldErrors): string {
  const error = errors[field];
  return error ? `<p class="err" id="err-${field}">${escapeHtml(error)}</p>` : '';
}

/** The attributes that tie a field to its error (`aria-invalid`, `aria-describedby`), or '' without one. */
export function describedBy(field: CheckoutField, errors: FieldErrors): string {
  return errors[field] ? ` aria-invalid="true" aria-describedby="err-${field}"` : '';
}

/** A labelled `<input>`, what the payer typed written back when it may be ({@link ECHOED}), its error after it. */
export function input(spec: InputSpec, form: CheckoutForm, errors: FieldErrors): string {
  const echoed =
    ECHOED.includes(spec.field) && typeof form[spec.field] === 'string' ? ` value="${escapeHtml(form[spec.field] as string)}"` : '';
  return `<label for="${spec.field}">${escapeHtml(spec.label)}</label><input id="${spec.field}" name="${spec.field}" ${spec.attrs}${echoed}${describedBy(spec.field, errors)}>${fieldError(spec.field, errors)}`;
}
