import { createCipheriv, createHash, timingSafeEqual } from 'node:crypto';
import { fullExpiryYear } from '../../domain/card';
import type { Currency } from '../../domain/money';
import type { NextAction, PaymentMethod } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import { ConnectorRequestError, ConnectorTechnicalError, type AuthorizeRequest, type PaymentResult, type RefundResult } from '../connector';
import type { ConnectorTimeouts } from '../connector-http';

/**
 * Flutterwave v3 wire types, request builders and the status tables of the
 * Flutterwave adapter (Hyperswitch's `transformers.rs` layout).
 *
 * Sources (cited again on each export):
 * - [DC]  Direct charge guides: https://developer.flutterwave.com/docs/direct-charge/overview (card, bank-transfer, ussd, ghana-mobile-money, mpesa pages)
 * - [ENC] Encryption: https://developer.flutterwave.com/docs/integration-guides/encryption/ (3DES, `{ client }`)
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *         https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [WH]  Webhooks: https://developer.flutterwave.com/docs/webhooks (`verif-hash`, `charge.completed`)
 * - [SDK] The official Node SDK, repo Flutterwave/Node-v3: services/charge/encryp.js (3DES-ECB),
 *         services/charge/types.ts (payload and response shapes), documentation/collections.md and
 *         documentation/transactions.md (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
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
 * `meta.authorization` of a charge response: what the payer must do next [DC][SDK].
 * `mode` is `pin` / `avs_noauth` (card: more data needed, no transaction yet), `otp`
 * (card: an OTP was sent), `redirect` (3DS page, or the Ghana mobile-money
 * verification page), `banktransfer` (account details to pay into), `ussd`
 * (`note` holds the code to dial), `callback` (the operator prompts the payer).
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

/** The `?type=` of `POST /v3/charges` for the methods this adapter uses [DC]. */
export type FlutterwaveChargeType = 'card' | 'bank_transfer' | 'ussd' | 'mobile_money_ghana' | 'mpesa';

/**
 * The card payload that is 3DES-encrypted into `client` [ENC][SDK services/charge/types.ts].
 * `amount` in major units as a decimal string; `expiry_month`/`expiry_year` two digits each;
 * `preauthorize: true` places a hold to capture later [PRE].
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
}

/** Body of `POST /v3/charges?type=card`: the encrypted card payload only [ENC]. */
export interface FlutterwaveEncryptedCharge {
  client: string;
}

/** Body of `POST /v3/charges?type=bank_transfer` (NGN only) [DC bank-transfer][SDK]. `expires`: seconds the generated account stays valid. */
export interface FlutterwaveBankTransferCharge {
  tx_ref: string;
  amount: string;
  currency: 'NGN';
  email: string;
  phone_number?: string;
  is_permanent: false;
  expires: number;
}

/** Body of `POST /v3/charges?type=ussd` (NGN only): `account_bank` is the payer's bank code, e.g. `058` [DC ussd][SDK]. */
export interface FlutterwaveUssdCharge {
  tx_ref: string;
  account_bank: string;
  amount: string;
  currency: 'NGN';
  email: string;
  phone_number?: string;
}

/** Body of `POST /v3/charges?type=mobile_money_ghana`: `network` is `MTN`, `VODAFONE` or `TIGO`; `phone_number` in local format (`054…`) [DC ghana][SDK]. */
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

/** Ghana mobile-money networks Flutterwave's charge endpoint accepts [DC ghana]. */
export type FlutterwaveGhanaNetwork = 'MTN' | 'VODAFONE' | 'TIGO';

/** Body of `POST /v3/charges/{flw_ref}/capture`: the amount to capture, major units, ≤ the authorized amount [PRE]. */
export interface FlutterwaveCaptureBody {
  amount: string;
}

