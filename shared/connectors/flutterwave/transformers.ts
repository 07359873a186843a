import { createCipheriv, createHash, timingSafeEqual } from 'node:crypto';
import { type CardDetails, fullExpiryYear } from '../../domain/card';
import {
  DISPUTE_EVIDENCE_FILE_FIELDS,
  DISPUTE_EVIDENCE_TEXT_FIELDS,
  type DisputeEvidence,
  type DisputeStage,
  type DisputeStatus,
} from '../../domain/dispute-vocabulary';
import { type GhanaMobileNetwork, ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import { CURRENCIES, type Currency } from '../../domain/money';
import { type AuthenticationAddress, type AuthenticationStep, authenticationAction, type NextAction } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import { USSD_BANKS } from '../../domain/ussd-banks';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  type ConnectorDispute,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type RefundResult,
  type SavedCardDetails,
  type SavedMethodToken,
} from '../connector';
import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';
import { type FlutterwaveChargeType, flutterwaveChargeType } from './supported-methods';

/**
 * Flutterwave v3 wire types, request builders and the status tables of the
 * Flutterwave adapter (Hyperswitch's `transformers.rs` layout).
 *
 * Sources (cited again on each export):
 * - [DC]  Direct charge guides: https://developer.flutterwave.com/docs/direct-charge/overview (card, bank-transfer, ussd, ghana-mobile-money, mpesa pages)
 * - [CARD] Card charge guide: https://developer.flutterwave.com/docs/direct-charge/card/ (current copy:
 *         https://developer.flutterwave.com/docs/collections-inflow/cards): initiate → `meta.authorization.mode`
 *         (`pin`, `avs_noauth`, `redirect`, `otp`) → re-send the same charge with `authorization` → validate with the OTP.
 * - [VAL] Validate a charge, `POST /v3/validate-charge` `{otp, flw_ref, type}`:
 *         https://developer.flutterwave.com/reference/endpoints/validate-charge/ (200 sample "Charge validated"; the 400
 *         example is printed as `{}`: Flutterwave publishes no body for a wrong OTP).
 * - [PRF] Refund a preauthorized charge, `POST /v3/charges/{flw_ref}/refund` `{amount}`:
 *         https://developer.flutterwave.com/v3.0.0/reference/refund-preauth-charge and
 *         https://flutterwaveinc.mintlify.app/api-reference/preauthorization/create-a-refund (answer: the charge, "Charge refunded").
 * - [USSD] USSD guide, "Supported Banks": https://developer.flutterwave.com/docs/collections-inflow/ussd (updated 13 September 2026;
 *         the same 18 banks on https://developer.flutterwave.com/v3.0/docs/ussd and /docs/direct-charge/ussd/).
 * - [GH]  Ghana mobile money: https://developer.flutterwave.com/docs/ghana.md ("Supported networks: MTN, Telecel, TIGO"),
 *         the older https://developer.flutterwave.com/docs/ghana ("MTN", "VODAFONE", or "TIGO"), and the SDK's `momoSchema`
 *         (flutterwave-node-v3 1.4.1 services/schema/create.js: MTN, AIRTELTIGO, VODAFONE since 1.2.1, 2025-04-14).
 * - [RS]  Refund statuses: https://developer.flutterwave.com/v3.0.0/docs/refunds ("completed: Refund has been initiated and is
 *         pending disbursement…"), https://developer.flutterwave.com/docs/collecting-payments/refunds ("completed: General status
 *         for completed refunds for cards and other payment types") and https://flutterwaveinc.mintlify.app/other-features/refunds
 *         ("complete: General status for completed refunds"). See docs/connectors/flutterwave.md for the decision.
 * - [ENC] Encryption: https://developer.flutterwave.com/docs/integration-guides/encryption/ (3DES, `{ client }`)
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *         https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [WH]  Webhooks: https://developer.flutterwave.com/docs/webhooks (`verif-hash`, `charge.completed`)
 * - [SDK] The official Node SDK flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *         services/charge/encryp.js (3DES-ECB), services/schema/create.js and base.js (the joi request schemas the
 *         contract tests validate every body against), documentation/collections.md and documentation/transactions.md
 *         (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
 * - [HS]  A Hyperswitch-layout Flutterwave connector (repo Zapier-codes/B-PAY-backend,
 *         crates/hyperswitch_connectors/src/connectors/flutterwave/transformers.rs): verify and refund status enums.
 * - [TO]  Handling Error Timeouts: https://developer.flutterwave.com/docs/handling-error-timeouts ("Our system
 *         typically waits for 28 seconds before returning a timeout error response", a 503
 *         `{status: "error", message: "An error occurred. Please contact support", data: null}`).
 * - [LR]  Get all refunds, `GET /v3/refunds`: https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds
 *         (query filters: start and end date `YYYY-MM-DD`, status, currency, the refund's `flw_ref`, and the
 *         transaction's `data.id`) and Flutterwave's v3 OpenAPI rendered at
 *         https://flutterwaveinc.mintlify.app/api-reference/transactions/get-all-refunds (items `id`,
 *         `amount_refunded`, `status`, `flw_ref`, `comment`, `transaction_id`, `created_at`;
 *         `meta.page_info` `total`, `current_page`, `total_pages`, `page_size`). The rendered reference does
 *         not print the parameter names; `from`, `to`, `id` and `page` are the names Flutterwave uses on its
 *         other v3 list endpoints (e.g. GET /v3/transactions, GET /v3/payment-plans).
 *         Flutterwave/Node-v3 (v1.4.1, commit 537f9f4455f922a879e4f088cf0f596621c3517c) has no list-refunds call.
 * - [TOK] Card tokenization: https://developer.flutterwave.com/docs/tokenization (the same text at
 *         https://developer.flutterwave.com/v3.0/docs/tokenization and /docs/recurring-payments/tokenization): "In the
 *         verification response, you'll find a token field in the data.card object"; "Customer card tokens are valid for
 *         one year only"; "The token is tied to the email address you specified on the first charge"; subsequent charges
 *         use 3D Secure by default (NOAUTH only on request).
 * - [TC]  Create a tokenized charge, `POST /v3/tokenized-charges`: https://developer.flutterwave.com/reference/endpoints/tokenized-charge/
 *         (body `token`, `email`, `currency`, `country` "the ISO country code of the merchant", `amount`, `tx_ref`,
 *         `narration`, `preauthorize`, …), https://flutterwaveinc.mintlify.app/api-reference/tokenized-charges/create-a-tokenized-charge
 *         (required: token, currency, amount, email, tx_ref; 200 sample "Charge successful" with `data.card.token`), the 3DS
 *         answer of https://flutterwaveinc.mintlify.app/other-features/recurring-payments/tokenization (`status: "pending"`,
 *         `data.meta.authorization.mode: "redirect"`), and the SDK's `tokenSchema` (services/schema/create.js: `narration`
 *         required, `redirect_url`, `preauthorize`) and documentation/tokenization.md ("Charge with token" sample). The
 *         tokenization endpoints are create, bulk create, bulk status, bulk transactions and update token details
 *         (`PUT /v3/tokens/{token}`): none revokes a token.
 *
 * Money: our amounts are integers in minor units; Flutterwave's wire amounts are in MAJOR units.
 * All five currencies we accept have two decimals, so the conversion is integer
 * division/remainder by 100 ({@link minorToMajor}, {@link majorToMinor}); no float arithmetic.
 */

/** Connector name: routing rules, a payment's `connector` field and `POST /webhooks/flutterwave`. */
export const FLUTTERWAVE_CONNECTOR_NAME = 'flutterwave';

// ---------------------------------------------------------------------------
// Wire types
// ---------------------------------------------------------------------------

/**
 * `meta.authorization` of a charge response: what the payer must do next [DC][CARD][SDK].
 * `mode` is `pin` / `avs_noauth` (card: the PIN or the billing address is needed; no transaction
 * exists yet, the whole charge is sent again with `authorization`), `otp` (card: an OTP was sent,
 * answered with `POST /v3/validate-charge`), `redirect` (3DS page, or the Ghana mobile-money
 * verification page), `banktransfer` (account details to pay into), `ussd` (`note` holds the code
 * to dial), `callback` (the operator prompts the payer).
 */
export interface FlutterwaveAuthorization {
  mode?: string;
  /** URL to send the payer to (`mode: redirect`). */
  redirect?: string;
  /** Fields Flutterwave asks for (`mode: pin` → `["pin"]`, `avs_noauth` → address fields). */
  fields?: string[];
  endpoint?: string;
  /** The USSD string to dial (`mode: ussd`), e.g. `*566*002*4517159#`. */
  note?: string;
  validate_instructions?: string;
  /** Bank transfer (`mode: banktransfer`): reference, account number, bank, expiry (epoch ms or a date string), note and amount (major units, may include fees). */
  transfer_reference?: string;
  transfer_account?: string;
  transfer_bank?: string;
  account_expiration?: number | string;
  transfer_note?: string;
  transfer_amount?: string | number;
}

/** `meta` of a charge response (top level, or nested in `data` for some methods) [DC][SDK]. */
export interface FlutterwaveMeta {
  authorization?: FlutterwaveAuthorization | null;
}

/**
 * A Flutterwave transaction as charge, verify, capture and webhook payloads carry it [SDK][VER].
 * `amount` is in major units (a JSON number); `id` is the numeric transaction id used by
 * verify and refund; `flw_ref` is Flutterwave's reference used by capture and void; `tx_ref`
 * is our payment id.
 */
export interface FlutterwaveTransaction {
  id: number;
  tx_ref: string;
  flw_ref: string;
  amount: number;
  charged_amount?: number;
  currency: string;
  /** See {@link FLUTTERWAVE_PAYMENT_STATUS}. */
  status: string;
  processor_response?: string | null;
  auth_model?: string;
  auth_url?: string;
  payment_type?: string;
  /** `normal` or `preauth` [PRE]. */
  charge_type?: string;
  /** USSD: the payment code embedded in the string to dial. */
  payment_code?: string;
  created_at?: string;
  meta?: FlutterwaveMeta | null;
  /** The card charged (card transactions) [VER][TOK]: carries the reusable `token` once the charge is successful. */
  card?: FlutterwaveCard | null;
  /** The payer as Flutterwave recorded it; `email` is the one a card token is tied to [TOK]. */
  customer?: FlutterwaveCustomer | null;
}

/**
 * `data.card` of a card transaction [VER][TOK][TC]: `first_6digits` (BIN), `last_4digits`, `type` (`MASTERCARD`,
 * `VISA`, `VERVE`, …), `expiry` as `MM/YY`, `country` (the issuer's: `NG`, or `NIGERIA NG` in some samples), `issuer`
 * (free text) and `token` (`flw-t1nf-…`), the card's reusable token, valid for a year [TOK].
 */
export interface FlutterwaveCard {
  first_6digits?: string | null;
  last_4digits?: string | null;
  issuer?: string | null;
  country?: string | null;
  type?: string | null;
  expiry?: string | null;
  token?: string | null;
}

/** `data.customer` of a transaction [VER][TC]: Flutterwave's numeric customer id, the e-mail and name given with the charge. */
export interface FlutterwaveCustomer {
  id?: number | string | null;
  email?: string | null;
  name?: string | null;
  phone_number?: string | null;
  created_at?: string | null;
}

/** Every v3 answer: `status` is `"success"` or `"error"` (a string, not a boolean), plus `message`, `data` and sometimes `meta` [SDK]. */
export interface FlutterwaveResponse<T> {
  status: string;
  message: string;
  data?: T | null;
  meta?: FlutterwaveMeta | null;
}

