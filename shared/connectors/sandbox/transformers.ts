import { ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import type { AuthenticationStep, PaymentMethod } from '../../domain/payment';

/**
 * The sandbox's test cards and what each one does. Any other Luhn-valid number succeeds.
 * Numbers follow the conventions of Stripe's test cards (docs.stripe.com/testing).
 */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, SandboxCardOutcome>> = {
  '4242424242424242': { kind: 'success' },
  '4111111111111111': { kind: 'success' },
  '5555555555554444': { kind: 'success' },
  '4000000000000002': { kind: 'decline', code: 'card_declined', message: 'The card was declined by the issuer.' },
  '4000000000009995': { kind: 'decline', code: 'insufficient_funds', message: 'The card has insufficient funds to complete the purchase.' },
  '4000000000003220': { kind: 'three_ds' },
  '4000000000000119': { kind: 'timeout' },
  // Authentication steps (PIN 1234, OTP 123456; see SANDBOX_STEP_VALUES). The first is Paystack's
  // published test Verve card (https://paystack.com/docs/payments/test-payments/): PIN, then OTP.
  '5060666666666666666': { kind: 'step', step: 'submit_pin' },
  '5060990000000000019': { kind: 'step', step: 'submit_otp' },
  '5060990000000000027': { kind: 'step', step: 'submit_phone' },
  '5060990000000000035': { kind: 'step', step: 'submit_birthday' },
  '5060990000000000043': { kind: 'step', step: 'submit_address' },
  // Flutterwave-style PIN: the card must be sent again with the PIN (next_action.card_required), then OTP.
  '4000000000000317': { kind: 'step', step: 'submit_pin', cardRequired: true },
  // Saved methods, after Stripe's test cards (https://docs.stripe.com/testing): the first payment
  // succeeds; later charges of the saved method decline (4000000000000341: "attaching succeeds, charges fail"),
  // or need the payer when they are absent (4000002760003184: "requires authentication on all transactions").
  '4000000000000341': { kind: 'success', savedCharges: 'decline' },
  '4000002760003184': { kind: 'success', savedCharges: 'authentication_required' },
  // Disputes, Stripe's test cards: "the charge succeeds and is then disputed as fraudulent"
  // (4000000000000259), and an inquiry (4000000000001976: "disputed as an inquiry"). docs.stripe.com/testing#disputes.
  '4000000000000259': { kind: 'success', dispute: 'dispute' },
  '4000000000001976': { kind: 'success', dispute: 'pre_dispute' },
};

/**
 * How the sandbox answers later charges of a saved card: `ok` succeeds; `decline` fails
 * (`card_declined`); `authentication_required` succeeds with the payer present and asks for 3-D Secure
 * (the hosted page) when the charge is off-session. Carried in the sandbox's token, which holds nothing
 * of the card: `sbxtok_<behaviour>_<32 hex>`.
 */
export type SandboxSavedChargeBehaviour = 'ok' | 'decline' | 'authentication_required';

/** The sandbox's reusable token for a saved card of this behaviour (a new random one each time, as processors issue them). */
export function sandboxToken(behaviour: SandboxSavedChargeBehaviour, random: string): string {
  return `sbxtok_${behaviour}_${random}`;
}

/** The behaviour a sandbox token carries; undefined for anything that is not a sandbox token. */
export function sandboxTokenBehaviour(token: string): SandboxSavedChargeBehaviour | undefined {
  const m = /^sbxtok_(ok|decline|authentication_required)_[0-9a-f]{32}$/.exec(token);
  return m ? (m[1] as SandboxSavedChargeBehaviour) : undefined;
}

/**
 * The values the sandbox accepts at each step: PIN `1234`, OTP (or mobile-money voucher) `123456`;
 * any phone, birthday or address. A wrong PIN fails the payment (`incorrect_pin`, as an issuer
 * blocks after a wrong PIN); a wrong OTP leaves the step open (`incorrect_otp`) for another try.
 */
export const SANDBOX_STEP_VALUES = { pin: '1234', otp: '123456' } as const;

/** The step that follows each answered step in the sandbox: a PIN or a phone is followed by an OTP; the others complete the payment. */
export const SANDBOX_NEXT_STEP: Readonly<Record<AuthenticationStep, AuthenticationStep | null>> = {
  submit_pin: 'submit_otp',
  submit_phone: 'submit_otp',
  submit_otp: null,
  submit_birthday: null,
  submit_address: null,
};

/**
 * Ghana numbers of Telecel Cash (formerly Vodafone Cash; prefixes 020 and 050, +233 20 / +233 50):
 * a sandbox GHS mobile-money payment from one asks for a voucher the payer generates by dialling
 * *110#, as Paystack's Telecel charges do (`send_otp` with that prompt).
 */
export function isTelecelGhanaPhone(phone: string | null | undefined): boolean {
  return ghanaMobileNetwork(phone) === 'telecel';
}

/** The prompt shown with the sandbox's Telecel voucher step. */
export const TELECEL_VOUCHER_PROMPT =
  'Dial *110# on your Telecel phone, choose Make Payments, then Generate Voucher, and enter the voucher code here.';

/** What the sandbox does with a card. */
export type SandboxCardOutcome =
  /** Succeeds; a card saved from it behaves as `savedCharges` later (default `ok`). */
  | { kind: 'success'; savedCharges?: SandboxSavedChargeBehaviour; dispute?: 'dispute' | 'pre_dispute' }
  | { kind: 'decline'; code: string; message: string }
  | { kind: 'three_ds' }
  /** The sandbox does not answer authorize in time; a later sync finds the charge succeeded. */
  | { kind: 'timeout' }
  /** The issuer asks for an authentication step first (`cardRequired`: the card must be sent again with it). */
  | { kind: 'step'; step: AuthenticationStep; cardRequired?: boolean };

/** The outcome for a card number (the table above, else success). */
export function sandboxCardOutcome(cardNumber: string): SandboxCardOutcome {
  return SANDBOX_TEST_CARDS[cardNumber] ?? { kind: 'success' };
}

/** How the sandbox answers each non-card method at confirm: the payer still has to act. */
export const SANDBOX_METHOD_STATUS: Readonly<Record<Exclude<PaymentMethod, 'card'>, 'RequiresAction' | 'Processing'>> = {
  bank_transfer: 'RequiresAction',
  ussd: 'RequiresAction',
  mobile_money: 'Processing',
};

/** How long after creation a sandbox mobile-money payment counts as approved by the payer (seconds; env `SANDBOX_MOBILE_MONEY_APPROVAL_SECONDS`, default 10). */
export function mobileMoneyApprovalSeconds(): number {
  return Number(process.env.SANDBOX_MOBILE_MONEY_APPROVAL_SECONDS ?? 10);
}