/** Body of `POST /v3/transactions/{id}/refund`: amount in major units (partial allowed) and a free-text note [REF]. */
export interface FlutterwaveRefundBody {
  amount: string;
  comments: string;
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
  if (!match) throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, `Flutterwave answered an amount that is not a decimal number: ${text.slice(0, 32)}`);
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const cents = Number(`${fraction}00`.slice(0, 2));
  const roundUp = fraction.length > 2 && fraction.charCodeAt(2) >= 53; // third decimal ≥ '5'
  const minor = Number(whole) * 100 + cents + (roundUp ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave answered an amount too large to represent.');
  return minor;
}

// ---------------------------------------------------------------------------
// Supported methods
// ---------------------------------------------------------------------------

/**
 * The (method, currency) pairs this adapter charges, and the Flutterwave charge
 * type each uses [DC]: cards in all five currencies; bank transfer and USSD in NGN
 * only ("Bank transfer is currently only supported for NGN transactions", "USSD
 * payments are only available for NGN"); mobile money as Ghana MoMo (GHS) and
 * M-Pesa (KES). ZAR/USD have no Flutterwave mobile money, bank transfer or USSD here.
 */
export const FLUTTERWAVE_CHARGE_TYPES: Readonly<Record<PaymentMethod, Partial<Record<Currency, FlutterwaveChargeType>>>> = {
  card: { NGN: 'card', USD: 'card', GHS: 'card', ZAR: 'card', KES: 'card' },
  bank_transfer: { NGN: 'bank_transfer' },
  ussd: { NGN: 'ussd' },
  mobile_money: { GHS: 'mobile_money_ghana', KES: 'mpesa' },
};

/**
 * @returns the Flutterwave charge type for a payment, or undefined when the adapter does not support the pair
 */
export function flutterwaveChargeType(currency: Currency, method: PaymentMethod): FlutterwaveChargeType | undefined {
  return FLUTTERWAVE_CHARGE_TYPES[method]?.[currency];
}

// ---------------------------------------------------------------------------
// Timeouts
// ---------------------------------------------------------------------------

/**
 * Flutterwave's own server-side wait: "Our system typically waits for 28 seconds before returning a
 * timeout error response" (a 503) [TO]. Our client waits that long plus a margin for connection
 * setup and transfer, so Flutterwave's own answer arrives before we give up: 35 000 ms.
 */
export const FLUTTERWAVE_SERVER_TIMEOUT_MS = 28_000;

/**
 * Timeout of one Flutterwave call per operation, in milliseconds: {@link FLUTTERWAVE_SERVER_TIMEOUT_MS}
 * plus 7 s for every operation (Flutterwave states one server-side wait for all endpoints).
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
 * redirect) [SDK collections.md, ACH sample]; `failed` is a decline. Any other
 * status reads as `pending` (nothing is settled on a status we do not know).
 */
export const FLUTTERWAVE_PAYMENT_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'Succeeded',
  pending: 'Processing',
  'success-pending-validation': 'RequiresAction',
  failed: 'Failed',
};

/**
 * The same statuses for a preauthorized card charge (`preauthorize: true`,
 * `charge_type: "preauth"`) [PRE]: `successful` means the lien is placed and the
 * funds wait to be captured. Statuses not listed here map as in {@link FLUTTERWAVE_PAYMENT_STATUS}.
 */
export const FLUTTERWAVE_PREAUTH_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'RequiresCapture',
};

/** What a charge's `meta.authorization.mode` means for us. */
export type FlutterwaveModeOutcome =
  | { status: 'RequiresAction'; action: 'redirect' | 'bank_transfer' | 'ussd' }
  | { status: 'Processing'; action: 'none' }
  | { status: 'Failed'; action: 'unsupported' };

/**
 * A pending charge's `meta.authorization.mode` → our status and next action [DC][SDK]:
 * - `redirect` → `RequiresAction` + `redirect_to_url` (card 3DS; Ghana MoMo verification page);
 * - `banktransfer` → `RequiresAction` + `bank_transfer_instructions`;
 * - `ussd` → `RequiresAction` + `display_ussd_code`;
 * - `callback` → `Processing` (the operator prompts the payer);
 * - `pin`, `avs_noauth`, `otp` → `Failed` (`unsupported_authorization_mode`): Flutterwave wants the
 *   card PIN, the billing address or an OTP sent to the payer, which this API neither collects nor has a
 *   next action for. For `pin`/`avs_noauth` nothing was created at Flutterwave (the response has no `data`).
 * A pending charge without a mode waits on the network (M-Pesa STK push): see {@link FLUTTERWAVE_PENDING_STATUS}.
 */