/** A refund as `POST /v3/transactions/{id}/refund` and `GET /v3/refunds/{id}` return it [REF][SDK]; `amount_refunded` in major units. */
export interface FlutterwaveRefund {
  /** The refund's own id (not the transaction's: that is `tx_id`). */
  id: number;
  tx_id: number;
  flw_ref: string;
  amount_refunded: number;
  /** See {@link FLUTTERWAVE_REFUND_STATUS}. */
  status: string;
  destination?: string;
  created_at?: string;
  meta?: unknown;
}

/**
 * One item of `GET /v3/refunds` [LR]: the refund's own `id`, `amount_refunded` in major units,
 * `status`, the note sent as `comments` at creation in `comment`, and the refunded transaction's
 * `transaction_id` (single-refund answers call it `tx_id`, read too).
 */
export interface FlutterwaveRefundListItem {
  id: number;
  amount_refunded: number | string;
  status: string;
  flw_ref?: string;
  comment?: string | null;
  transaction_id?: number | null;
  tx_id?: number | null;
  created_at?: string;
}

/** `meta.page_info` of a v3 list answer [LR]. */
export interface FlutterwavePageInfo {
  total?: number;
  current_page?: number;
  total_pages?: number;
  page_size?: number;
}

/** The answer of `GET /v3/refunds` [LR]. */
export interface FlutterwaveRefundList {
  status: string;
  message: string;
  data?: FlutterwaveRefundListItem[] | null;
  meta?: { page_info?: FlutterwavePageInfo | null } | null;
}

/**
 * A webhook body [WH]: `{ event: "charge.completed", "event.type": "CARD_TRANSACTION", data: {...} }`.
 * Accounts still on the legacy (v2-style) webhook format receive a flat body instead:
 * `{ id, txRef, flwRef, status, amount, currency, "event.type": "CARD_TRANSACTION" }` — both are read.
 */
export interface FlutterwaveWebhookPayload {
  event?: string;
  'event.type'?: string;
  data?: Partial<FlutterwaveTransaction> | null;
  id?: number;
  txRef?: string;
  flwRef?: string;
  status?: string;
  amount?: number;
  currency?: string;
  charge_type?: string;
}

/**
 * `authorization` of a card charge sent again for the `pin` mode [CARD]: the card PIN as typed
 * (a 4-digit string, leading zeros kept).
 */
export interface FlutterwavePinAuthorization {
  mode: 'pin';
  pin: string;
}

/**
 * `authorization` of a card charge sent again for the `avs_noauth` mode [CARD]: the card's billing
 * address (`country` ISO 3166-1 alpha-2, upper case).
 */
export interface FlutterwaveAvsAuthorization {
  mode: 'avs_noauth';
  city: string;
  address: string;
  state: string;
  country: string;
  zipcode: string;
}

/**
 * The card payload that is 3DES-encrypted into `client` [ENC][SDK services/schema/create.js `cardChargeSchema`].
 * `amount` in major units as a decimal string; `expiry_month`/`expiry_year` two digits each;
 * `preauthorize: true` places a hold to capture later [PRE]; `authorization` only when the charge
 * is sent again for a `pin` or `avs_noauth` mode [CARD] (same `tx_ref`).
 */
export interface FlutterwaveCardPayload {
  card_number: string;
  cvv: string;
  expiry_month: string;
  expiry_year: string;
  currency: Currency;
  amount: string;
  email: string;
  tx_ref: string;
  redirect_url: string;
  phone_number?: string;
  preauthorize?: true;
  authorization?: FlutterwavePinAuthorization | FlutterwaveAvsAuthorization;
}

/** Body of `POST /v3/charges?type=card`: the encrypted card payload only [ENC]. */
export interface FlutterwaveEncryptedCharge {
  client: string;
}

/**
 * Body of `POST /v3/charges?type=bank_transfer` (NGN only) [DC bank-transfer][SDK `chargeSchema`]. `expires`:
 * seconds the generated (temporary) account stays valid. No `is_permanent`: the SDK's `chargeSchema`
 * (1.4.1) does not allow it, and a temporary account is the default.
 */
export interface FlutterwaveBankTransferCharge {
  tx_ref: string;
  amount: string;
  currency: 'NGN';
  email: string;
  phone_number?: string;
  expires: number;
}

/** Body of `POST /v3/charges?type=ussd` (NGN only): `account_bank` is the payer's bank code, one of {@link FLUTTERWAVE_USSD_BANKS} [USSD][SDK `ussdChargeSchema`]. */
export interface FlutterwaveUssdCharge {
  tx_ref: string;
  account_bank: string;
  amount: string;
  currency: 'NGN';
  email: string;
  phone_number?: string;
}

/** Body of `POST /v3/charges?type=mobile_money_ghana`: `network` from {@link FLUTTERWAVE_GHANA_NETWORKS}; `phone_number` in local format (`054…`) [GH][SDK `momoSchema`]. */
export interface FlutterwaveGhanaMobileMoneyCharge {
  tx_ref: string;
  amount: string;
  currency: 'GHS';
  country: 'GH';
  network: FlutterwaveGhanaNetwork;
  email: string;
  phone_number: string;
}

/** Body of `POST /v3/charges?type=mpesa`: `phone_number` with the country code, no `+` (`2547…`) [DC mpesa][SDK]. */
export interface FlutterwaveMpesaCharge {
  tx_ref: string;
  amount: string;
  currency: 'KES';
  email: string;
  phone_number: string;
}

/** The `network` values this adapter sends for Ghana mobile money ({@link FLUTTERWAVE_GHANA_NETWORKS}) [GH]. */
export type FlutterwaveGhanaNetwork = 'MTN' | 'VODAFONE' | 'AIRTELTIGO';

/** Body of `POST /v3/charges/{flw_ref}/capture`: the amount to capture, major units, ≤ the authorized amount [PRE]. */
export interface FlutterwaveCaptureBody {
  amount: string;
}

/** Body of `POST /v3/transactions/{id}/refund`: amount in major units (partial allowed) and a free-text note [REF]. */
export interface FlutterwaveRefundBody {
  amount: string;
  comments: string;
}

/** Body of `POST /v3/charges/{flw_ref}/refund` (refund of a preauthorized charge): amount in major units [PRF]. */
export interface FlutterwavePreauthRefundBody {
  amount: string;
}

/** Body of `POST /v3/validate-charge` [VAL][SDK base.js `validateSchema`]: the payer's OTP as typed, the charge's `flw_ref`, `type: "card"`. */
export interface FlutterwaveValidateChargeBody {
  otp: string;
  flw_ref: string;
  type: 'card';
}

/**
 * Body of `POST /v3/tokenized-charges` [TC][SDK `tokenSchema`]: the card `token` and the e-mail it is tied
 * to [TOK], `amount` in major units as a decimal string (as every other body of this adapter: {@link minorToMajor}),
 * our payment id as `tx_ref` (so `verify_by_reference` finds the charge after a lost answer), `narration` (required by
 * the SDK's schema), `redirect_url` (where Flutterwave's 3DS page sends the payer back: subsequent charges use 3DS by
 * default [TOK]), `country` for the currencies of {@link FLUTTERWAVE_TOKEN_CHARGE_COUNTRY}, and `preauthorize: true`
 * for manual capture [TC].
 */
export interface FlutterwaveTokenizedCharge {
  token: string;
  currency: Currency;
  country?: string;
  amount: string;
  email: string;
  tx_ref: string;
  narration: string;
  redirect_url: string;
  preauthorize?: true;
}

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/**
 * Minor units → Flutterwave's major-unit decimal string, by integer division and
 * remainder by 100 (all our currencies have 2 decimals): `150000` → `"1500.00"`.
 * @throws RangeError when `amount` is not a non-negative safe integer
 */
export function minorToMajor(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('An amount must be a non-negative integer number of minor units.');
  const cents = amount % 100;
  const whole = (amount - cents) / 100;
  return `${whole}.${String(cents).padStart(2, '0')}`;
}

/**
 * Flutterwave's major-unit amount (a JSON number such as `1500`, `12.5`, or a
 * string such as `"1500.00"`) → minor units, parsing the decimal text with
 * integer arithmetic only (digits beyond the second decimal round half up).
 * @throws ConnectorTechnicalError when the value is not a plain non-negative decimal
 */
