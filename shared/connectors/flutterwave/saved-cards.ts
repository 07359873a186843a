/**
 * Flutterwave's card tokens as Switchyard's saved methods: when a transaction's card token is kept, how long it
 * lasts, and the card details shown with it.
 *
 * Sources (the tags cited on each export):
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [TOK] Card tokenization: https://developer.flutterwave.com/docs/tokenization (the same text at
 *   https://developer.flutterwave.com/v3.0/docs/tokenization and /docs/recurring-payments/tokenization): "In the
 *   verification response, you'll find a token field in the data.card object"; "Customer card tokens are valid for
 *   one year only"; "The token is tied to the email address you specified on the first charge"; subsequent charges
 *   use 3D Secure by default (NOAUTH only on request).
 * - [TC] Create a tokenized charge, `POST /v3/tokenized-charges`: https://developer.flutterwave.com/reference/endpoints/tokenized-charge/
 *   (body `token`, `email`, `currency`, `country` "the ISO country code of the merchant", `amount`, `tx_ref`,
 *   `narration`, `preauthorize`, …), https://flutterwaveinc.mintlify.app/api-reference/tokenized-charges/create-a-tokenized-charge
 *   (required: token, currency, amount, email, tx_ref; 200 sample "Charge successful" with `data.card.token`), the 3DS
 *   answer of https://flutterwaveinc.mintlify.app/other-features/recurring-payments/tokenization (`status: "pending"`,
 *   `data.meta.authorization.mode: "redirect"`), and the SDK's `tokenSchema` (services/schema/create.js: `narration`
 *   required, `redirect_url`, `preauthorize`) and documentation/tokenization.md ("Charge with token" sample). The
 *   tokenization endpoints are create, bulk create, bulk status, bulk transactions and update token details
 *   (`PUT /v3/tokens/{token}`): none revokes a token.
 */
import type { PaymentResult, SavedCardDetails, SavedMethodToken } from '../connector';
import type { FlutterwaveCard, FlutterwaveTransaction } from './wire-types';

/**
 * How long a Flutterwave card token works, in years from the charge that issued it: "Customer card tokens are valid for
 * one year only. To avoid transaction errors caused by expired tokens, it is important to re-tokenize the card before
 * the existing token expires" [TOK].
 */
export const FLUTTERWAVE_CARD_TOKEN_VALIDITY_YEARS = 1;

/** An ISO instant as Flutterwave writes it (`2020-06-01T01:31:59.000Z`; without a zone read as UTC), in epoch ms, or NaN. */
function flutterwaveInstant(value: string | null | undefined): number {
  const text = value?.trim();
  if (!text) return Number.NaN;
  return Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

/**
 * When a card token issued by a charge stops working [TOK]: {@link FLUTTERWAVE_CARD_TOKEN_VALIDITY_YEARS} calendar
 * year after the charge (`created_at`), the same day and time of the next year in UTC (29 February → 28 February).
 * @param chargedAt the transaction's `created_at`
 * @param now epoch ms, used when `chargedAt` is missing or unreadable (the answer is then about a charge made now)
 * @returns ISO 8601 UTC
 */
export function cardTokenExpiresAt(chargedAt: string | null | undefined, now: number): string {
  const at = flutterwaveInstant(chargedAt);
  const from = new Date(Number.isFinite(at) ? at : now);
  const year = from.getUTCFullYear() + FLUTTERWAVE_CARD_TOKEN_VALIDITY_YEARS;
  const month = from.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  ).toISOString();
}

/**
 * A card's `expiry` as Flutterwave writes it, `MM/YY` (`"09/32"`; `MM/YYYY` read too) [VER][TC].
 * @returns the month (1–12) and the four-digit year, or null when unreadable
 */
export function cardExpiryOf(expiry: string | null | undefined): { expMonth: number; expYear: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry ?? '');
  if (!match) return null;
  const expMonth = Number(match[1]);
  const yearText = match[2] ?? '';
  const expYear = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  return expMonth >= 1 && expMonth <= 12 ? { expMonth, expYear } : null;
}

/**
 * The issuer's country from `card.country` [VER][TC]: `"NG"`, or the `"NIGERIA NG"` form of the verify and bulk-charge
 * samples (flutterwave-node-v3 documentation/transactions.md, tokenization.md) — its last word when that is two letters.
 * @returns ISO 3166-1 alpha-2, upper case, or null
 */
export function issuerCountryOf(country: string | null | undefined): string | null {
  const match = /(?:^|\s)([A-Za-z]{2})$/.exec(country?.trim() ?? '');
  return match?.[1] ? match[1].toUpperCase() : null;
}

/**
 * The card of a saved method as Flutterwave describes it [VER][TC]: `brand` = `card.type` in lower case (`MASTERCARD`
 * → `mastercard`; `unknown` without one), `last4` = `last_4digits`, `expMonth`/`expYear` from `expiry`
 * ({@link cardExpiryOf}), `bin` = `first_6digits`, `issuerCountry` from `country` ({@link issuerCountryOf}).
 * @returns the details, or null when the last four digits or the expiry are unreadable
 */
export function savedCardOf(card: FlutterwaveCard): SavedCardDetails | null {
  const last4 = card.last_4digits?.trim() ?? '';
  const expiry = cardExpiryOf(card.expiry);
  if (!/^\d{4}$/.test(last4) || !expiry) return null;
  const bin = card.first_6digits?.trim() ?? '';
  return {
    brand: card.type?.trim().toLowerCase() || 'unknown',
    last4,
    expMonth: expiry.expMonth,
    expYear: expiry.expYear,
    bin: /^\d{6,8}$/.test(bin) ? bin : null,
    issuerCountry: issuerCountryOf(card.country),
  };
}

/**
 * The reusable card a successful Flutterwave transaction carries [TOK][TC]: present when `data.card.token`
 * is. `token` = `card.token`; `email` = `customer.email` (the token is tied to it [TOK]); `card` from
 * {@link savedCardOf}; `fingerprint` null (Flutterwave gives no card fingerprint; the core makes its own);
 * `processorCustomerId` null (a tokenized charge names no customer id, only the e-mail); `expiresAt` =
 * {@link cardTokenExpiresAt} of the transaction's `created_at`.
 * @param now epoch ms, for a transaction without `created_at`
 * @returns the saved method, or undefined when the transaction has no token
 */
export function savedMethodOf(
  tx: Pick<FlutterwaveTransaction, 'card' | 'customer' | 'created_at'>,
  now: number,
): SavedMethodToken | undefined {
  const token = tx.card?.token?.trim();
  if (!tx.card || !token) return undefined;
  return {
    token,
    processorCustomerId: null,
    email: tx.customer?.email?.trim() || null,
    fingerprint: null,
    card: savedCardOf(tx.card),
    expiresAt: cardTokenExpiresAt(tx.created_at, now),
  };
}

/**
 * `result` with {@link savedMethodOf} the transaction added when the transaction is `successful` (a payment, or a
 * preauthorization's hold) and carries a card token; otherwise `result` as it is.
 */
export function withSavedMethod(result: PaymentResult, tx: FlutterwaveTransaction | null, now: number): PaymentResult {
  if (!tx || tx.status?.toLowerCase() !== 'successful') return result;
  if (result.status !== 'Succeeded' && result.status !== 'RequiresCapture') return result;
  const savedMethod = savedMethodOf(tx, now);
  return savedMethod ? { ...result, savedMethod } : result;
}