export const FLUTTERWAVE_AUTH_MODES: Readonly<Record<string, FlutterwaveModeOutcome>> = {
  redirect: { status: 'RequiresAction', action: 'redirect' },
  banktransfer: { status: 'RequiresAction', action: 'bank_transfer' },
  ussd: { status: 'RequiresAction', action: 'ussd' },
  callback: { status: 'Processing', action: 'none' },
  pin: { status: 'Failed', action: 'unsupported' },
  avs_noauth: { status: 'Failed', action: 'unsupported' },
  otp: { status: 'Failed', action: 'unsupported' },
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
  const info = list.meta?.page_info;
  const items = list.data ?? [];
  if (typeof info?.total_pages === 'number' && Number.isFinite(info.total_pages)) {
    const current = typeof info.current_page === 'number' ? info.current_page : page;
    return items.length > 0 && current < info.total_pages;
  }
  if (items.length === 0) return false;
  throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave listed refunds without meta.page_info; whether more pages exist is unknown.');
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
    throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, `Flutterwave lists ${matches.length} refunds commented "${comment}" on transaction ${transactionId}; an operator must reconcile them.`);
  }
  const match = matches[0];
  if (match) {
    if (majorToMinor(match.amount_refunded) !== ours.amount) {
      throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, `Flutterwave refund ${match.id} is commented "${comment}" but refunds ${String(match.amount_refunded)}, not ${minorToMajor(ours.amount)}.`);
    }
    return match;
  }
  const uncommented = concerned.filter((r) => (r.comment === undefined || r.comment === null || r.comment.trim() === '') && majorToMinor(r.amount_refunded) === ours.amount);
  if (uncommented.length > 0) {
    throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, `Flutterwave lists ${uncommented.length} refund(s) of ${minorToMajor(ours.amount)} on transaction ${transactionId} without a comment; refund ${ours.refundId} cannot be told apart.`);
  }
  return null;
}

/**
 * A refund's `status` → our refund status [REF]. The v3 refunds guide's table:
 * `completed` — "Refund has been initiated and is pending disbursement" (so `Pending`;
 * older revisions of the page called it the general completed status);
 * `completed-bank-transfer`, `completed-momo`, `completed-mpgs` (cards),
 * `completed-offline`, `completed-preauth` — completed; `pending-momo` and `processing`
 * — in progress. `failed` is not in the guide's table; it is mapped because public
 * Flutterwave integrations handle it as a failed refund. Anything else stays `Pending`.
 */