export function majorToMinor(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match)
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave answered an amount that is not a decimal number: ${text.slice(0, 32)}`,
    );
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const cents = Number(`${fraction}00`.slice(0, 2));
  const roundUp = fraction.length > 2 && fraction.charCodeAt(2) >= 53; // third decimal ≥ '5'
  const minor = Number(whole) * 100 + cents + (roundUp ? 1 : 0);
  if (!Number.isSafeInteger(minor))
    throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave answered an amount too large to represent.');
  return minor;
}

// ---------------------------------------------------------------------------
// Supported methods
// ---------------------------------------------------------------------------

/**
 * Every bank Flutterwave documents for USSD charges, by the `account_bank` code it takes (the Nigerian
 * CBN/NIBSS bank code), with the name Flutterwave prints [USSD]: "USSD payments are currently only supported
 * for the following banks". Switchyard offers those that are also in `USSD_BANKS` ({@link FLUTTERWAVE_USSD_BANKS});
 * today that is all of them.
 */
export const FLUTTERWAVE_DOCUMENTED_USSD_BANKS: Readonly<Record<string, string>> = {
  '044': 'Access bank',
  '050': 'Ecobank',
  '070': 'Fidelity bank',
  '011': 'First bank of Nigeria',
  '214': 'First City Monument Bank (FCMB)',
  '058': 'Guaranty trust bank',
  '030': 'Heritage bank',
  '082': 'Keystone bank',
  '303': 'Lotus bank',
  '105': 'Premium Trust bank',
  '221': 'Stanbic IBTC bank',
  '232': 'Sterling bank',
  '032': 'Union bank',
  '033': 'United Bank for Africa (UBA)',
  '215': 'Unity Bank',
  '090110': 'VFD microfinance bank',
  '035': 'Wema bank',
  '057': 'Zenith bank',
};

/**
 * The USSD banks this adapter serves, as sorted CBN codes: the banks Flutterwave documents for USSD
 * ({@link FLUTTERWAVE_DOCUMENTED_USSD_BANKS}) that Switchyard offers (`USSD_BANKS`). The payer's choice is sent
 * as `account_bank`; `supports('NGN', 'ussd', {ussdBankCode})` is false for any other code, so routing skips
 * Flutterwave for that bank.
 */
export const FLUTTERWAVE_USSD_BANKS: readonly string[] = Object.keys(FLUTTERWAVE_DOCUMENTED_USSD_BANKS)
  .filter((code) => Object.hasOwn(USSD_BANKS, code))
  .sort();

/** @returns whether Flutterwave takes USSD charges for this CBN bank code ({@link FLUTTERWAVE_USSD_BANKS}) */
export function isFlutterwaveUssdBank(bankCode: string): boolean {
  return FLUTTERWAVE_USSD_BANKS.includes(bankCode);
}

/**
 * Ghana's mobile-money operators and the `network` value this adapter sends for each [GH]:
 * - `MTN` → `"MTN"` (every source);
 * - Telecel Cash (Vodafone Cash until the 2024 rebrand; the current guide lists "Telecel") → `"VODAFONE"`;
 * - AirtelTigo Money (the guides list "TIGO") → `"AIRTELTIGO"`.
 * The wire values are the ones the official SDK's `momoSchema` accepts for GHS (flutterwave-node-v3 1.4.1,
 * `['MTN', 'AIRTELTIGO', 'VODAFONE']`, changed from `MTN/VODAFONE/TIGO` by Flutterwave in 1.2.1): the guides'
 * spellings `Telecel` and `TIGO` are refused by that schema, `VODAFONE` is also the value of the older guide
 * and of the SDK's own sample, and the contract tests validate every body against the SDK's schema.
 */
export const FLUTTERWAVE_GHANA_NETWORKS: Readonly<Record<'MTN' | 'TELECEL' | 'AIRTELTIGO', FlutterwaveGhanaNetwork>> = {
  MTN: 'MTN',
  TELECEL: 'VODAFONE',
  AIRTELTIGO: 'AIRTELTIGO',
};

// ---------------------------------------------------------------------------
// Timeouts
// ---------------------------------------------------------------------------

/**
 * Timeout of one Flutterwave call per operation, in milliseconds: Flutterwave's own server-side wait, 28 s ("Our
 * system typically waits for 28 seconds before returning a timeout error response", a 503 [TO]), plus 7 s for
 * connection setup and transfer, so that Flutterwave's own answer arrives before we give up, for every operation on
 * a payment or refund (Flutterwave states one server-side wait for all endpoints); and `CREDENTIAL_CHECK_TIMEOUT_MS`
 * (10 s) for the credential check (`GET /v3/balances`): a balance read waits on no provider, a merchant waits on
 * it, and it changes nothing (see that constant).
 * `CONNECTOR_TIMEOUT_MS` overrides all of them.
 */
export const FLUTTERWAVE_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: 35_000,
  capture: 35_000,
  void: 35_000,
  refund: 35_000,
  sync: 35_000,
  syncRefund: 35_000,
  findRefund: 35_000,
  webhook: 35_000,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

// ---------------------------------------------------------------------------
// Status tables (the one visible place where Flutterwave's statuses become ours)
// ---------------------------------------------------------------------------

/**
 * A transaction's `data.status` → our payment status [VER][HS][SDK]:
 * `successful` is final success (a hold for a preauth, see {@link FLUTTERWAVE_PREAUTH_STATUS});
 * `pending` waits on the payer or the network — refined by the authorization mode
 * ({@link FLUTTERWAVE_AUTH_MODES}) at authorize and by the method ({@link FLUTTERWAVE_PENDING_STATUS})
 * at sync; `success-pending-validation` waits on the payer's validation (an OTP or
 * redirect) [SDK collections.md, ACH sample]; `failed` is a decline; `voided` is a preauthorization
 * whose hold was released (the void sample of [PRE]: `"status": "voided"`). Any other
 * status reads as `pending` (nothing is settled on a status we do not know).
 */
export const FLUTTERWAVE_PAYMENT_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'Succeeded',
  pending: 'Processing',
  'success-pending-validation': 'RequiresAction',
  failed: 'Failed',
  voided: 'Cancelled',
};

/**
 * The same statuses for a preauthorized card charge (`preauthorize: true`,
 * `charge_type: "preauth"`) [PRE]: `successful` means the lien is placed and the
 * funds wait to be captured. Statuses not listed here map as in {@link FLUTTERWAVE_PAYMENT_STATUS}.
 */
export const FLUTTERWAVE_PREAUTH_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'RequiresCapture',
};

/**
 * What a charge's `meta.authorization.mode` means for us: a next action shown to the payer, an
 * authentication step answered with `POST /payments/{id}/authenticate` (`cardRequired`: the step
 * re-sends the whole card charge, so the card must come again with it), or waiting.
 */
export type FlutterwaveModeOutcome =
  | { status: 'RequiresAction'; action: 'redirect' | 'bank_transfer' | 'ussd' }
  | { status: 'RequiresAction'; action: 'step'; step: AuthenticationStep; cardRequired: boolean }
  | { status: 'Processing'; action: 'none' };

/**
 * A pending charge's `meta.authorization.mode` → our status and next action [DC][CARD][SDK]:
 * - `redirect` → `RequiresAction` + `redirect_to_url` (card 3DS; Ghana MoMo verification page);
 * - `banktransfer` → `RequiresAction` + `bank_transfer_instructions`;
 * - `ussd` → `RequiresAction` + `display_ussd_code`;
 * - `callback` → `Processing` (the operator prompts the payer);
 * - `pin` → `RequiresAction` + `submit_pin` with `card_required: true`: Flutterwave's PIN mode takes the
 *   PIN inside the whole card charge sent again (`authorization: {mode: "pin", pin}`, same `tx_ref`) and
 *   Switchyard never keeps the card, so the card travels again with the PIN [CARD];
 * - `avs_noauth` → `RequiresAction` + `submit_address` with `card_required: true` (the charge is sent again
 *   with `authorization: {mode: "avs_noauth", city, address, state, country, zipcode}`) [CARD];
 * - `otp` → `RequiresAction` + `submit_otp` (`card_required: false`; the prompt is `data.processor_response`),
 *   answered with `POST /v3/validate-charge` `{otp, flw_ref, type: "card"}` [CARD][VAL].
 * For `pin`/`avs_noauth` nothing exists at Flutterwave yet (the answer has no `data`).
 * A pending charge without a mode waits on the network (M-Pesa STK push): see {@link FLUTTERWAVE_PENDING_STATUS}.
 */
export const FLUTTERWAVE_AUTH_MODES: Readonly<Record<string, FlutterwaveModeOutcome>> = {
  redirect: { status: 'RequiresAction', action: 'redirect' },
  banktransfer: { status: 'RequiresAction', action: 'bank_transfer' },
  ussd: { status: 'RequiresAction', action: 'ussd' },
  callback: { status: 'Processing', action: 'none' },
  pin: { status: 'RequiresAction', action: 'step', step: 'submit_pin', cardRequired: true },
  avs_noauth: { status: 'RequiresAction', action: 'step', step: 'submit_address', cardRequired: true },
  otp: { status: 'RequiresAction', action: 'step', step: 'submit_otp', cardRequired: false },
};

/**
 * A `pending` transaction found by a sync, by charge type: the status authorize
 * answered for that method, so a sync that finds nothing new changes nothing
 * (and keeps the payer's instructions). M-Pesa waits on the STK push (`Processing`);
 * the others wait on the payer (`RequiresAction`).
 */
export const FLUTTERWAVE_PENDING_STATUS: Readonly<Record<FlutterwaveChargeType, 'RequiresAction' | 'Processing'>> = {
  card: 'RequiresAction',
  bank_transfer: 'RequiresAction',
  ussd: 'RequiresAction',
  mobile_money_ghana: 'RequiresAction',
  mpesa: 'Processing',
};

/**
 * A sync by reference that finds no transaction, by charge type. Card, USSD and
 * M-Pesa charges create a transaction when initiated [SDK samples carry `data.id`],
 * so none means the charge never reached Flutterwave (`Failed`, `transaction_not_found`).
 * Bank transfer and Ghana MoMo initiations answer without `data`: the payer may simply
 * not have paid yet, so the payment keeps waiting (`RequiresAction`).
 */
export const FLUTTERWAVE_NOT_FOUND_STATUS: Readonly<Record<FlutterwaveChargeType, 'RequiresAction' | 'Failed'>> = {
  card: 'Failed',
  ussd: 'Failed',
  mpesa: 'Failed',
  bank_transfer: 'RequiresAction',
  mobile_money_ghana: 'RequiresAction',
};

/**
 * How long after a payment's creation a `tx_ref` Flutterwave does not know may still appear: 15
 * minutes. Flutterwave documents no propagation window for `verify_by_reference`; it does say a
 * timeout "could also mean the request is still processing" [TO], and our charge call gives up after
 * {@link FLUTTERWAVE_TIMEOUTS_MS}.authorize. Before the window, a not-found card, USSD or M-Pesa
 * payment is `Processing`; after it, `Failed` with `notFound: true`.
 */
export const FLUTTERWAVE_NOT_FOUND_SETTLE_MS = 15 * 60 * 1000;

/**
 * How long after our refund record was written (just before `POST /v3/transactions/{id}/refund`) a
 * refund absent from the transaction's refund list may still appear: 10 minutes (no delay is
 * documented; the window covers a refund request still executing after our call gave up).
 */
export const FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/** Pages of `GET /v3/refunds` read for one lookup before giving up (non-authoritative: throws). */
export const FLUTTERWAVE_REFUND_LIST_MAX_PAGES = 20;

/** `YYYY-MM-DD` (UTC) of an epoch-milliseconds instant, the date format of Flutterwave's list filters [LR]. */
function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The query of the refund lookup's `GET /v3/refunds` [LR]: `id` = the transaction's numeric id,
 * `from` = the UTC day before our refund record was written, `to` = the UTC day after `now` (so the
 * window surely holds our refund whatever default range Flutterwave applies and however it treats the
 * end date), and `page` (1-based).
 */
export function refundListQuery(transactionId: string, createdAt: string, now: number, page: number): URLSearchParams {
  const createdMs = Date.parse(createdAt);
  const fromMs = (Number.isFinite(createdMs) ? Math.min(createdMs, now) : now) - 24 * 60 * 60 * 1000;
  return new URLSearchParams([
    ['id', transactionId],
    ['from', utcDate(fromMs)],
    ['to', utcDate(now + 24 * 60 * 60 * 1000)],
    ['page', String(page)],
  ]);
}

/**
 * Whether another page of `GET /v3/refunds` must be read after this one.
 * @returns false on the last page (`current_page >= total_pages`, or an empty page); true when more follow
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info`: whether more
 *   refunds exist cannot be known, so the listing is not authoritative
 */
export function hasMoreRefundPages(list: FlutterwaveRefundList, page: number): boolean {
  return hasMoreListPages(list, page, 'refunds');
}

/**
 * Whether another page of a v3 list follows this one, from its `meta.page_info` [LR] (refunds, chargebacks).
 * @param what the listed things, named in the error
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info`
 */
function hasMoreListPages(
  list: { meta?: { page_info?: FlutterwavePageInfo | null } | null; data?: unknown[] | null },
  page: number,
  what: string,
): boolean {
  const info = list.meta?.page_info;
  const items = list.data ?? [];
  if (typeof info?.total_pages === 'number' && Number.isFinite(info.total_pages)) {
    const current = typeof info.current_page === 'number' ? info.current_page : page;
    return items.length > 0 && current < info.total_pages;
  }
  if (items.length === 0) return false;
  throw new ConnectorTechnicalError(
    FLUTTERWAVE_CONNECTOR_NAME,
    `Flutterwave listed ${what} without meta.page_info; whether more pages exist is unknown.`,
  );
}

/**
 * Picks our refund among a transaction's refunds (`GET /v3/refunds`). `POST /v3/transactions/{id}/refund`
 * takes no reference of ours, only a free-text `comments`, where {@link buildRefundBody} writes
 * `Refund <our refund id>`; the list returns it as `comment` [LR]. Rules:
 * - refunds of another transaction (`transaction_id`/`tx_id` differs: the `id` filter ignored) are skipped;
 * - exactly one refund with our comment → it (its amount must be ours);
 * - several with our comment → ambiguous;
 * - none with our comment, but one of our amount carries no comment at all → ambiguous (it may be ours
 *   with the comment dropped);
 * - otherwise → none.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous or when the refund with our comment has another
 *   amount: nothing is settled automatically, the caller retries later or an operator looks
 */
