/**
 * What each connector can take, as data: the (payment method, currencies) pairs its adapter's `supports()` answers
 * true for, computed over every method and currency of the domain with the very functions those `supports()` call,
 * so the two cannot drift apart:
 * - stripe: `stripeSupports` (`STRIPE_PAYMENT_METHODS` × `STRIPE_CURRENCIES`);
 * - paystack: `paystackSupports` without a bank (`PAYSTACK_SUPPORTED`);
 * - flutterwave: `flutterwaveChargeType` defined (`FLUTTERWAVE_CHARGE_TYPES`), as `FlutterwaveConnector.supports`;
 * - sandbox: every method in every currency (`SandboxConnector.supports` is always true).
 * USSD's per-bank support (`options.ussdBankCode`) is finer than a capability and stays with `supports()`.
 * `requires_payer_email` (from shared/domain/connector-account.ts `PAYER_EMAIL_REQUIRED`) says whether the connector
 * refuses, before any call, a charge without the payer's e-mail: Paystack ("email: Customer's email address", required: https://paystack.com/docs/api/charge/ and
 * https://paystack.com/docs/api/transaction/#initialize) and Flutterwave (`email` in every direct charge's payload:
 * https://developer.flutterwave.com/docs/direct-charge/card/ and the other method pages of
 * https://developer.flutterwave.com/docs/direct-charge/overview) answer `email_required` without one; Stripe (the e-mail is
 * optional `billing_details`) and the sandbox do not. test/connectors/capabilities.test.ts holds each adapter to it.
 * Imports the adapters' supported-methods tables only, never their wire code (requests, responses), the adapter classes nor the registry.
 */
import { type ConnectorName, type EnabledPaymentMethod, PAYER_EMAIL_REQUIRED } from '../domain/connector-account';
import { CURRENCIES, type Currency } from '../domain/money';
import { PAYMENT_METHODS, type PaymentMethod } from '../domain/payment';
import { flutterwaveChargeType } from './flutterwave/supported-methods';
import { paystackSupports } from './paystack/supported-methods';
import { stripeSupports } from './stripe/supported-methods';

/** One payment method a connector takes, and in which currencies (in `CURRENCIES` order). */
export interface PaymentMethodCapability {
  readonly payment_method: PaymentMethod;
  readonly currencies: readonly Currency[];
}

/** What a connector can take: its payment methods (in `PAYMENT_METHODS` order; a method without any currency is left out). */
export interface ConnectorCapabilities {
  readonly payment_methods: readonly PaymentMethodCapability[];
  /**
   * Whether every new charge needs the payer's e-mail (the payment's `email`): without one the adapter refuses it,
   * before any call, with `email_required`. A checkout page routed to such a connector asks the payer for it.
   */
  readonly requires_payer_email: boolean;
}

/** The capabilities of one connector from a predicate over (method, currency), in the domain's orders. */
function capabilitiesOf(
  takes: (method: PaymentMethod, currency: Currency) => boolean,
  requires: { payerEmail: boolean },
): ConnectorCapabilities {
  const payment_methods = PAYMENT_METHODS.map((payment_method) =>
    Object.freeze({ payment_method, currencies: Object.freeze(CURRENCIES.filter((currency) => takes(payment_method, currency))) }),
  ).filter((m) => m.currencies.length > 0);
  return Object.freeze({ payment_methods: Object.freeze(payment_methods), requires_payer_email: requires.payerEmail });
}

/**
 * Every connector's capabilities (see the module comment for the table each is built from). Frozen; the default
 * `payment_methods_enabled` of a new account is a copy ({@link defaultPaymentMethodsEnabled}).
 */
export const CONNECTOR_CAPABILITIES: Readonly<Record<ConnectorName, ConnectorCapabilities>> = Object.freeze({
  stripe: capabilitiesOf((method, currency) => stripeSupports(currency, method), { payerEmail: PAYER_EMAIL_REQUIRED.stripe }),
  paystack: capabilitiesOf((method, currency) => paystackSupports(currency, method), { payerEmail: PAYER_EMAIL_REQUIRED.paystack }),
  flutterwave: capabilitiesOf((method, currency) => flutterwaveChargeType(currency, method) !== undefined, {
    payerEmail: PAYER_EMAIL_REQUIRED.flutterwave,
  }),
  sandbox: capabilitiesOf(() => true, { payerEmail: PAYER_EMAIL_REQUIRED.sandbox }),
});

/**
 * The `payment_methods_enabled` a new account of `connectorName` gets when the merchant gives none: everything the
 * connector can take ({@link CONNECTOR_CAPABILITIES}), with no amount bounds. A fresh, mutable copy each call.
 */
export function defaultPaymentMethodsEnabled(connectorName: ConnectorName): EnabledPaymentMethod[] {
  return CONNECTOR_CAPABILITIES[connectorName].payment_methods.map((m) => ({
    payment_method: m.payment_method,
    currencies: [...m.currencies],
  }));
}
