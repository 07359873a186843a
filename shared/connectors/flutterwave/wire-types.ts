/**
 * Flutterwave v3's JSON as the adapter sends and reads it: the `{status, message, data}` envelope, transactions
 * (charge, verify, capture and webhook payloads), cards, customers, refunds and refund lists, webhook bodies, the
 * charge bodies by type (the card payload before encryption, bank transfer, USSD, Ghana mobile money, M-Pesa), the
 * capture, refund, validate and tokenized-charge bodies, and chargebacks. Only the fields the adapter writes or
 * reads. Amounts on the wire are in MAJOR units (./money.ts converts them).
 *
 * Sources (the tags cited on each export):
 * - [DC] Direct charge guides: https://developer.flutterwave.com/docs/direct-charge/overview (card, bank-transfer, ussd, ghana-mobile-money, mpesa pages)
 * - [CARD] Card charge guide: https://developer.flutterwave.com/docs/direct-charge/card/ (current copy:
 *   https://developer.flutterwave.com/docs/collections-inflow/cards): initiate → `meta.authorization.mode`
 *   (`pin`, `avs_noauth`, `redirect`, `otp`) → re-send the same charge with `authorization` → validate with the OTP.
 * - [VAL] Validate a charge, `POST /v3/validate-charge` `{otp, flw_ref, type}`:
 *   https://developer.flutterwave.com/reference/endpoints/validate-charge/ (200 sample "Charge validated"; the 400
 *   example is printed as `{}`: Flutterwave publishes no body for a wrong OTP).
 * - [PRF] Refund a preauthorized charge, `POST /v3/charges/{flw_ref}/refund` `{amount}`:
 *   https://developer.flutterwave.com/v3.0.0/reference/refund-preauth-charge and
 *   https://flutterwaveinc.mintlify.app/api-reference/preauthorization/create-a-refund (answer: the charge, "Charge refunded").
 * - [USSD] USSD guide, "Supported Banks": https://developer.flutterwave.com/docs/collections-inflow/ussd (updated 13 September 2026;
 *   the same 18 banks on https://developer.flutterwave.com/v3.0/docs/ussd and /docs/direct-charge/ussd/).
 * - [GH] Ghana mobile money: https://developer.flutterwave.com/docs/ghana.md ("Supported networks: MTN, Telecel, TIGO"),
 *   the older https://developer.flutterwave.com/docs/ghana ("MTN", "VODAFONE", or "TIGO"), and the SDK's `momoSchema`
 *   (flutterwave-node-v3 1.4.1 services/schema/create.js: MTN, AIRTELTIGO, VODAFONE since 1.2.1, 2025-04-14).
 * - [ENC] Encryption: https://developer.flutterwave.com/docs/integration-guides/encryption/ (3DES, `{ client }`)
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *   https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [WH] Webhooks: https://developer.flutterwave.com/docs/webhooks (`verif-hash`, `charge.completed`)
 * - [SDK] The official Node SDK flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *   services/charge/encryp.js (3DES-ECB), services/schema/create.js and base.js (the joi request schemas the
 *   contract tests validate every body against), documentation/collections.md and documentation/transactions.md
 *   (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
 * - [LR] Get all refunds, `GET /v3/refunds`: https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds
 *   (query filters: start and end date `YYYY-MM-DD`, status, currency, the refund's `flw_ref`, and the
 *   transaction's `data.id`) and Flutterwave's v3 OpenAPI rendered at
 *   https://flutterwaveinc.mintlify.app/api-reference/transactions/get-all-refunds (items `id`,
 *   `amount_refunded`, `status`, `flw_ref`, `comment`, `transaction_id`, `created_at`;
 *   `meta.page_info` `total`, `current_page`, `total_pages`, `page_size`). The rendered reference does
 *   not print the parameter names; `from`, `to`, `id` and `page` are the names Flutterwave uses on its
 *   other v3 list endpoints (e.g. GET /v3/transactions, GET /v3/payment-plans).
 *   Flutterwave/Node-v3 (v1.4.1, commit 537f9f4455f922a879e4f088cf0f596621c3517c) has no list-refunds call.
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
 * - [CB] Chargebacks:
 *   - "Get all Chargebacks", `GET /v3/chargebacks` with query `page`, `status` ("lost, won, initiated, accepted,
 *   declined"), `from`/`to` ("Date format is YYYY-MM-DD"), `currency`, `flw_ref`, `id` ("The id of the transaction"):
 *   https://developer.flutterwave.com/reference/endpoints/charge-backs/ ; its 200 sample (`meta.page_info`, items `id`,
 *   `amount` in major units, `flw_ref`, `status`, `stage`, `comment`, `meta.uploaded_proof`, `meta.history`, `due_date`,
 *   `settlement_id`, `created_at`, `transaction_id`, `tx_ref`; no currency):
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks (kept as
 *   test/connectors/fixtures/flutterwave/disputes/chargebacks-list.json).
 *   - "Accept/Decline Chargeback", `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment}` (both required)
 *   and a link to the proof: https://developer.flutterwave.com/reference/endpoints/charge-backs/ and
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/acceptdecline-chargebacks (200 sample "Chargeback
 *   accepted", `data` the chargeback without `tx_ref`/`transaction_id`: fixtures/flutterwave/disputes/chargeback-accept.json).
 *   - Stages `new`, `second`, `pre-arbitration`, `arbitration`; statuses at creation `pending`, `initiated`; `due_date` computed
 *   from the chargeback's `expiry` hours: the v4 "Create a chargeback" reference, https://developer.flutterwave.com/reference/chargebacks_post.
 *   - Deadlines: "Local transactions: 10 working hours … International transactions: 30 working hours from the
 *   notification time", https://developer.flutterwave.com/docs/payment-operations/chargebacks (the core applies them
 *   when `due_date` is absent).
 *   - Webhooks: "We also send webhooks to your server when a chargeback is raised. This notification service is available
 *   on request." (https://developer.flutterwave.com/docs/chargebacks-1); no payload is published (the guide's sample
 *   history only shows `"action": "hooknotifier"` entries, https://flutterwaveinc.mintlify.app/other-features/chargebacks),
 *   so chargebacks are polled ({@link FlutterwaveChargeback} through `listDisputes`).
 */