export function ourFlutterwaveRefund(
  refunds: readonly FlutterwaveRefundListItem[],
  transactionId: string,
  ours: { refundId: string; amount: number },
): FlutterwaveRefundListItem | null {
  const concerned = refunds.filter((r) => {
    const tx = r.transaction_id ?? r.tx_id;
    return tx === undefined || tx === null || String(tx) === transactionId;
  });
  const comment = refundComment(ours.refundId);
  const matches = concerned.filter((r) => typeof r.comment === 'string' && r.comment.trim() === comment);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave lists ${matches.length} refunds commented "${comment}" on transaction ${transactionId}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (match) {
    if (majorToMinor(match.amount_refunded) !== ours.amount) {
      throw new ConnectorTechnicalError(
        FLUTTERWAVE_CONNECTOR_NAME,
        `Flutterwave refund ${match.id} is commented "${comment}" but refunds ${String(match.amount_refunded)}, not ${minorToMajor(ours.amount)}.`,
      );
    }
    return match;
  }
  const uncommented = concerned.filter(
    (r) => (r.comment === undefined || r.comment === null || r.comment.trim() === '') && majorToMinor(r.amount_refunded) === ours.amount,
  );
  if (uncommented.length > 0) {
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave lists ${uncommented.length} refund(s) of ${minorToMajor(ours.amount)} on transaction ${transactionId} without a comment; refund ${ours.refundId} cannot be told apart.`,
    );
  }
  return null;
}

/**
 * How long before our refund record's `createdAt` a refund listed by Flutterwave is still treated as possibly
 * ours when matching a preauth refund by amount ({@link ourPreauthRefund}): 10 minutes, covering clock skew
 * between Flutterwave and us and the time between writing our record and Flutterwave stamping its refund.
 */
export const FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS = 10 * 60 * 1000;

/**
 * Picks our refund of a preauthorized charge among the transaction's refunds (`GET /v3/refunds`).
 * `POST /v3/charges/{flw_ref}/refund` takes only `amount` [PRF], so nothing of ours travels with the refund;
 * it is recognised by transaction, amount and time. Rules:
 * - refunds of another transaction are skipped; a refund commented `Refund <our refund id>` (made through the
 *   general endpoint) is ours as in {@link ourFlutterwaveRefund}; refunds commented for another refund are not ours;
 * - the others of our amount are split by `created_at`: at or after our record's `createdAt` ("after"), or within
 *   {@link FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS} before it, or with no readable date ("near");
 * - none of either → none (ours never reached Flutterwave); any candidate → ambiguous, for an operator: an
 *   uncommented refund of our amount after our record may be ours, or a later refund of the same payment made
 *   by a retry with another Idempotency-Key (whose Flutterwave id we never learn from the preauth endpoint), and
 *   counting it as ours would record two refunds where the customer got one.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous: nothing is settled automatically (retry later / an operator looks)
 */
export function ourPreauthRefund(
  refunds: readonly FlutterwaveRefundListItem[],
  transactionId: string,
  ours: { refundId: string; amount: number; createdAt: string },
): FlutterwaveRefundListItem | null {
  const concerned = refunds.filter((r) => {
    const tx = r.transaction_id ?? r.tx_id;
    return tx === undefined || tx === null || String(tx) === transactionId;
  });
  const comment = refundComment(ours.refundId);
  const commented = concerned.filter((r) => typeof r.comment === 'string' && r.comment.trim() !== '');
  if (commented.some((r) => r.comment?.trim() === comment)) return ourFlutterwaveRefund(commented, transactionId, ours);
  const createdMs = Date.parse(ours.createdAt);
  const sameAmount = concerned.filter((r) => !commented.includes(r) && majorToMinor(r.amount_refunded) === ours.amount);
  const after: FlutterwaveRefundListItem[] = [];
  const near: FlutterwaveRefundListItem[] = [];
  for (const r of sameAmount) {
    const at = r.created_at ? Date.parse(r.created_at) : Number.NaN;
    if (!Number.isFinite(at) || !Number.isFinite(createdMs)) near.push(r);
    else if (at >= createdMs) after.push(r);
    else if (at >= createdMs - FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS) near.push(r);
  }
  if (after.length === 0 && near.length === 0) return null;
  throw new ConnectorTechnicalError(
    FLUTTERWAVE_CONNECTOR_NAME,
    `Flutterwave lists ${after.length + near.length} refund(s) of ${minorToMajor(ours.amount)} on preauthorized transaction ${transactionId} around refund ${ours.refundId}; they cannot be told apart without an operator.`,
  );
}

/**
 * A refund's `status` → our refund status [REF][RS]. Flutterwave's refund guides list:
 * `completed` (see below), `completed-bank-transfer`, `completed-momo`, `completed-mpgs` (cards),
 * `completed-offline`, `completed-preauth` — completed per channel; `pending-momo` and `processing`
 * ("a transient state between initiated and completed refunds") — in progress.
 *
 * `completed` is final → `Succeeded` (decision recorded in docs/connectors/flutterwave.md): two of
 * Flutterwave's three refund pages call it "General status for completed refunds" (the third, the
 * v3.0.0 page, says "initiated and is pending disbursement", i.e. accepted and taken from the
 * merchant's balance, with only the bank's credit to the payer left); no page documents any later
 * status for a `completed` refund, so holding it `Pending` would leave it open for ever. `complete`
 * is the spelling of Flutterwave's OpenAPI-based pages and means the same.
 * `failed` is not in the guides' tables; it is mapped because public Flutterwave integrations handle
 * it as a failed refund. Other `completed-…` channel statuses read as completed
 * ({@link refundStatusOf}); anything else stays `Pending` and the reconciler asks again.
 */
export const FLUTTERWAVE_REFUND_STATUS: Readonly<Record<string, RefundStatus>> = {
  completed: 'Succeeded',
  complete: 'Succeeded',
  'completed-bank-transfer': 'Succeeded',
  'completed-momo': 'Succeeded',
  'completed-mpgs': 'Succeeded',
  'completed-offline': 'Succeeded',
  'completed-preauth': 'Succeeded',
  'pending-momo': 'Pending',
  processing: 'Pending',
  failed: 'Failed',
};

/**
 * @param status a transaction's `data.status`
 * @param preauthorized whether the charge is a preauth (funds held, not captured)
 * @returns our status from {@link FLUTTERWAVE_PREAUTH_STATUS} / {@link FLUTTERWAVE_PAYMENT_STATUS}; `Processing` (as `pending`) for an unknown status
 */
export function paymentStatusOf(status: string, preauthorized: boolean): PaymentResult['status'] {
  const key = status.toLowerCase();
  if (preauthorized && Object.hasOwn(FLUTTERWAVE_PREAUTH_STATUS, key)) return FLUTTERWAVE_PREAUTH_STATUS[key] ?? 'Processing';
  return Object.hasOwn(FLUTTERWAVE_PAYMENT_STATUS, key) ? (FLUTTERWAVE_PAYMENT_STATUS[key] ?? 'Processing') : 'Processing';
}

/**
 * @returns our refund status for a Flutterwave refund `status`: {@link FLUTTERWAVE_REFUND_STATUS}; any other
 *   `completed-<channel>` status (the guides' naming of completed refunds per channel) `Succeeded`; `Pending`
 *   for anything else (the reconciler syncs it again)
 */
export function refundStatusOf(status: string): RefundStatus {
  const key = status.trim().toLowerCase();
  if (Object.hasOwn(FLUTTERWAVE_REFUND_STATUS, key)) return FLUTTERWAVE_REFUND_STATUS[key] ?? 'Pending';
  return /^completed-[a-z0-9-]+$/.test(key) ? 'Succeeded' : 'Pending';
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/** `"No transaction was found for this id"` → `no_transaction_was_found_for_this_id` (at most 64 characters). */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/**
 * `errorOf` for `connectorFetch`: Flutterwave's error body is
 * `{ "status": "error", "message": "...", "data": null }` with no machine code [SDK][REF]
 * (e.g. `"Amount should be above NGN100"`), so the code is the body's `code` when one is
 * present, else a slug of the message, else `http_<status>`.
 * @returns the processor's code and message for a 4xx answer
 */
export function flutterwaveErrorOf(httpStatus: number, body: unknown): { code: string; message: string } {
  const b = (body ?? {}) as { code?: unknown; message?: unknown };
  const message = typeof b.message === 'string' && b.message ? b.message : `Flutterwave refused the request (HTTP ${httpStatus}).`;
  const code =
    typeof b.code === 'string' && b.code
      ? b.code
      : typeof b.message === 'string' && slugOf(b.message)
        ? slugOf(b.message)
        : `http_${httpStatus}`;
  return { code, message };
}

/**
 * The read of the credential check: Get all wallet balances, `GET /v3/balances`
 * (https://developer.flutterwave.com/v3.0.0/reference/get-all-wallet-balances, "Query the balances for your wallet in
 * all currencies", authorised by the secret key as a bearer token; the SDK's `Misc.bal()`, flutterwave-node-v3 1.4.1
 * `services/misc/rave.balances.js`: `GET /v3/balances`). No parameters, changes nothing.
 */
export const FLUTTERWAVE_BALANCES_PATH = '/v3/balances';

/**
 * Whether a body is the answer of `GET /v3/balances`: `{status: "success", message: "Wallet balances fetched",
 * data: [{currency, available_balance, ledger_balance}, …]}` (flutterwave-node-v3 1.4.1 `documentation/misc.md`
 * "Get all wallet balances", Sample Response). Only the envelope is read.
 */
export function isFlutterwaveBalances(body: unknown): boolean {
  const b = body as { status?: unknown; data?: unknown } | null;
  return !!b && typeof b === 'object' && b.status === 'success' && Array.isArray(b.data);
}

/**
 * Whether an error is Flutterwave's own "No transaction was found …" answer from verify
 * (`{"status": "error", "message": "No transaction was found for this id", "data": null}`, HTTP 400
 * or a 200 envelope). Only that message counts: a bare 404 (a proxy, a wrong base URL) or any other
 * refusal says nothing about the transaction and is thrown as it is.
 */
export function isTransactionNotFound(err: unknown): boolean {
  return err instanceof ConnectorRequestError && err.code.startsWith('no_transaction_was_found');
}

/**
 * Unwraps a 2xx envelope whose `status` is `"success"` and which carries `data`.
 * @throws ConnectorRequestError when the envelope says `"error"` (some endpoints answer 200 with it) or has no `data`
 */
export function dataOf<T>(response: FlutterwaveResponse<T>): T {
  if (response.status !== 'success' || response.data === undefined || response.data === null) {
    const { code, message } = flutterwaveErrorOf(200, response);
    throw new ConnectorRequestError(FLUTTERWAVE_CONNECTOR_NAME, code, message);
  }
  return response.data;
}

// ---------------------------------------------------------------------------
// Request builders
// ---------------------------------------------------------------------------

/**
 * Encrypts the card payload as Flutterwave documents [ENC][SDK services/charge/encryp.js]:
 * JSON → 3DES (`des-ede3`, ECB, PKCS#7 padding) with the dashboard's 24-character
 * encryption key → base64, sent as `{ "client": "<base64>" }`.
 * @param encryptionKey the merchant's encryption key (24 bytes)
 * @returns the base64 ciphertext
 */
export function encryptCardPayload(encryptionKey: string, payload: FlutterwaveCardPayload): string {
  const cipher = createCipheriv('des-ede3', Buffer.from(encryptionKey, 'utf8'), null);
  return Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('base64');
}

/** Seconds a generated bank-transfer account stays valid (`expires` in the charge body [SDK collections.md]). */
export const BANK_TRANSFER_EXPIRES_SECONDS = 3600;

/** Ghana's networks (`shared/domain/ghana-mobile-networks.ts`) → the `network` values of {@link FLUTTERWAVE_GHANA_NETWORKS} [GH]. */
export const FLUTTERWAVE_NETWORK_OF: Readonly<Record<GhanaMobileNetwork, FlutterwaveGhanaNetwork>> = {
  mtn: FLUTTERWAVE_GHANA_NETWORKS.MTN,
  telecel: FLUTTERWAVE_GHANA_NETWORKS.TELECEL,
  at: FLUTTERWAVE_GHANA_NETWORKS.AIRTELTIGO,
};

/**
 * The national significant number of a phone in E.164 (`+233…`), international
 * without `+` (`233…`) or national (`0…`) form.
 * @returns the digits after the country code, or undefined when the number is not of that country
 */
export function nationalNumber(phone: string, countryCode: string, nationalLength: number): string | undefined {
  const digits = phone.replace(/[\s()-]/g, '');
  let national: string | undefined;
  if (digits.startsWith(`+${countryCode}`)) national = digits.slice(countryCode.length + 1);
  else if (digits.startsWith(countryCode) && digits.length === countryCode.length + nationalLength)
    national = digits.slice(countryCode.length);
  else if (digits.startsWith('0')) national = digits.slice(1);
  return national && /^\d+$/.test(national) && national.length === nationalLength ? national : undefined;
}

/** What building a charge needs besides the request. */
export interface ChargeBuildOptions {
  /** The dashboard's 24-character encryption key (3DES key of card payloads). */
  encryptionKey: string;
}

/** A charge to send: `POST /v3/charges?type=<type>` with `body` (JSON). */
export interface FlutterwaveChargeRequest {
  type: FlutterwaveChargeType;
  body: string;
}

function requestProblem(code: string, message: string): ConnectorRequestError {
  return new ConnectorRequestError(FLUTTERWAVE_CONNECTOR_NAME, code, message);
}

/** What a card charge is built from: the payment (amounts in minor units) and the card, held in memory only. */
export interface CardChargeInput {
  paymentId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  captureMethod: AuthorizeRequest['captureMethod'];
  email: string;
  /** Where Flutterwave sends the payer back after 3DS (Switchyard's return route for the payment). */
  returnUrl: string;
  phone?: string | undefined;
  card: CardDetails;
  /** Only when the charge is sent again for a `pin` or `avs_noauth` mode [CARD]. */
  authorization?: FlutterwavePinAuthorization | FlutterwaveAvsAuthorization;
}

/**
 * The card payload of `POST /v3/charges?type=card` [CARD][SDK `cardChargeSchema`]: our payment id as `tx_ref`
 * (the same on every re-send), the amount in major units, two-digit expiry month and year, `preauthorize: true`
 * for manual capture [PRE], and `authorization` when the charge is sent again with a PIN or an address.
 */
export function cardPayload(input: CardChargeInput): FlutterwaveCardPayload {
  const card = input.card;
  return {
    card_number: card.card_number,
    cvv: card.card_cvc,
    expiry_month: card.card_exp_month.padStart(2, '0'),
    expiry_year: String(fullExpiryYear(card.card_exp_year) % 100).padStart(2, '0'),
    currency: input.currency,
    amount: minorToMajor(input.amount),
    email: input.email,
    tx_ref: input.paymentId,
    redirect_url: input.returnUrl,
    ...(input.phone ? { phone_number: input.phone } : {}),
    ...(input.captureMethod === 'manual' ? { preauthorize: true as const } : {}),
    ...(input.authorization ? { authorization: input.authorization } : {}),
  };
}

/** @returns the JSON body `{ "client": "<3DES ciphertext of the payload>" }` of a card charge [ENC] */
export function encryptedCardBody(encryptionKey: string, input: CardChargeInput): string {
  const body: FlutterwaveEncryptedCharge = { client: encryptCardPayload(encryptionKey, cardPayload(input)) };
  return JSON.stringify(body);
}

/**
 * Builds the direct-charge request for a payment [DC]: our `paymentId` is the
 * `tx_ref` (unique per transaction at Flutterwave, and what a sync finds the
 * payment by); amounts are major-unit strings ({@link minorToMajor}). Cards are
 * encrypted ({@link encryptCardPayload}); manual capture sends `preauthorize: true`.
 * USSD sends the payer's bank (`request.ussdBankCode`) as `account_bank` [USSD].
 * The PAN and CVC only exist inside the encrypted `client` value.
 * @returns the charge type and JSON body
 * @throws ConnectorRequestError (nothing sent) when the pair is unsupported (`unsupported_payment_method`),
 *   manual capture is asked for a non-card method (`manual_capture_not_supported`), or a required
 *   detail is missing or unusable: card (`card_required`), email (`email_required`, Flutterwave requires one),
 *   USSD bank (`ussd_bank_required`, `unsupported_ussd_bank` for a bank outside {@link FLUTTERWAVE_USSD_BANKS}),
 *   phone for mobile money (`phone_required`, `invalid_phone`, `unknown_mobile_network`)
 */
export function buildChargeRequest(request: AuthorizeRequest, options: ChargeBuildOptions): FlutterwaveChargeRequest {
  const type = flutterwaveChargeType(request.currency, request.paymentMethod);
  if (!type)
    throw requestProblem(
      'unsupported_payment_method',
      `Flutterwave does not take ${request.paymentMethod} payments in ${request.currency} here.`,
    );
  if (request.captureMethod === 'manual' && type !== 'card') {
    throw requestProblem(
      'manual_capture_not_supported',
      'Flutterwave can only preauthorize (hold) card payments; use capture_method automatic.',
    );
  }
  const email = request.email?.trim();
  if (!email) throw requestProblem('email_required', "Flutterwave requires the payer's email address for every charge.");
  const amount = minorToMajor(request.amount);
  const phone = request.phone ?? undefined;
  switch (type) {
    case 'card': {
      const card = request.card;
      if (!card) throw requestProblem('card_required', 'A card payment at Flutterwave needs the card details.');
      const body = encryptedCardBody(options.encryptionKey, {
        paymentId: request.paymentId,
        amount: request.amount,
        currency: request.currency,
        captureMethod: request.captureMethod,
        email,
        returnUrl: request.returnUrl,
        phone,
        card,
      });
      return { type, body };
    }
    case 'bank_transfer': {
      const body: FlutterwaveBankTransferCharge = {
        tx_ref: request.paymentId,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
        expires: BANK_TRANSFER_EXPIRES_SECONDS,
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'ussd': {
      const bank = request.ussdBankCode;
      if (!bank) throw requestProblem('ussd_bank_required', "A USSD payment at Flutterwave needs the payer's bank (its CBN code).");
      if (!isFlutterwaveUssdBank(bank)) {
        throw requestProblem(
          'unsupported_ussd_bank',
          `Flutterwave does not take USSD payments from bank ${bank}; it takes ${FLUTTERWAVE_USSD_BANKS.join(', ')}.`,
        );
      }
      const body: FlutterwaveUssdCharge = {
        tx_ref: request.paymentId,
        account_bank: bank,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'mobile_money_ghana': {
      if (!phone) throw requestProblem('phone_required', "Ghana mobile money needs the payer's phone number.");
      const national = nationalNumber(phone, '233', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Ghanaian mobile number (+233 and 9 digits).');
      const ghana = ghanaMobileNetwork(`+233${national}`);
      const network = ghana ? FLUTTERWAVE_NETWORK_OF[ghana] : undefined;
      if (!network)
        throw requestProblem(
          'unknown_mobile_network',
          'The phone number does not belong to a Ghanaian mobile-money network Flutterwave charges (MTN, Telecel, AirtelTigo).',
        );
      const body: FlutterwaveGhanaMobileMoneyCharge = {
        tx_ref: request.paymentId,
        amount,
        currency: 'GHS',
        country: 'GH',
        network,
        email,
        phone_number: `0${national}`,
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'mpesa': {
      if (!phone) throw requestProblem('phone_required', "M-Pesa needs the payer's phone number.");
      const national = nationalNumber(phone, '254', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Kenyan mobile number (+254 and 9 digits).');
      const body: FlutterwaveMpesaCharge = { tx_ref: request.paymentId, amount, currency: 'KES', email, phone_number: `254${national}` };
      return { type, body: JSON.stringify(body) };
    }
  }
}

/**
 * The `authorization` object for an AVS re-send from the payer's address [CARD]: `address` ← `line1`,
 * `zipcode` ← `zip`, `country` upper-cased (ISO 3166-1 alpha-2).
 * @throws ConnectorRequestError `address_required` (nothing sent) when a field is missing or blank
 */
export function avsAuthorization(address: Partial<AuthenticationAddress> | null | undefined): FlutterwaveAvsAuthorization {
  const line1 = address?.line1?.trim();
  const city = address?.city?.trim();
  const state = address?.state?.trim();
  const zip = address?.zip?.trim();
  const country = address?.country?.trim().toUpperCase();
  if (!line1 || !city || !state || !zip || !country || !/^[A-Z]{2}$/.test(country)) {
    throw requestProblem(
      'address_required',
      "Flutterwave needs the card's billing address: line1, city, state, zip and a 2-letter country.",
    );
  }
  return { mode: 'avs_noauth', city, address: line1, state, country, zipcode: zip };
}

/**
 * Whether a billing address given at create is complete enough for Flutterwave's AVS mode
 * ({@link avsAuthorization} would accept it).
 */
export function isCompleteAvsAddress(address: Partial<AuthenticationAddress> | null | undefined): boolean {
  try {
    avsAuthorization(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the card charge sent again for a `submit_pin` or `submit_address` step [CARD]: the whole card charge
 * of the payment (same `tx_ref`, amount, currency, `preauthorize`) with `authorization: {mode: "pin", pin}` or
 * `authorization: {mode: "avs_noauth", …address}`, encrypted. The card comes again with the step
 * (`card_required`): Switchyard never keeps it. The PIN is held in memory only and only travels encrypted.
 * @returns the encrypted JSON body of `POST /v3/charges?type=card`
 * @throws ConnectorRequestError (nothing sent) `card_required`, `email_required`, `pin_required`, `address_required`,
 *   or `unsupported_authentication_step` for any other step
 */
export function buildCardStepCharge(request: AuthenticateRequest, options: ChargeBuildOptions): string {
  if (!request.card)
    throw requestProblem(
      'card_required',
      'Flutterwave takes the PIN or the billing address only with the whole card charge: send the card again with this step.',
    );
  const email = request.email?.trim();
  if (!email) throw requestProblem('email_required', "Flutterwave requires the payer's email address for every charge.");
  let authorization: FlutterwavePinAuthorization | FlutterwaveAvsAuthorization;
  if (request.step === 'submit_pin') {
    if (!request.pin) throw requestProblem('pin_required', 'The submit_pin step needs the card PIN.');
    authorization = { mode: 'pin', pin: request.pin };
  } else if (request.step === 'submit_address') {
    authorization = avsAuthorization(request.address);
  } else {
    throw requestProblem('unsupported_authentication_step', `Flutterwave does not re-send a card charge for ${request.step}.`);
  }
  return encryptedCardBody(options.encryptionKey, {
    paymentId: request.paymentId,
    amount: request.amount,
    currency: request.currency,
    captureMethod: request.captureMethod,
    email,
    returnUrl: request.returnUrl,
    card: request.card,
    authorization,
  });
}

/**
 * @returns the body of `POST /v3/validate-charge` [VAL]: the OTP exactly as typed (Flutterwave judges it: its
 *   reference asks for "at least 6 characters", the SDK's schema 5 to 7, its test OTP is `12345`), the charge's
 *   `flw_ref` and `type: "card"`
 * @throws ConnectorRequestError `otp_required` (nothing sent) when the OTP is empty
 */
export function buildValidateChargeBody(otp: string | undefined, flwRef: string): FlutterwaveValidateChargeBody {
  if (!otp) throw requestProblem('otp_required', 'The submit_otp step needs the one-time code.');
  return { otp, flw_ref: flwRef, type: 'card' };
}

/** @returns the body of `POST /v3/charges/{flw_ref}/capture` for `amount` minor units [PRE] */
export function buildCaptureBody(amount: number): FlutterwaveCaptureBody {
  return { amount: minorToMajor(amount) };
}

/** @returns the body of `POST /v3/transactions/{id}/refund` for `amount` minor units, noting our refund id in `comments` [REF] */
export function buildRefundBody(amount: number, refundId: string): FlutterwaveRefundBody {
  return { amount: minorToMajor(amount), comments: refundComment(refundId) };
}

/**
 * @returns the body of `POST /v3/charges/{flw_ref}/refund` for `amount` minor units [PRF]: `amount` is its only
 *   documented field (no note can carry our refund id; see {@link ourPreauthRefund})
 */
export function buildPreauthRefundBody(amount: number): FlutterwavePreauthRefundBody {
  return { amount: minorToMajor(amount) };
}

/** The refund note `Refund <our refund id>` sent as `comments` (listed back as `comment`): how {@link ourFlutterwaveRefund} finds it. */
export function refundComment(refundId: string): string {
  return `Refund ${refundId}`;
}

/** Path of a tokenized charge, `POST /v3/tokenized-charges` [TC]. */
export const FLUTTERWAVE_TOKENIZED_CHARGE_PATH = '/v3/tokenized-charges';

/**
 * `country` of a tokenized charge, by currency [TC]: Flutterwave's reference calls it "the ISO country code of the
 * merchant" and the SDK's `tokenSchema` defaults it to `NG` (every official sample sends `NG` with `NGN`). Switchyard
 * does not know the merchant's country, so the currency's own country is sent for the four local currencies (an
 * account charging GHS, KES or ZAR is one of that country) and nothing for USD (Flutterwave's default applies).
 */
export const FLUTTERWAVE_TOKEN_CHARGE_COUNTRY: Readonly<Partial<Record<Currency, string>>> = {
  NGN: 'NG',
  GHS: 'GH',
  KES: 'KE',
  ZAR: 'ZA',
};

/** The `narration` of a tokenized charge (the SDK's `tokenSchema` requires one): `Payment <our payment id>`. */
export function tokenizedChargeNarration(paymentId: string): string {
  return `Payment ${paymentId}`;
}

/**
 * Builds the body of `POST /v3/tokenized-charges` for a charge of a saved card (`request.savedMethod`)
 * [TC][TOK][SDK `tokenSchema`]: see {@link FlutterwaveTokenizedCharge}. The e-mail is the one the token is tied to
 * (`savedMethod.email`), else the payment's. `offSession` changes nothing on the wire: Flutterwave's v3 tokenized
 * charge has no such flag (its card-on-file `is_unscheduled`/`trace_id` fields need Flutterwave's approval); a charge
 * Flutterwave wants the payer to authenticate answers a 3DS redirect, mapped to `RequiresAction`.
 * The token is held in memory only: it travels in this body and nowhere else.
 * @returns the body (amount in major units)
 * @throws ConnectorRequestError (nothing sent) `saved_method_required` without a token, `unsupported_payment_method`
 *   for anything but a card in a currency of `FLUTTERWAVE_CHARGE_TYPES.card`, `email_required` without an e-mail
 */
export function buildTokenizedCharge(request: AuthorizeRequest): FlutterwaveTokenizedCharge {
  const token = request.savedMethod?.token?.trim();
  if (!token) throw requestProblem('saved_method_required', 'A charge of a saved card at Flutterwave needs the card token.');
  if (flutterwaveChargeType(request.currency, request.paymentMethod) !== 'card') {
    throw requestProblem(
      'unsupported_payment_method',
      `Flutterwave charges saved cards only (card tokens), not ${request.paymentMethod} payments in ${request.currency}.`,
    );
  }
  const email = (request.savedMethod?.email ?? request.email)?.trim();
  if (!email) throw requestProblem('email_required', 'Flutterwave charges a card token with the e-mail address it is tied to.');
  const country = FLUTTERWAVE_TOKEN_CHARGE_COUNTRY[request.currency];
  return {
    token,
    currency: request.currency,
    ...(country ? { country } : {}),
    amount: minorToMajor(request.amount),
    email,
    tx_ref: request.paymentId,
    narration: tokenizedChargeNarration(request.paymentId),
    redirect_url: request.returnUrl,
    ...(request.captureMethod === 'manual' ? { preauthorize: true as const } : {}),
  };
}

// ---------------------------------------------------------------------------
// Response mapping
// ---------------------------------------------------------------------------

/** How long a USSD code is shown as valid: Flutterwave documents no expiry, so this is the sandbox's 24 h (a display hint; the webhook or a sync settles the payment). */
export const USSD_DISPLAY_VALIDITY_MS = 24 * 60 * 60 * 1000;

function isUrl(value: string | undefined): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

/**
 * `account_expiration` as Flutterwave sends it (epoch milliseconds in the SDK sample,
 * or a date string) → ISO 8601 UTC; a date string without a zone is read as UTC.
 * @returns the ISO time, or `fallback` when the value is missing or unreadable
 */
export function expiryOf(value: number | string | undefined, fallback: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value === 'string' && value.trim()) {
    const text = value.trim();
    if (/^\d+$/.test(text)) return new Date(Number(text)).toISOString();
    const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text.replace(' ', 'T')}Z`;
    const ms = Date.parse(zoned);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return fallback;
}

/** A failed transaction's error fields: Flutterwave has no decline code, only `processor_response` text (e.g. "Insufficient Funds" → `insufficient_funds`). */
export function declineOf(tx: Pick<FlutterwaveTransaction, 'processor_response'>): { errorCode: string; errorMessage: string } {
  const text = tx.processor_response?.trim();
  return { errorCode: (text && slugOf(text)) || 'payment_failed', errorMessage: text || 'Flutterwave reported the payment as failed.' };
}

// ---------------------------------------------------------------------------
// Saved cards
// ---------------------------------------------------------------------------

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

/** What mapping a charge response needs to know about the request. */
export interface ChargeContext {
  /** `publicBaseUrl` builds the hosted page of an authentication step (`next_action.redirect_to_url`). */
  request: Pick<AuthorizeRequest, 'amount' | 'currency' | 'paymentId' | 'captureMethod' | 'publicBaseUrl'>;
  type: FlutterwaveChargeType;
  /** The clock in epoch ms (expiry fallbacks). */
  now: number;
}

/**
 * The `connectorTransactionId` recorded while a card waits for a `submit_pin` or `submit_address` step: the
 * payment's `tx_ref` (our payment id). Flutterwave's `pin` and `avs_noauth` answers create no transaction
 * (no `data.id`), yet the charge is known there by this reference once re-sent; recording it lets a sync tell
 * "waiting for the payer's PIN or address, nothing created yet" (the step stays open) from "the charge never
 * answered" (a card with no id at all, see `FlutterwaveConnector.sync`).
 */
export function cardStepReference(paymentId: string): string {
  return paymentId;
}

/** Whether a recorded `connectorTransactionId` is {@link cardStepReference} of the payment (a PIN or address step, nothing created yet). */
export function isCardStepReference(connectorTransactionId: string | null, paymentId: string): boolean {
  return connectorTransactionId !== null && connectorTransactionId === cardStepReference(paymentId);
}

function firstText(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const text = value?.trim();
    if (text && text.toUpperCase() !== 'N/A') return text;
  }
  return null;
}

