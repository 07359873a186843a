import type { PaymentMethod } from '../../domain/payment';

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
};

/** What the sandbox does with a card. */
export type SandboxCardOutcome =
  | { kind: 'success' }
  | { kind: 'decline'; code: string; message: string }
  | { kind: 'three_ds' }
  /** The sandbox does not answer authorize in time; a later sync finds the charge succeeded. */
  | { kind: 'timeout' };

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
