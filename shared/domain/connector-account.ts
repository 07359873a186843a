/**
 * Merchant connector accounts (Hyperswitch's "merchant connector account"): a merchant's own
 * account at a processor, with its credentials (held encrypted, never shown), what it may serve,
 * and whether it takes new payments. Vocabulary only; shapes for the API are in
 * shared/schemas/connector-account-schemas.ts, keys in shared/storage.
 */
import type { Currency } from './money';
import type { PaymentMethod } from './payment';

/** Connectors a merchant can connect an account of (the `connector_name` vocabulary). */
export const CONNECTOR_NAMES = ['paystack', 'flutterwave', 'stripe', 'sandbox'] as const;

/** One of {@link CONNECTOR_NAMES}. */
export type ConnectorName = (typeof CONNECTOR_NAMES)[number];

/**
 * Whether a connector refuses, before any call, a charge without the payer's e-mail (the payment's `email`):
 * Paystack ("email: Customer's email address", required: https://paystack.com/docs/api/charge/ and
 * https://paystack.com/docs/api/transaction/#initialize) and Flutterwave (`email` in every direct charge's payload:
 * https://developer.flutterwave.com/docs/direct-charge/card/) answer `email_required` without one; Stripe (the e-mail
 * is optional `billing_details`) and the sandbox do not. The one table: shared/connectors/capabilities.ts publishes it as
 * `requires_payer_email`, and test/connectors/capabilities.test.ts holds each adapter to it. Here, in the domain, so
 * a payment's create can ask it without loading any connector's code.
 */
export const PAYER_EMAIL_REQUIRED: Readonly<Record<ConnectorName, boolean>> = Object.freeze({
  paystack: true,
  flutterwave: true,
  stripe: false,
  sandbox: false,
});

/**
 * Whether a connector, by the name routing answers with, refuses a charge without the payer's e-mail
 * ({@link PAYER_EMAIL_REQUIRED}); a name the table does not know is taken to.
 */
export function requiresPayerEmail(connectorName: string): boolean {
  return (CONNECTOR_NAMES as readonly string[]).includes(connectorName) ? PAYER_EMAIL_REQUIRED[connectorName as ConnectorName] : true;
}

/**
 * An account's state: `active` (verified credentials, takes payments) or `inactive` (disabled:
 * no new payments; what it holds is still captured, voided, refunded and reconciled with its
 * credentials until it is deleted, which destroys them).
 */
export const CONNECTOR_ACCOUNT_STATUSES = ['active', 'inactive'] as const;

/** One of {@link CONNECTOR_ACCOUNT_STATUSES}. */
export type ConnectorAccountStatus = (typeof CONNECTOR_ACCOUNT_STATUSES)[number];

/**
 * One entry of `payment_methods_enabled`: a payment method the account may be routed, in which
 * currencies, between which amounts (minor units, inclusive; absent = no bound).
 */
export interface EnabledPaymentMethod {
  payment_method: PaymentMethod;
  currencies: Currency[];
  minimum_amount?: number | null;
  maximum_amount?: number | null;
}

/**
 * The credentials of an account, in clear — held in memory only, after decryption
 * (shared/security/credential-encryption.ts); never logged, stored in clear, returned or put in events.
 * - `api_key`: the processor's secret key (Stripe `sk_…`, Paystack `sk_…`, Flutterwave `FLWSECK…`);
 * - `key1`: Flutterwave's encryption key (3DES key for card charges);
 * - `webhook_secret`: Stripe's webhook signing secret (`whsec_…`), Flutterwave's secret hash;
 *   absent for Paystack (it signs webhooks with the secret key itself).
 */
export interface ConnectorCredentials {
  api_key: string;
  key1?: string;
  webhook_secret?: string;
}

/**
 * A connector account as stored, without its credentials (those are the encrypted blob beside it,
 * read only by code that calls the processor). Timestamps ISO 8601 UTC.
 */
export interface ConnectorAccount {
  merchant_connector_id: string;
  merchant_id: string;
  connector_name: ConnectorName;
  connector_label: string;
  /** Masked views of the credentials (e.g. `sk_test_…4242`): never enough to use them. */
  connector_account_details: { api_key: string; key1?: string | null };
  /** Whether a webhook secret is held (`merchant_secret` itself is write-only). */
  webhook_secret_set: boolean;
  payment_methods_enabled: EnabledPaymentMethod[];
  disabled: boolean;
  status: ConnectorAccountStatus;
  /** `test` or `live`: the processor's mode of the key (a live key is refused on non-prod stages). */
  mode: 'test' | 'live';
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/**
 * A connector account as the API shows it (component `ConnectorAccount`,
 * shared/schemas/connector-account-resource-schema.ts): credentials masked, the webhook secret only as
 * `merchant_secret_set`, `webhook_url` where the processor sends its webhooks. Timestamps ISO 8601 UTC.
 */
export interface ConnectorAccountView {
  /** `mca_…` */
  merchant_connector_id: string;
  connector_name: ConnectorName;
  connector_label: string;
  connector_account_details: { api_key: string; key1: string | null };
  connector_webhook_details: { merchant_secret_set: boolean };
  payment_methods_enabled: {
    payment_method: PaymentMethod;
    currencies: Currency[];
    minimum_amount?: number | null | undefined;
    maximum_amount?: number | null | undefined;
  }[];
  disabled: boolean;
  status: ConnectorAccountStatus;
  test_mode: boolean;
  webhook_url: string;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/**
 * Facts about a payment that routing decides on (Hyperswitch's routing `lhs` values).
 * `amount` in minor units; `billing_country` ISO 3166-1 alpha-2; `card_network` a brand
 * (`visa`, `mastercard`, `verve`, …) when a card is known.
 */
export interface RoutingFacts {
  payment_id: string;
  amount: number;
  currency: Currency;
  payment_method?: PaymentMethod | undefined;
  card_network?: string | null | undefined;
  billing_country?: string | null | undefined;
  metadata?: Record<string, string> | null | undefined;
  /**
   * The card's BIN: its first 6 digits, never more (shared/operations/routing/success-rate-segment.ts `cardBinOf`),
   * known only while the card is in the request; for a success-rate segment on `card_bin`.
   */
  card_bin?: string | null | undefined;
}

/**
 * Whether an account can take a payment of this currency, method and amount under its
 * `payment_methods_enabled` (the connector's own support is checked separately).
 * With `payment_method` unknown (a create without a method), any enabled method of the currency counts.
 */
export function accountEnables(
  account: Pick<ConnectorAccount, 'payment_methods_enabled'>,
  currency: Currency,
  paymentMethod: PaymentMethod | undefined,
  amount: number,
): boolean {
  return account.payment_methods_enabled.some(
    (m) =>
      (paymentMethod === undefined || m.payment_method === paymentMethod) &&
      m.currencies.includes(currency) &&
      (m.minimum_amount == null || amount >= m.minimum_amount) &&
      (m.maximum_amount == null || amount <= m.maximum_amount),
  );
}

/** Most connector accounts a merchant may hold at once (deleted ones do not count): 50. */
export const MAX_CONNECTOR_ACCOUNTS = 50;