/**
 * A `RequiresAction` result asking the payer for an authentication step, with Switchyard's hosted page of the
 * payment ({@link authenticationAction}). `connectorTransactionId` is the transaction's id when Flutterwave created
 * one, else {@link cardStepReference}. The OTP step shows Flutterwave's prompt (`processor_response`, e.g. "Kindly
 * enter the OTP sent to *******0328", or `meta.authorization.validate_instructions`); the PIN and address steps show none.
 */
export function authenticationStepResult(
  step: AuthenticationStep,
  cardRequired: boolean,
  tx: Pick<FlutterwaveTransaction, 'id' | 'processor_response'> | null,
  ctx: Pick<ChargeContext, 'request'>,
  authorization?: FlutterwaveAuthorization | null,
): PaymentResult {
  const prompt = step === 'submit_otp' ? firstText(tx?.processor_response, authorization?.validate_instructions) : null;
  return {
    status: 'RequiresAction',
    connectorTransactionId: tx ? String(tx.id) : cardStepReference(ctx.request.paymentId),
    amountCaptured: 0,
    nextAction: authenticationAction(step, ctx.request.publicBaseUrl, ctx.request.paymentId, prompt, cardRequired),
  };
}

function nextActionFor(
  action: 'redirect' | 'bank_transfer' | 'ussd',
  authorization: FlutterwaveAuthorization,
  data: FlutterwaveTransaction | null,
  ctx: ChargeContext,
): NextAction | null {
  switch (action) {
    case 'redirect': {
      const url = isUrl(authorization.redirect) ? authorization.redirect : isUrl(data?.auth_url) ? data?.auth_url : undefined;
      return url ? { type: 'redirect_to_url', redirect_to_url: url } : null;
    }
    case 'bank_transfer': {
      if (!authorization.transfer_account) return null;
      const fallback = new Date(ctx.now + BANK_TRANSFER_EXPIRES_SECONDS * 1000).toISOString();
      return {
        type: 'bank_transfer_instructions',
        bank_transfer: {
          bank_name: authorization.transfer_bank ?? '',
          account_number: authorization.transfer_account,
          // Flutterwave returns no account holder name; its transfer_note ("Please make a bank transfer to <business>") is what the payer sees.
          account_name: authorization.transfer_note ?? '',
          // transfer_amount is what the payer must send (it may include fees the payer bears).
          amount: authorization.transfer_amount !== undefined ? majorToMinor(authorization.transfer_amount) : ctx.request.amount,
          currency: ctx.request.currency,
          reference: authorization.transfer_reference ?? ctx.request.paymentId,
          expires_at: expiryOf(authorization.account_expiration, fallback),
        },
      };
    }
    case 'ussd': {
      if (!authorization.note) return null;
      return {
        type: 'display_ussd_code',
        ussd: {
          code: authorization.note,
          reference: data?.flw_ref ?? ctx.request.paymentId,
          expires_at: new Date(ctx.now + USSD_DISPLAY_VALIDITY_MS).toISOString(),
        },
      };
    }
  }
}