export const FLUTTERWAVE_REFUND_STATUS: Readonly<Record<string, RefundStatus>> = {
  completed: 'Pending',
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

/** @returns our refund status for a Flutterwave refund `status` ({@link FLUTTERWAVE_REFUND_STATUS}); `Pending` when unknown */
export function refundStatusOf(status: string): RefundStatus {
  const key = status.toLowerCase();
  return Object.hasOwn(FLUTTERWAVE_REFUND_STATUS, key) ? (FLUTTERWAVE_REFUND_STATUS[key] ?? 'Pending') : 'Pending';
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
  const code = typeof b.code === 'string' && b.code ? b.code : typeof b.message === 'string' && slugOf(b.message) ? slugOf(b.message) : `http_${httpStatus}`;
  return { code, message };
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

/**
 * Ghana numbering plan (National Communications Authority): the first two digits of the
 * national number name the operator. MTN 24/25/53/54/55/59, Vodafone (now Telecel) 20/50,
 * AirtelTigo 26/27/56/57 — mapped to Flutterwave's `network` values [DC ghana].
 */
export const GHANA_NETWORK_BY_PREFIX: Readonly<Record<string, FlutterwaveGhanaNetwork>> = {
  '24': 'MTN',
  '25': 'MTN',
  '53': 'MTN',
  '54': 'MTN',
  '55': 'MTN',
  '59': 'MTN',
  '20': 'VODAFONE',
  '50': 'VODAFONE',
  '26': 'TIGO',
  '27': 'TIGO',
  '56': 'TIGO',
  '57': 'TIGO',
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
  else if (digits.startsWith(countryCode) && digits.length === countryCode.length + nationalLength) national = digits.slice(countryCode.length);
  else if (digits.startsWith('0')) national = digits.slice(1);
  return national && /^\d+$/.test(national) && national.length === nationalLength ? national : undefined;
}

/** What building a charge needs besides the request. */
export interface ChargeBuildOptions {
  encryptionKey: string;
  /** Bank code for USSD charges (the API carries no bank choice), e.g. `058`. */
  ussdBankCode: string;
}

/** A charge to send: `POST /v3/charges?type=<type>` with `body` (JSON). */
export interface FlutterwaveChargeRequest {
  type: FlutterwaveChargeType;
  body: string;
}

function requestProblem(code: string, message: string): ConnectorRequestError {
  return new ConnectorRequestError(FLUTTERWAVE_CONNECTOR_NAME, code, message);
}

/**
 * Builds the direct-charge request for a payment [DC]: our `paymentId` is the
 * `tx_ref` (unique per transaction at Flutterwave, and what a sync finds the
 * payment by); amounts are major-unit strings ({@link minorToMajor}). Cards are
 * encrypted ({@link encryptCardPayload}); manual capture sends `preauthorize: true`.
 * The PAN and CVC only exist inside the encrypted `client` value.
 * @returns the charge type and JSON body
 * @throws ConnectorRequestError (nothing sent) when the pair is unsupported (`unsupported_payment_method`),
 *   manual capture is asked for a non-card method (`manual_capture_not_supported`), or a required
 *   detail is missing: card (`card_required`), email (`email_required`, Flutterwave requires one),
 *   phone for mobile money (`phone_required`, `invalid_phone`, `unknown_mobile_network`)
 */
export function buildChargeRequest(request: AuthorizeRequest, options: ChargeBuildOptions): FlutterwaveChargeRequest {
  const type = flutterwaveChargeType(request.currency, request.paymentMethod);
  if (!type) throw requestProblem('unsupported_payment_method', `Flutterwave does not take ${request.paymentMethod} payments in ${request.currency} here.`);
  if (request.captureMethod === 'manual' && type !== 'card') {
    throw requestProblem('manual_capture_not_supported', 'Flutterwave can only preauthorize (hold) card payments; use capture_method automatic.');
  }
  const email = request.email?.trim();
  if (!email) throw requestProblem('email_required', 'Flutterwave requires the payer\'s email address for every charge.');
  const amount = minorToMajor(request.amount);
  const phone = request.phone ?? undefined;
  switch (type) {
    case 'card': {
      const card = request.card;
      if (!card) throw requestProblem('card_required', 'A card payment at Flutterwave needs the card details.');
      const payload: FlutterwaveCardPayload = {
        card_number: card.card_number,
        cvv: card.card_cvc,
        expiry_month: card.card_exp_month.padStart(2, '0'),
        expiry_year: String(fullExpiryYear(card.card_exp_year) % 100).padStart(2, '0'),
        currency: request.currency,
        amount,
        email,
        tx_ref: request.paymentId,
        redirect_url: request.returnUrl,
        ...(phone ? { phone_number: phone } : {}),
        ...(request.captureMethod === 'manual' ? { preauthorize: true as const } : {}),
      };
      const body: FlutterwaveEncryptedCharge = { client: encryptCardPayload(options.encryptionKey, payload) };
      return { type, body: JSON.stringify(body) };
    }
    case 'bank_transfer': {
      const body: FlutterwaveBankTransferCharge = {
        tx_ref: request.paymentId,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
        is_permanent: false,
        expires: BANK_TRANSFER_EXPIRES_SECONDS,
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'ussd': {
      const body: FlutterwaveUssdCharge = {
        tx_ref: request.paymentId,
        account_bank: options.ussdBankCode,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'mobile_money_ghana': {
      if (!phone) throw requestProblem('phone_required', 'Ghana mobile money needs the payer\'s phone number.');
      const national = nationalNumber(phone, '233', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Ghanaian mobile number (+233 and 9 digits).');
      const network = GHANA_NETWORK_BY_PREFIX[national.slice(0, 2)];
      if (!network) throw requestProblem('unknown_mobile_network', 'The phone number does not belong to a Ghanaian mobile-money network Flutterwave charges (MTN, Vodafone, AirtelTigo).');
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
      if (!phone) throw requestProblem('phone_required', 'M-Pesa needs the payer\'s phone number.');
      const national = nationalNumber(phone, '254', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Kenyan mobile number (+254 and 9 digits).');
      const body: FlutterwaveMpesaCharge = { tx_ref: request.paymentId, amount, currency: 'KES', email, phone_number: `254${national}` };
      return { type, body: JSON.stringify(body) };
    }
  }
}

/** @returns the body of `POST /v3/charges/{flw_ref}/capture` for `amount` minor units [PRE] */
export function buildCaptureBody(amount: number): FlutterwaveCaptureBody {
  return { amount: minorToMajor(amount) };
}

/** @returns the body of `POST /v3/transactions/{id}/refund` for `amount` minor units, noting our refund id in `comments` [REF] */
export function buildRefundBody(amount: number, refundId: string): FlutterwaveRefundBody {
  return { amount: minorToMajor(amount), comments: refundComment(refundId) };
}

/** The refund note `Refund <our refund id>` sent as `comments` (listed back as `comment`): how {@link ourFlutterwaveRefund} finds it. */
export function refundComment(refundId: string): string {
  return `Refund ${refundId}`;
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

/** What mapping a charge response needs to know about the request. */
export interface ChargeContext {
  request: Pick<AuthorizeRequest, 'amount' | 'currency' | 'paymentId' | 'captureMethod'>;
  type: FlutterwaveChargeType;
  /** The clock in epoch ms (expiry fallbacks). */
  now: number;
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
        ussd: { code: authorization.note, reference: data?.flw_ref ?? ctx.request.paymentId, expires_at: new Date(ctx.now + USSD_DISPLAY_VALIDITY_MS).toISOString() },
      };
    }
  }
}

/**
 * Maps the answer of `POST /v3/charges?type=…` [DC][SDK]:
 * - `data.status` through {@link FLUTTERWAVE_PAYMENT_STATUS} (preauth: {@link FLUTTERWAVE_PREAUTH_STATUS});
 *   `successful` → `Succeeded` with `amountCaptured` = `data.amount` in minor units (0 for a hold);
 *   `failed` → `Failed` with {@link declineOf};
 * - a pending charge, or an answer without `data` (bank transfer, Ghana MoMo, PIN/AVS requests),
 *   through `meta.authorization.mode` ({@link FLUTTERWAVE_AUTH_MODES}) into a next action; without a
 *   mode, M-Pesa waits on the STK push (`Processing` + `await_mobile_money_approval`).
 * `connectorTransactionId` is Flutterwave's numeric `data.id` as a string, or null when the answer has no `data`.
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
    if (status === 'Succeeded') return { status, connectorTransactionId, amountCaptured: majorToMinor(data.amount) };
    if (status === 'Failed') return { status, connectorTransactionId, amountCaptured: 0, ...declineOf(data) };
    if (status !== 'Processing' && status !== 'RequiresAction') return { status, connectorTransactionId, amountCaptured: 0 };
  }
  const mode = authorization?.mode?.toLowerCase();
  if (authorization && mode) {
    const outcome = Object.hasOwn(FLUTTERWAVE_AUTH_MODES, mode) ? FLUTTERWAVE_AUTH_MODES[mode] : undefined;
    if (outcome?.status === 'Failed') {
      return {
        status: 'Failed',
        connectorTransactionId,
        amountCaptured: 0,
        errorCode: 'unsupported_authorization_mode',
        errorMessage: `Flutterwave asks for card authorization mode '${mode}' (PIN, billing address or OTP), which this API does not collect.`,
      };
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
      nextAction: { type: 'await_mobile_money_approval', mobile_money: { message: 'Approve the M-Pesa prompt sent to your phone.', reference: data.flw_ref } },
    };
  }
  if (data?.status === 'success-pending-validation' && isUrl(data.auth_url)) {
    return { status: 'RequiresAction', connectorTransactionId, amountCaptured: 0, nextAction: { type: 'redirect_to_url', redirect_to_url: data.auth_url } };
  }
  return { status: 'Processing', connectorTransactionId, amountCaptured: 0 };
}

/** How a verified transaction is read. */
export interface TransactionContext {
  /** Whether the payment is a preauth (manual capture, or `charge_type: "preauth"`). */
  preauthorized: boolean;
  /** What `pending` means for this payment ({@link FLUTTERWAVE_PENDING_STATUS}). */
  pendingStatus: 'RequiresAction' | 'Processing';
}

/**
 * Maps a verified transaction (`GET /v3/transactions/{id}/verify`, `…/verify_by_reference`,
 * or a webhook's `data`) [VER]: the status tables, `amountCaptured` = `amount` in minor
 * units when `Succeeded`, the decline text when `Failed`; `pending` → `ctx.pendingStatus`
 * without a next action (the one authorize gave stays on the payment).
 */
export function paymentResultFromTransaction(tx: FlutterwaveTransaction, ctx: TransactionContext): PaymentResult {
  const connectorTransactionId = String(tx.id);
  const status = paymentStatusOf(tx.status, ctx.preauthorized);
  if (status === 'Succeeded') return { status, connectorTransactionId, amountCaptured: majorToMinor(tx.amount) };
  if (status === 'Failed') return { status, connectorTransactionId, amountCaptured: 0, ...declineOf(tx) };
  if (status === 'Processing') return { status: ctx.pendingStatus, connectorTransactionId, amountCaptured: 0 };
  return { status, connectorTransactionId, amountCaptured: 0 };
}

/**
 * Maps the answer of `POST /v3/charges/{flw_ref}/capture` [PRE]: `successful` → `Succeeded`
 * with `amountCaptured` = the amount we asked to capture (Flutterwave's `data.amount` may be the
 * authorized amount); otherwise the transaction status table.
 * @throws ConnectorRequestError when the envelope is an error
 */
export function paymentResultFromCapture(response: FlutterwaveResponse<FlutterwaveTransaction>, capturedAmount: number): PaymentResult {
  const tx = dataOf(response);
  const status = paymentStatusOf(tx.status, false);
  if (status === 'Succeeded') return { status, connectorTransactionId: String(tx.id), amountCaptured: capturedAmount };
  if (status === 'Failed') return { status, connectorTransactionId: String(tx.id), amountCaptured: 0, ...declineOf(tx) };
  return { status, connectorTransactionId: String(tx.id), amountCaptured: 0 };
}

/**
 * Maps a refund (`POST /v3/transactions/{id}/refund` or `GET /v3/refunds/{id}`) through
 * {@link FLUTTERWAVE_REFUND_STATUS}; `connectorRefundId` is the refund's own `id`.
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
    if (payload.event !== 'charge.completed' || !d || typeof d.id !== 'number' || typeof d.tx_ref !== 'string' || typeof d.status !== 'string') return undefined;
    return { event: payload.event, id: d.id, txRef: d.tx_ref, status: d.status, ...(d.charge_type ? { chargeType: d.charge_type } : {}) };
  }
  const legacyType = payload['event.type'];
  if (typeof legacyType === 'string' && /_TRANSACTION$/i.test(legacyType) && typeof payload.id === 'number' && typeof payload.txRef === 'string' && typeof payload.status === 'string') {
    return { event: legacyType, id: payload.id, txRef: payload.txRef, status: payload.status, ...(payload.charge_type ? { chargeType: payload.charge_type } : {}) };
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