import type { Currency } from '../../domain/money';
import type { FlutterwaveGhanaNetwork } from './mobile-money';

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
  /** See `FLUTTERWAVE_PAYMENT_STATUS` (./statuses.ts). */
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
  /** See `FLUTTERWAVE_REFUND_STATUS` (./statuses.ts). */
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

/** Body of `POST /v3/charges?type=ussd` (NGN only): `account_bank` is the payer's bank code, one of `FLUTTERWAVE_USSD_BANKS` (./ussd-banks.ts) [USSD][SDK `ussdChargeSchema`]. */
export interface FlutterwaveUssdCharge {
  tx_ref: string;
  account_bank: string;
  amount: string;
  currency: 'NGN';
  email: string;
  phone_number?: string;
}

/** Body of `POST /v3/charges?type=mobile_money_ghana`: `network` from `FLUTTERWAVE_GHANA_NETWORKS` (./mobile-money.ts); `phone_number` in local format (`054…`) [GH][SDK `momoSchema`]. */
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
 * to [TOK], `amount` in major units as a decimal string (as every other body of this adapter: `minorToMajor` (./money.ts)),
 * our payment id as `tx_ref` (so `verify_by_reference` finds the charge after a lost answer), `narration` (required by
 * the SDK's schema), `redirect_url` (where Flutterwave's 3DS page sends the payer back: subsequent charges use 3DS by
 * default [TOK]), `country` for the currencies of `FLUTTERWAVE_TOKEN_CHARGE_COUNTRY` (./requests.ts), and `preauthorize: true`
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

/** A chargeback as `GET /v3/chargebacks` lists it and `PUT /v3/chargebacks/{id}` answers it [CB]; `amount` in major units. */
export interface FlutterwaveChargeback {
  id: number | string;
  amount: number | string;
  /** The disputed transaction's Flutterwave reference (several chargebacks of one transaction share it). */
  flw_ref?: string | null;
  /** See `FLUTTERWAVE_DISPUTE_STATUS` (./statuses.ts). */
  status: string;
  /** See `FLUTTERWAVE_DISPUTE_STAGE` (./statuses.ts). */
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