/**
 * Maps the answer of `POST /v3/charges?type=…` (a first charge, or a card charge sent again with a PIN or an
 * address) [DC][CARD][SDK]:
 * - `data.status` through {@link FLUTTERWAVE_PAYMENT_STATUS} (preauth: {@link FLUTTERWAVE_PREAUTH_STATUS});
 *   `successful` → `Succeeded` with `amountCaptured` = `data.amount` in minor units (0 for a hold);
 *   `failed` → `Failed` with {@link declineOf} (e.g. a wrong PIN Flutterwave declines);
 * - a pending charge, or an answer without `data` (bank transfer, Ghana MoMo, PIN/AVS requests),
 *   through `meta.authorization.mode` ({@link FLUTTERWAVE_AUTH_MODES}) into a next action or an authentication
 *   step ({@link authenticationStepResult}); without a mode, M-Pesa waits on the STK push (`Processing` +
 *   `await_mobile_money_approval`).
 * `connectorTransactionId` is Flutterwave's numeric `data.id` as a string; without `data`, {@link cardStepReference}
 * for a PIN/address step, else null. A successful card charge (or hold) whose `data.card` has a `token` carries it
 * as `savedMethod` ({@link withSavedMethod}). The answers of `POST /v3/tokenized-charges` [TC] are mapped
 * here too (as `card`): `successful`, `failed`, or pending with a 3DS `redirect` mode.
 * @throws ConnectorRequestError when the envelope is an error without a transaction
 * @throws ConnectorTechnicalError when an amount in the answer is unreadable
 */
export function paymentResultFromCharge(response: FlutterwaveResponse<FlutterwaveTransaction>, ctx: ChargeContext): PaymentResult {
  const data = response.data ?? null;
  if (response.status !== 'success' && !data?.status) dataOf(response); // throws the envelope's error
  const authorization = response.meta?.authorization ?? data?.meta?.authorization ?? null;
  const connectorTransactionId = data ? String(data.id) : null;
  const preauthorized = ctx.request.captureMethod === 'manual' || data?.charge_type === 'preauth';
  if (data) {
    const status = paymentStatusOf(data.status, preauthorized);
    if (status === 'Succeeded')
      return withSavedMethod({ status, connectorTransactionId, amountCaptured: majorToMinor(data.amount) }, data, ctx.now);
    if (status === 'Failed') return { status, connectorTransactionId, amountCaptured: 0, ...declineOf(data) };
    if (status !== 'Processing' && status !== 'RequiresAction')
      return withSavedMethod({ status, connectorTransactionId, amountCaptured: 0 }, data, ctx.now);
  }
  const mode = authorization?.mode?.toLowerCase();
  if (authorization && mode) {
    const outcome = Object.hasOwn(FLUTTERWAVE_AUTH_MODES, mode) ? FLUTTERWAVE_AUTH_MODES[mode] : undefined;
    if (outcome?.status === 'RequiresAction' && outcome.action === 'step') {
      return authenticationStepResult(outcome.step, outcome.cardRequired, data, ctx, authorization);
    }
    if (outcome?.status === 'RequiresAction') {
      const nextAction = nextActionFor(outcome.action, authorization, data, ctx);
      if (nextAction) return { status: 'RequiresAction', connectorTransactionId, amountCaptured: 0, nextAction };
    }
    return { status: 'Processing', connectorTransactionId, amountCaptured: 0 };
  }
  if (ctx.type === 'mpesa' && data) {
    return {
      status: 'Processing',
      connectorTransactionId,
      amountCaptured: 0,
      nextAction: {
        type: 'await_mobile_money_approval',
        mobile_money: { message: 'Approve the M-Pesa prompt sent to your phone.', reference: data.flw_ref },
      },
    };
  }
  if (data?.status === 'success-pending-validation' && isUrl(data.auth_url)) {
    return {
      status: 'RequiresAction',
      connectorTransactionId,
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: data.auth_url },
    };
  }
  return { status: 'Processing', connectorTransactionId, amountCaptured: 0 };
}

/**
 * Maps the answer of `POST /v3/validate-charge` [VAL][CARD]: the transaction it returns through the status tables
 * (`successful` → `Succeeded`, or `RequiresCapture` for a preauth; `failed` → `Failed` with Flutterwave's
 * `processor_response`); a transaction still pending with a new `meta.authorization.mode` (e.g. `redirect`) through
 * {@link FLUTTERWAVE_AUTH_MODES}; a transaction still pending without one is still waiting for its validation, so the
 * OTP step stays open (`submit_otp` with Flutterwave's prompt).
 * @throws ConnectorRequestError when the envelope says `error` (a 200 refusal), like a 4xx
 * @throws ConnectorTechnicalError when an amount in the answer is unreadable
 */
export function paymentResultFromValidation(response: FlutterwaveResponse<FlutterwaveTransaction>, ctx: ChargeContext): PaymentResult {
  const tx = dataOf(response);
  const mode = (response.meta?.authorization ?? tx.meta?.authorization)?.mode;
  const result = paymentResultFromCharge(response, ctx);
  if (!mode && (result.status === 'Processing' || result.status === 'RequiresAction') && !result.nextAction) {
    return authenticationStepResult('submit_otp', false, tx, ctx);
  }
  return result;
}

/** How a verified transaction is read. */
export interface TransactionContext {
  /** Whether the payment is a preauth (manual capture, or `charge_type: "preauth"`). */
  preauthorized: boolean;
  /** What `pending` means for this payment ({@link FLUTTERWAVE_PENDING_STATUS}). */
  pendingStatus: 'RequiresAction' | 'Processing';
  /** The clock in epoch ms, for a saved card's expiry when the transaction has no `created_at` (default: `Date.now()`). */
  now?: number;
}

/**
 * Maps a verified transaction (`GET /v3/transactions/{id}/verify`, `…/verify_by_reference`,
 * or a webhook's `data`) [VER]: the status tables, `amountCaptured` = `amount` in minor
 * units when `Succeeded`, the decline text when `Failed`; `pending` → `ctx.pendingStatus`
 * without a next action (the one authorize gave stays on the payment). A successful card transaction whose
 * `card` has a `token` carries it as `savedMethod` ({@link withSavedMethod}) [TOK].
 */
export function paymentResultFromTransaction(tx: FlutterwaveTransaction, ctx: TransactionContext): PaymentResult {
  const connectorTransactionId = String(tx.id);
  const status = paymentStatusOf(tx.status, ctx.preauthorized);
  const now = ctx.now ?? Date.now();
  if (status === 'Succeeded') return withSavedMethod({ status, connectorTransactionId, amountCaptured: majorToMinor(tx.amount) }, tx, now);
  if (status === 'Failed') return { status, connectorTransactionId, amountCaptured: 0, ...declineOf(tx) };
  if (status === 'Processing') return { status: ctx.pendingStatus, connectorTransactionId, amountCaptured: 0 };
  return withSavedMethod({ status, connectorTransactionId, amountCaptured: 0 }, tx, now);
}

/**
 * Maps the answer of `POST /v3/charges/{flw_ref}/capture` [PRE]: `successful` → `Succeeded`
 * with `amountCaptured` = the amount we asked to capture (Flutterwave's `data.amount` may be the
 * authorized amount); otherwise the transaction status table. A captured card whose answer carries `card.token`
 * carries it as `savedMethod` ({@link withSavedMethod}; `now` in epoch ms for an answer without `created_at`).
 * @throws ConnectorRequestError when the envelope is an error
 */
export function paymentResultFromCapture(
  response: FlutterwaveResponse<FlutterwaveTransaction>,
  capturedAmount: number,
  now: number = Date.now(),
): PaymentResult {
  const tx = dataOf(response);
  const status = paymentStatusOf(tx.status, false);
  if (status === 'Succeeded')
    return withSavedMethod({ status, connectorTransactionId: String(tx.id), amountCaptured: capturedAmount }, tx, now);
  if (status === 'Failed') return { status, connectorTransactionId: String(tx.id), amountCaptured: 0, ...declineOf(tx) };
  return { status, connectorTransactionId: String(tx.id), amountCaptured: 0 };
}

/**
 * Maps the answer of `POST /v3/charges/{flw_ref}/refund` (refund of a preauthorized charge) [PRF]: Flutterwave
 * answers `{status: "success", message: "Charge refunded", data: <the charge>}`; the refund itself is the
 * refunds list's `completed-preauth` ("the refund status of preauth card transactions", a completed status [RS]),
 * so a success envelope is `Succeeded`. The answer carries the charge, not a refund object: there is no refund
 * id to record (`connectorRefundId` null; {@link ourPreauthRefund} finds the refund in `GET /v3/refunds` when an
 * answer is lost).
 * @throws ConnectorRequestError when the envelope says `error` (a 200 refusal)
 */
export function refundResultFromPreauthRefund(response: FlutterwaveResponse<FlutterwaveTransaction>): RefundResult {
  dataOf(response);
  return { status: 'Succeeded', connectorRefundId: null };
}

/**
 * Maps a refund (`POST /v3/transactions/{id}/refund`, `GET /v3/refunds/{id}` or an item of `GET /v3/refunds`)
 * through {@link refundStatusOf}; `connectorRefundId` is the refund's own `id`.
 */
export function refundResultFromRefund(refund: Pick<FlutterwaveRefund, 'id' | 'status'>): RefundResult {
  const status = refundStatusOf(refund.status);
  return {
    status,
    connectorRefundId: String(refund.id),
    ...(status === 'Failed' ? { errorCode: 'refund_failed', errorMessage: `Flutterwave reports the refund as ${refund.status}.` } : {}),
  };
}

// ---------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------

/** Header carrying the dashboard's secret hash on every webhook [WH]. */
export const FLUTTERWAVE_WEBHOOK_HEADER = 'verif-hash';

/**
 * Checks the `verif-hash` header against the secret hash configured in the dashboard [WH]:
 * Flutterwave sends the hash itself (no HMAC), so it is an equality check — done in constant
 * time over SHA-256 digests of both values (equal length, no early exit).
 * @returns undefined when it matches, else why not (`missing` / `mismatch`)
 */
export function webhookHashProblem(header: string | undefined, secretHash: string): 'missing' | 'mismatch' | undefined {
  if (header === undefined || header === '') return 'missing';
  const got = createHash('sha256').update(header, 'utf8').digest();
  const want = createHash('sha256').update(secretHash, 'utf8').digest();
  return timingSafeEqual(got, want) ? undefined : 'mismatch';
}

/** The charge a webhook reports, in one shape for the v3 and the legacy flat format. */
export interface FlutterwaveWebhookCharge {
  /** `charge.completed`, or the legacy `event.type` (`CARD_TRANSACTION`, …). */
  event: string;
  id: number;
  txRef: string;
  status: string;
  chargeType?: string;
}

/**
 * Reads a webhook body [WH]: the v3 envelope `{ event: "charge.completed", data }` or the
 * legacy flat body (`id`, `txRef`, `status`, `"event.type"`).
 * @returns the charge it reports, or undefined for any other event (transfers, subscriptions, …)
 */
export function webhookChargeOf(payload: FlutterwaveWebhookPayload): FlutterwaveWebhookCharge | undefined {
  if (typeof payload.event === 'string') {
    const d = payload.data;
    if (
      payload.event !== 'charge.completed' ||
      !d ||
      typeof d.id !== 'number' ||
      typeof d.tx_ref !== 'string' ||
      typeof d.status !== 'string'
    )
      return undefined;
    return { event: payload.event, id: d.id, txRef: d.tx_ref, status: d.status, ...(d.charge_type ? { chargeType: d.charge_type } : {}) };
  }
  const legacyType = payload['event.type'];
  if (
    typeof legacyType === 'string' &&
    /_TRANSACTION$/i.test(legacyType) &&
    typeof payload.id === 'number' &&
    typeof payload.txRef === 'string' &&
    typeof payload.status === 'string'
  ) {
    return {
      event: legacyType,
      id: payload.id,
      txRef: payload.txRef,
      status: payload.status,
      ...(payload.charge_type ? { chargeType: payload.charge_type } : {}),
    };
  }
  return undefined;
}

/**
 * A webhook's event id, stable across redeliveries: Flutterwave sends no event id, so it is
 * built from what one delivery of one outcome contains — event, transaction id and status.
 */
export function webhookEventId(charge: FlutterwaveWebhookCharge): string {
  return `flw_${charge.event}_${charge.id}_${charge.status}`.toLowerCase();
}

/** Event id of a webhook this adapter ignores: a digest of the body (stable across redeliveries of the same body). */
export function ignoredEventId(rawBody: string): string {
  return `flw_${createHash('sha256').update(rawBody, 'utf8').digest('hex').slice(0, 32)}`;
}

// ---------------------------------------------------------------------------
// Disputes: chargebacks
// ---------------------------------------------------------------------------

/*
 * Sources of this section ([CB]):
 * - "Get all Chargebacks", `GET /v3/chargebacks` with query `page`, `status` ("lost, won, initiated, accepted,
 *   declined"), `from`/`to` ("Date format is YYYY-MM-DD"), `currency`, `flw_ref`, `id` ("The id of the transaction"):
 *   https://developer.flutterwave.com/reference/endpoints/charge-backs/ ; its 200 sample (`meta.page_info`, items `id`,
 *   `amount` in major units, `flw_ref`, `status`, `stage`, `comment`, `meta.uploaded_proof`, `meta.history`, `due_date`,
 *   `settlement_id`, `created_at`, `transaction_id`, `tx_ref`; no currency):
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks (kept as
 *   test/connectors/fixtures/flutterwave/disputes/chargebacks-list.json).
 * - "Accept/Decline Chargeback", `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment}` (both required)
 *   and a link to the proof: https://developer.flutterwave.com/reference/endpoints/charge-backs/ and
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/acceptdecline-chargebacks (200 sample "Chargeback
 *   accepted", `data` the chargeback without `tx_ref`/`transaction_id`: fixtures/flutterwave/disputes/chargeback-accept.json).
 * - Stages `new`, `second`, `pre-arbitration`, `arbitration`; statuses at creation `pending`, `initiated`; `due_date` computed
 *   from the chargeback's `expiry` hours: the v4 "Create a chargeback" reference, https://developer.flutterwave.com/reference/chargebacks_post.
 * - Deadlines: "Local transactions: 10 working hours … International transactions: 30 working hours from the
 *   notification time", https://developer.flutterwave.com/docs/payment-operations/chargebacks (the core applies them
 *   when `due_date` is absent).
 * - Webhooks: "We also send webhooks to your server when a chargeback is raised. This notification service is available
 *   on request." (https://developer.flutterwave.com/docs/chargebacks-1); no payload is published (the guide's sample
 *   history only shows `"action": "hooknotifier"` entries, https://flutterwaveinc.mintlify.app/other-features/chargebacks),
 *   so chargebacks are polled ({@link FlutterwaveChargeback} through `listDisputes`).
 */

/** A chargeback as `GET /v3/chargebacks` lists it and `PUT /v3/chargebacks/{id}` answers it [CB]; `amount` in major units. */
export interface FlutterwaveChargeback {
  id: number | string;
  amount: number | string;
  /** The disputed transaction's Flutterwave reference (several chargebacks of one transaction share it). */
  flw_ref?: string | null;
  /** See {@link FLUTTERWAVE_DISPUTE_STATUS}. */
  status: string;
  /** See {@link FLUTTERWAVE_DISPUTE_STAGE}. */
  stage?: string | null;
  /** The reason given for the chargeback ("Product/service not received"). */
  comment?: string | null;
  meta?: { uploaded_proof?: string | null; history?: unknown[] | null } | null;
  /** The deadline for the merchant's answer (ISO 8601). */
  due_date?: string | null;
  settlement_id?: string | null;
  created_at?: string | null;
  /** The disputed transaction's numeric id (absent from the accept/decline answer). */
  transaction_id?: number | string | null;
  /** Our reference of the disputed charge (our payment id), absent from the accept/decline answer. */
  tx_ref?: string | null;
  /** Not in the published samples; read when present. */
  currency?: string | null;
}

/** The answer of `GET /v3/chargebacks` [CB]. */
export interface FlutterwaveChargebackList {
  status: string;
  message: string;
  data?: FlutterwaveChargeback[] | null;
  meta?: { page_info?: FlutterwavePageInfo | null } | null;
}

/** Timeout of each chargeback call (list, accept, decline), in ms: the adapter's 35 s (`timeoutMs` overrides). */
export const FLUTTERWAVE_DISPUTE_TIMEOUT_MS = 35_000;

/** Pages of `GET /v3/chargebacks` read per currency in one listing or lookup before giving up (throws: not authoritative). */
export const FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES = 50;

/** `PUT /v3/chargebacks/{id}` path. */
export const flutterwaveChargebackPath = (id: string): string => `/v3/chargebacks/${encodeURIComponent(id)}`;

/**
 * A chargeback's `status` → our dispute status [CB]:
 * - `pending`, `initiated`: raised, the merchant may accept or decline (the amount is held: "Debit and hold chargeback amount");
 * - `accepted`: the merchant accepted it ("Merchant accepts claim");
 * - `declined`: the merchant refuted it with a comment and proof ("Merchant denies claim with a proof"); the bank decides;
 * - `won`: the merchant's evidence prevailed ("the lien is lifted, and the amount is released");
 * - `lost`: upheld ("the amount is debited permanently"), also when nobody answered ("No merchant response" in its history).
 * Anything else is kept raw and read as `dispute_opened` with a warning ({@link disputeStatusOf}).
 */
export const FLUTTERWAVE_DISPUTE_STATUS: Readonly<Record<string, DisputeStatus>> = {
  pending: 'dispute_opened',
  initiated: 'dispute_opened',
  accepted: 'dispute_accepted',
  declined: 'dispute_challenged',
  won: 'dispute_won',
  lost: 'dispute_lost',
};

/**
 * A chargeback's `stage` → our stage [CB]: `new` (the first chargeback) → `dispute`; `second`, `pre-arbitration` and
 * `arbitration` (later rounds) → `pre_arbitration` (our vocabulary's second round; it has no arbitration). Unknown or
 * absent → `dispute`.
 */
export const FLUTTERWAVE_DISPUTE_STAGE: Readonly<Record<string, DisputeStage>> = {
  new: 'dispute',
  second: 'pre_arbitration',
  'pre-arbitration': 'pre_arbitration',
  pre_arbitration: 'pre_arbitration',
  arbitration: 'pre_arbitration',
};

/** Our status of a chargeback `status`, and whether Flutterwave's value was known to the table. */
export function disputeStatusOf(status: string): { status: DisputeStatus; known: boolean } {
  const key = status.trim().toLowerCase();
  const mapped = Object.hasOwn(FLUTTERWAVE_DISPUTE_STATUS, key) ? FLUTTERWAVE_DISPUTE_STATUS[key] : undefined;
  return mapped ? { status: mapped, known: true } : { status: 'dispute_opened', known: false };
}

/** Our stage of a chargeback `stage` (absent or unknown → `dispute`). */
export function disputeStageOf(stage: string | null | undefined): { stage: DisputeStage; known: boolean } {
  const key = (stage ?? '').trim().toLowerCase();
  const mapped = Object.hasOwn(FLUTTERWAVE_DISPUTE_STAGE, key) ? FLUTTERWAVE_DISPUTE_STAGE[key] : undefined;
  return mapped ? { stage: mapped, known: true } : { stage: 'dispute', known: !key };
}

/** An ISO 8601 instant normalized to UTC (`…Z`), or null when absent or unreadable. */
function isoOrNull(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** What a chargeback's mapping falls back to when the answer omits it (the accept/decline answer has no `tx_ref`). */
export interface ChargebackDefaults {
  currency: Currency;
  paymentId?: string | null;
  connectorTransactionId?: string | null;
}

/**
 * A chargeback → {@link ConnectorDispute}: our payment id is its `tx_ref` (the adapter sends our payment id as `tx_ref`
 * on every charge), the transaction id its `transaction_id` (the numeric id the adapter keeps as `connectorTransactionId`),
 * the amount its major-unit `amount` in minor units, the currency the chargeback's own (when present) or the one it was
 * listed or asked under, `challengeRequiredBy` its `due_date`, `connectorReason` its `comment`. No reason code is
 * published (null).
 * @returns the dispute and whether its status and stage were known to the tables
 * @throws ConnectorTechnicalError when the amount is not a decimal number
 */
export function connectorDisputeOf(
  cb: FlutterwaveChargeback,
  defaults: ChargebackDefaults,
): { dispute: ConnectorDispute; statusKnown: boolean; stageKnown: boolean } {
  const rawStatus = typeof cb.status === 'string' ? cb.status : String(cb.status ?? '');
  const status = disputeStatusOf(rawStatus);
  const stage = disputeStageOf(cb.stage);
  const ownCurrency = typeof cb.currency === 'string' ? cb.currency.trim().toUpperCase() : '';
  const currency = (CURRENCIES as readonly string[]).includes(ownCurrency) ? (ownCurrency as Currency) : defaults.currency;
  const txRef = typeof cb.tx_ref === 'string' && cb.tx_ref ? cb.tx_ref : null;
  const transactionId =
    cb.transaction_id !== undefined && cb.transaction_id !== null && String(cb.transaction_id) ? String(cb.transaction_id) : null;
  const reason = typeof cb.comment === 'string' && cb.comment.trim() ? cb.comment.trim() : null;
  return {
    dispute: {
      connectorDisputeId: String(cb.id),
      paymentId: txRef ?? defaults.paymentId ?? null,
      connectorTransactionId: transactionId ?? defaults.connectorTransactionId ?? null,
      amount: majorToMinor(cb.amount),
      currency,
      stage: stage.stage,
      status: status.status,
      connectorStatus: rawStatus,
      connectorReason: reason,
      connectorReasonCode: null,
      challengeRequiredBy: isoOrNull(cb.due_date),
      createdAt: isoOrNull(cb.created_at),
    },
    statusKnown: status.known,
    stageKnown: stage.known,
  };
}

/**
 * The query of one page of `GET /v3/chargebacks` [CB]: `currency` (the answer names none, so each currency is listed
 * on its own), `from` = the UTC day before `since` (the filter takes dates only), `to` = the UTC day after `now`, `page`
 * (1-based); `id` = the disputed transaction's numeric id when looking one chargeback up.
 */
export function chargebackListQuery(options: {
  currency: Currency;
  page: number;
  since?: string;
  now?: number;
  transactionId?: string | null;
}): URLSearchParams {
  const query = new URLSearchParams([['currency', options.currency]]);
  if (options.since !== undefined && options.now !== undefined) {
    const sinceMs = Date.parse(options.since);
    const fromMs = (Number.isFinite(sinceMs) ? Math.min(sinceMs, options.now) : options.now) - 24 * 60 * 60 * 1000;
    query.set('from', utcDate(fromMs));
    query.set('to', utcDate(options.now + 24 * 60 * 60 * 1000));
  }
  if (options.transactionId) query.set('id', options.transactionId);
  query.set('page', String(options.page));
  return query;
}

/**
 * Whether another page of `GET /v3/chargebacks` follows this one (`meta.page_info`, as the refund list [LR]).
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info` (the listing would not be authoritative)
 */
export function hasMoreChargebackPages(list: FlutterwaveChargebackList, page: number): boolean {
  return hasMoreListPages(list, page, 'chargebacks');
}

/** Labels of our text evidence fields in the decline `comment`. */
const EVIDENCE_LABELS: Readonly<Record<(typeof DISPUTE_EVIDENCE_TEXT_FIELDS)[number], string>> = {
  product_description: 'Product description',
  customer_name: 'Customer name',
  customer_email_address: 'Customer e-mail',
  billing_address: 'Billing address',
  shipping_address: 'Shipping address',
  shipping_date: 'Shipping date',
  shipping_tracking_number: 'Shipping tracking number',
  service_date: 'Service date',
  refund_policy_disclosure: 'Refund policy disclosure',
  refund_refusal_explanation: 'Refund refusal explanation',
  cancellation_policy_disclosure: 'Cancellation policy disclosure',
  access_activity_log: 'Access activity log',
  uncategorized_text: 'Other',
};

/**
 * The `comment` of a decline (`PUT /v3/chargebacks/{id}` `{action: "decline", comment}`) from our text evidence:
 * Flutterwave takes one free-text comment and a link to proof [CB], so each non-empty text field becomes a line
 * `<label>: <value>`, in the order of {@link DISPUTE_EVIDENCE_TEXT_FIELDS}.
 * @returns the comment, or '' when no text field has a value
 */
export function declineCommentOf(evidence: DisputeEvidence): string {
  const lines: string[] = [];
  for (const field of DISPUTE_EVIDENCE_TEXT_FIELDS) {
    const value = evidence[field];
    if (typeof value === 'string' && value.trim()) lines.push(`${EVIDENCE_LABELS[field]}: ${value.trim()}`);
  }
  return lines.join('\n');
}

/** The file fields of our evidence that carry a value (Flutterwave takes none through this adapter). */
export function evidenceFileFieldsOf(evidence: DisputeEvidence): string[] {
  return DISPUTE_EVIDENCE_FILE_FIELDS.filter((field) => typeof evidence[field] === 'string' && evidence[field] !== '');
}
