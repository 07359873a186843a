/**
 * Paystack wire types, request builders and status tables (Hyperswitch's
 * `transformers.rs` layout). Everything that knows Paystack's JSON lives here;
 * `paystack-connector.ts` only sends requests and calls these functions.
 *
 * Sources (read while writing this file):
 * - Charge API: https://paystack.com/docs/api/charge/ (POST /charge, GET /charge/:reference)
 * - Payment channels and how to handle `data.status` of the Charge API:
 *   https://paystack.com/docs/payments/payment-channels/ (cards, Pay with Transfer, USSD,
 *   mobile money, Pesalink) and the v1 guide https://docs-v1.paystack.com/docs/charging-from-your-backend
 *   (the list of charge statuses, including `timeout`)
 * - Response samples of those pages: github.com/PaystackOSS/doc-code-snippets
 *   (src/doc/payments/payment-methods/{pwt,ussd,mobile-mpesa,mobile-vodafone,pesalink,...}/index.json;
 *   the `card` object's shape from doc/payments/charge/request/index.json, a sample Paystack removed
 *   in commit 2c8a413d59a2 on 2023-05-23, read at its parent: see {@link buildCardCharge})
 * - Authentication steps: PaystackOSS/openapi [OAS] paths/charge_submit_{pin,otp,phone,birthday,address}.yaml
 *   and components/schemas/ChargeSubmit*.yaml (request bodies), paths/charge_{reference}.yaml ("Check
 *   pending charge": wait 10 s or more after `pending` or an exception on any /charge call); response
 *   samples [DCS] src/api/charges/{create,submit-pin,submit-otp,submit-phone,submit-birthday,submit-address,check}/response.json
 * - Wrong PIN/OTP: [DCS] submit-* `200_failed` samples (`data.status: failed` with `data.message`),
 *   https://docs-v2.paystack.com/api/errors/charge (too many incorrect OTPs: wait and retry; a wrong
 *   mobile-money OTP: "Show the error to the customer and ask for correct OTP") and the support article
 *   "Customer errors" https://support.paystack.com/hc/en-us/articles/360013597919 ("Incorrect PIN",
 *   "Incorrect Date of Birth": the transaction failed, the customer retries it)
 * - Transaction initialize / verify: https://paystack.com/docs/api/transaction/ and the status table of
 *   https://paystack.com/docs/payments/verify-payments/
 * - Refunds: https://paystack.com/docs/api/refund/ and the refund events of
 *   https://paystack.com/docs/payments/refunds/ (PaystackOSS/doc-code-snippets doc/payments/refunds/events.js)
 * - Webhooks: https://paystack.com/docs/payments/webhooks/ (x-paystack-signature, event list)
 * - Errors: https://paystack.com/docs/api/errors/ and https://docs-v2.paystack.com/api/errors/charge
 * - Hyperswitch's connector: juspay/hyperswitch crates/hyperswitch_connectors/src/connectors/paystack/transformers.rs
 *   (PaystackPSyncStatus → AttemptStatus, PaystackRefundStatus → RefundStatus, PaystackErrorResponse)
 * - [OAS] PaystackOSS/openapi at commit 9678dea922a900b2485969592055ccf634460352 (2025-10-24):
 *   src/assets/openapi/paths/transaction_verify_{reference}.yaml (`404` → components/responses/NotFound.yaml,
 *   `{status: false, message: "Entity not found"}`), paths/refund.yaml (List Refunds: `perPage` default 50,
 *   `page`, `from`, `to`), components/schemas/RefundCreate.yaml (`customer_note`, `merchant_note`),
 *   components/schemas/RefundListResponse.yaml and RefundListResponseArray.yaml (`transaction`,
 *   `transaction_reference`, `merchant_note`, `meta.pageCount`)
 * - [DCS] PaystackOSS/doc-code-snippets at commit 94af513d752dfc9f85dd0718301e7257091eb7f2:
 *   src/api/transactions/verify/index.php and src/api/refunds/list/index.php (`CURLOPT_TIMEOUT => 30`)
 * - Saved cards: the Recurring Charges page https://paystack.com/docs/payments/recurring-charges/
 *   (the `authorization` object, "This currently only works for card", the Two-Factor `paused` answer),
 *   the errors page https://paystack.com/docs/api/errors/ ("Authorization code does not exist or has been
 *   deactivated", "This authorization is not reusable", "You can only charge an authorization for the customer
 *   who saved it"); [OAS] paths/transaction_charge_authorization.yaml, paths/customer_authorization_deactivate.yaml,
 *   components/schemas/{TransactionChargeAuthorization,ChargeAuthorizationResponse,CustomerDeactivateAuthorization}.yaml;
 *   [DCS] src/api/transactions/charge_authorization/response.json, src/api/customers/deactivate-authorization/response.json,
 *   src/doc/payments/recurring-charges/{authorization,charge-authorization,two-factor,callback,sample-metadata}/index.json
 * - Disputes: the Manage Disputes guide https://paystack.com/docs/payments/manage-disputes/ ("should be handled
 *   within 16 hours"); [OAS] paths/dispute.yaml (the `status` enum), paths/dispute_{id}{,_evidence,_resolve,_upload_url}.yaml,
 *   components/schemas/{DisputeResolve,DisputeEvidence,DisputeFetchResponse,DisputeUploadURLResponse}.yaml; [DCS]
 *   src/api/disputes/{fetch,resolve,evidence,upload-url}/response.json, src/doc/payments/disputes/upload-url/index.js (PUT of
 *   the file's bytes to `signedUrl`), src/doc/payments/webhooks/events/charge-dispute-{create,remind,resolve}.json
 */

import type { CardDetails } from '../../domain/card';
import type { DisputeStage, DisputeStatus } from '../../domain/dispute-vocabulary';
import { type GhanaMobileNetwork, ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import type { Currency } from '../../domain/money';
import { type AuthenticationStep, authenticationAction, type NextAction, type PaymentMethod } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type RefundResult,
  type SavedCardDetails,
  type SavedMethodCharge,
  type SavedMethodToken,
} from '../connector';
import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';
import { PAYSTACK_USSD_BANKS, type PaystackUssdType } from './supported-methods';

/** The connector name used in results, errors, routing rules and `POST /webhooks/paystack`. */
export const PAYSTACK_CONNECTOR_NAME = 'paystack';

/* ------------------------------------------------------------------------------------------------
 * Supported (currency, method) matrix
 * --------------------------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------------------------------
 * Timeouts
 * --------------------------------------------------------------------------------------------- */

/**
 * Timeout of one Paystack call per operation, in milliseconds. No Paystack document states a
 * server-side timeout (none in PaystackOSS/openapi, doc-code-snippets or paystack-node), so:
 * - reads (verify, refund fetch/list, and `void`, which only verifies) use 30 000 ms, the
 *   `CURLOPT_TIMEOUT => 30` of Paystack's own PHP samples for those endpoints [DCS];
 * - writes whose timeout leaves an unknown outcome (`POST /charge`, `/transaction/initialize`,
 *   `/refund`; their samples set no timeout) get 60 000 ms: waiting longer turns fewer charges and
 *   refunds into unknown outcomes, and an online request is cut by its own 30 s budget anyway;
 * - `capture` never calls Paystack (no separate capture), it keeps the read value;
 * - the credential check (`GET /balance`) uses `CREDENTIAL_CHECK_TIMEOUT_MS` (10 s): a merchant waits on it, and
 *   the read changes nothing, so a shorter wait than the sample's 30 s costs only a retry (see that constant).
 * `CONNECTOR_TIMEOUT_MS` overrides all of them.
 */
export const PAYSTACK_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: 60_000,
  refund: 60_000,
  capture: 30_000,
  void: 30_000,
  sync: 30_000,
  syncRefund: 30_000,
  findRefund: 30_000,
  webhook: 30_000,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

/* ------------------------------------------------------------------------------------------------
 * Status tables: the one place where Paystack's statuses become ours
 * --------------------------------------------------------------------------------------------- */

/** Our payment statuses a connector may answer with. */
export type OurPaymentStatus = PaymentResult['status'];

/**
 * `data.status` values of the Charge API (POST /charge, GET /charge/:reference), from
 * https://paystack.com/docs/payments/payment-channels/ ("Handling Charge API responses"),
 * the v1 statuses list (https://docs-v1.paystack.com/docs/charging-from-your-backend: pending,
 * timeout, success, send_pin, send_phone, send_birthday, send_otp, open_url, failed),
 * `send_address` (POST /charge/submit_address), `pay_offline` (USSD, mobile money) and
 * `pending_bank_transfer` (Pay with Transfer and Pesalink samples).
 */
export const PAYSTACK_CHARGE_STATUSES = [
  'success',
  'failed',
  'timeout',
  'pending',
  'open_url',
  'pay_offline',
  'pending_bank_transfer',
  'send_pin',
  'send_otp',
  'send_phone',
  'send_birthday',
  'send_address',
] as const;

/** One of {@link PAYSTACK_CHARGE_STATUSES}. */
export type PaystackChargeStatus = (typeof PAYSTACK_CHARGE_STATUSES)[number];

/**
 * Charge API `data.status` → our payment status.
 *
 * - `success` → Succeeded (automatic capture: Paystack has no separate capture on the Charge API).
 * - `failed` → Failed; `timeout` → Failed ("no remedy, you may start a new charge", v1 guide).
 * - `pending` → Processing ("wait 10 seconds or more, then check", Check Pending Charge).
 * - `open_url` → RequiresAction: the payer completes 3-D Secure at `data.url`.
 * - `pay_offline` → RequiresAction: the payer dials the USSD code or approves the mobile-money
 *   prompt on their phone; the result arrives as `charge.success`.
 * - `pending_bank_transfer` → RequiresAction: the payer transfers to the temporary account.
 * - `send_pin`, `send_otp`, `send_phone`, `send_birthday`, `send_address` → RequiresAction with the
 *   authentication step of {@link PAYSTACK_STEP_OF_STATUS} (`submit_pin` … `submit_address`), answered
 *   through `POST /payments/{id}/authenticate` and relayed to POST /charge/submit_* ({@link PAYSTACK_SUBMIT_PATHS}).
 *   The same table maps the answer of every submit step, so a step may lead to another (PIN, then OTP).
 */
export const PAYSTACK_CHARGE_STATUS: Readonly<Record<PaystackChargeStatus, OurPaymentStatus>> = {
  success: 'Succeeded',
  failed: 'Failed',
  timeout: 'Failed',
  pending: 'Processing',
  open_url: 'RequiresAction',
  pay_offline: 'RequiresAction',
  pending_bank_transfer: 'RequiresAction',
  send_pin: 'RequiresAction',
  send_otp: 'RequiresAction',
  send_phone: 'RequiresAction',
  send_birthday: 'RequiresAction',
  send_address: 'RequiresAction',
};

/** The Charge API statuses that ask the payer for an input ({@link PAYSTACK_STEP_OF_STATUS}). */
export type PaystackStepStatus = 'send_pin' | 'send_otp' | 'send_phone' | 'send_birthday' | 'send_address';

/**
 * Charge status asking for an input → the authentication step our API exposes for it
 * (`next_action.type`, `AUTHENTICATION_STEPS` in shared/domain/payment.ts).
 */
export const PAYSTACK_STEP_OF_STATUS: Readonly<Record<PaystackStepStatus, AuthenticationStep>> = {
  send_pin: 'submit_pin',
  send_otp: 'submit_otp',
  send_phone: 'submit_phone',
  send_birthday: 'submit_birthday',
  send_address: 'submit_address',
};

/**
 * Authentication step → the Paystack endpoint that takes its answer ([OAS] paths/charge_submit_*.yaml,
 * mounted at these paths by src/assets/openapi/openapi.yaml).
 */
export const PAYSTACK_SUBMIT_PATHS: Readonly<Record<AuthenticationStep, string>> = {
  submit_pin: '/charge/submit_pin',
  submit_otp: '/charge/submit_otp',
  submit_phone: '/charge/submit_phone',
  submit_birthday: '/charge/submit_birthday',
  submit_address: '/charge/submit_address',
};

/**
 * Transaction statuses (GET /transaction/verify/:reference and the `charge.success` webhook's
 * `data.status`), with their meaning from https://paystack.com/docs/payments/verify-payments/.
 */
export const PAYSTACK_TRANSACTION_STATUSES = [
  'success',
  'failed',
  'abandoned',
  'ongoing',
  'pending',
  'processing',
  'queued',
  'reversed',
] as const;

/** One of {@link PAYSTACK_TRANSACTION_STATUSES}. */
export type PaystackTransactionStatus = (typeof PAYSTACK_TRANSACTION_STATUSES)[number];

/**
 * Transaction status → our payment status (Hyperswitch's `PaystackPSyncStatus` mapping, adjusted
 * to the meanings on the verify-payments page):
 * - `success` → Succeeded; `failed` → Failed;
 * - `abandoned` ("the customer has not completed the transaction") and `ongoing` ("waiting on the
 *   customer to enter an otp or to make a transfer") → RequiresAction: the payer still has to act;
 * - `pending`, `processing` (direct debit), `queued` (bulk charges) → Processing;
 * - `reversed` ("refunded, or a chargeback was logged") → Cancelled (Hyperswitch: Voided): no money
 *   is kept on this payment.
 */
export const PAYSTACK_TRANSACTION_STATUS: Readonly<Record<PaystackTransactionStatus, OurPaymentStatus>> = {
  success: 'Succeeded',
  failed: 'Failed',
  abandoned: 'RequiresAction',
  ongoing: 'RequiresAction',
  pending: 'Processing',
  processing: 'Processing',
  queued: 'Processing',
  reversed: 'Cancelled',
};

/**
 * Refund statuses (POST /refund, GET /refund/:id, refund.* webhooks), from
 * https://paystack.com/docs/api/refund/ and https://paystack.com/docs/payments/refunds/.
 */
export const PAYSTACK_REFUND_STATUSES = ['pending', 'processing', 'processed', 'failed', 'needs-attention'] as const;

/** One of {@link PAYSTACK_REFUND_STATUSES}. */
export type PaystackRefundStatus = (typeof PAYSTACK_REFUND_STATUSES)[number];

/** errorCode of a refund Paystack holds in `needs-attention` (still `Pending`; an operator must act). */
export const PAYSTACK_REFUND_NEEDS_ATTENTION_CODE = 'refund_needs_attention';

/**
 * Refund status → ours (Hyperswitch's `PaystackRefundStatus` mapping plus `needs-attention`):
 * `processed` → Succeeded; `failed` → Failed ("your account will be credited with refund amount");
 * `pending`, `processing` → Pending; `needs-attention` → Pending with errorCode
 * {@link PAYSTACK_REFUND_NEEDS_ATTENTION_CODE} (Paystack could not pay the customer back
 * automatically; an operator retries it with the customer's bank details — [OAS]
 * paths/refund_retry_with_customer_details_{id}.yaml "Retry a refund with a `needs-attention` status" —
 * so the refund is neither done nor failed; the `refund.needs-attention` event is [DCS]
 * src/doc/payments/refunds/events/refund-needs-attention.json). These five are every refund status
 * Paystack's material names ([DCS] refunds/events/*.json, [OAS] refund retry).
 */
export const PAYSTACK_REFUND_STATUS: Readonly<Record<PaystackRefundStatus, RefundStatus>> = {
  pending: 'Pending',
  processing: 'Pending',
  processed: 'Succeeded',
  failed: 'Failed',
  'needs-attention': 'Pending',
};

/* ------------------------------------------------------------------------------------------------
 * Wire types
 * --------------------------------------------------------------------------------------------- */

/** Every Paystack answer: `{status, message, data}` (https://paystack.com/docs/api/ "Requests and Response"). */
export interface PaystackEnvelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/**
 * A Paystack error body: `{status: false, message}` and, on newer endpoints, `type`, `code`
 * and `meta.nextStep` (e.g. `{"type": "validation_error", "code": "invalid_params"}`);
 * Hyperswitch's `PaystackErrorResponse` also reads `data.message`.
 */
export interface PaystackErrorBody {
  status?: boolean;
  message?: string;
  code?: string;
  type?: string;
  meta?: { nextStep?: string } | null;
  data?: unknown;
}

/**
 * The `card` object of POST /charge. Not in Paystack's current schema ([OAS]
 * components/schemas/ChargeCreate.yaml has no `card`): it is a documented exception, taken for
 * integrations Paystack has approved to send card data ("If you are PCI-DSS certified and would like
 * to be able to send cardholder information directly to our APIs from your servers, reach out to us",
 * https://paystack.com/docs/payments/payment-channels/ "Cards"; the Charge errors page still lists
 * "card object" among the instruments a charge takes, https://docs-v2.paystack.com/api/errors/charge).
 * Its shape is Paystack's former request sample ([DCS] doc/payments/charge/request/index.json, removed
 * in commit 2c8a413d59a2d5f5b28450ab66bc617999c73384, read at its parent a0ac6a3dea0071749e394caf201a19a543c18217): `number`,
 * `cvv`, `expiry_month`, `expiry_year`, all strings. See docs/connectors/paystack.md "Card details".
 */
export interface PaystackCard {
  number: string;
  cvv: string;
  /** Two digits, e.g. `"01"`. */
  expiry_month: string;
  /** Two digits, e.g. `"99"` (the documented sample's form). */
  expiry_year: string;
}

/**
 * Fields common to every POST /charge body. `amount` is an integer of subunits (kobo, pesewas,
 * cents): [OAS] ChargeCreate `amount: integer` (some older samples send a digit string). `currency`
 * is not in [OAS] ChargeCreate but is in Paystack's own Charge API samples ([DCS]
 * src/doc/payments/payment-methods/mobile/index.sh, mobile-charge/index.json; the Payment Channels page's
 * sample payload) and is needed for every non-default currency.
 */
interface PaystackChargeBase {
  email: string;
  amount: number;
  currency: Currency;
  reference: string;
}

/** POST /charge body, one payment instrument per request. */
export type PaystackChargeRequest =
  | (PaystackChargeBase & { card: PaystackCard })
  | (PaystackChargeBase & { bank_transfer: { account_expires_at: string } })
  | (PaystackChargeBase & { ussd: { type: PaystackUssdType } })
  | (PaystackChargeBase & { mobile_money: { phone: string; provider: PaystackMobileMoneyProvider } });

/** POST /transaction/initialize body (hosted checkout; [OAS] TransactionInitialize). `amount` is an integer of subunits. */
export interface PaystackInitializeRequest {
  email: string;
  amount: number;
  currency: Currency;
  reference: string;
  callback_url: string;
  channels: ['card'];
}

/** `data` of POST /transaction/initialize. */
export interface PaystackInitializeData {
  authorization_url: string;
  access_code: string;
  reference: string;
}

/**
 * `data` of POST /charge, GET /charge/:reference and the submit_* endpoints. Which fields are
 * present depends on `status`: `url` with `open_url`; `display_text` and `ussd_code` with
 * `pay_offline`; the account fields with `pending_bank_transfer`; the full transaction with
 * `success`/`failed`. `amount` is in subunits.
 */
export interface PaystackChargeData {
  reference: string;
  status: string;
  id?: number;
  amount?: number;
  currency?: string;
  display_text?: string;
  url?: string;
  ussd_code?: string;
  gateway_response?: string | null;
  message?: string | null;
  channel?: string;
  account_name?: string;
  account_number?: string;
  bank?: { name: string; slug?: string; id?: number };
  account_expires_at?: string;
  /** Pesalink: the narration the payer must use. */
  transaction_reference?: string;
  /** `send_address` answers: the card's country (ISO 3166-1 alpha-2), [DCS] charges/create `200_address`. */
  country_code?: string;
  /** A `success`/`failed` charge: the payment instrument (see {@link PaystackAuthorization}); a reusable one is a saved method. */
  authorization?: PaystackAuthorization | null;
  /** A `success`/`failed` charge: the Paystack customer the e-mail belongs to ({@link PaystackCustomer}). */
  customer?: PaystackCustomer | null;
  /**
   * POST /transaction/charge_authorization on a challenged card (Two-Factor Authentication): `true`, with
   * `authorization_url` where the payer completes the challenge and no `status` ([DCS]
   * src/doc/payments/recurring-charges/two-factor/index.json; https://paystack.com/docs/payments/recurring-charges/).
   */
  paused?: boolean;
  /** With {@link paused}: the checkout URL of the challenge (`https://checkout.paystack.com/resume/<access code>`). */
  authorization_url?: string;
}

/**
 * The bodies of the submit endpoints, each with the charge `reference` ([OAS]
 * components/schemas/ChargeSubmitPin|OTP|Phone|Birthday|Address.yaml, all fields required, all strings;
 * `birthday` is `format: date`, YYYY-MM-DD).
 */
export type PaystackSubmitRequest =
  | { pin: string; reference: string }
  | { otp: string; reference: string }
  | { phone: string; reference: string }
  | { birthday: string; reference: string }
  | { address: string; city: string; state: string; zip_code: string; reference: string };

/** `data` of GET /transaction/verify/:reference and of the `charge.success` event. `amount` in subunits. */
export interface PaystackTransactionData {
  id: number;
  reference: string;
  status: string;
  amount: number;
  currency: string;
  gateway_response?: string | null;
  message?: string | null;
  channel?: string;
  /** The payment instrument ({@link PaystackAuthorization}); a reusable one is a saved method. */
  authorization?: PaystackAuthorization | null;
  /** The Paystack customer of the transaction ({@link PaystackCustomer}). */
  customer?: PaystackCustomer | null;
}

/**
 * The `authorization` object of a transaction (verify, `charge.success`, the Charge API's `success`
 * answers, POST /transaction/charge_authorization): [OAS] components/schemas/ChargeAuthorizationResponse.yaml
 * and VerifyResponse.yaml, every field a string except `reusable` (boolean) — `exp_month` "12",
 * `exp_year` "2030", `bin` "408408" ([DCS] src/api/transactions/verify/response.json and
 * src/api/transactions/charge_authorization/response.json; the Recurring Charges page,
 * https://paystack.com/docs/payments/recurring-charges/, [DCS] src/doc/payments/recurring-charges/authorization/index.json).
 * `authorization_code` charges the instrument again (POST /transaction/charge_authorization) when `reusable`
 * is true; `signature` is the same for every authorization of one card. Typed loosely: it comes from
 * webhooks too, and {@link paystackSavedMethod} checks every field before it uses it.
 */
export interface PaystackAuthorization {
  authorization_code?: string | null;
  bin?: string | null;
  last4?: string | null;
  exp_month?: string | number | null;
  exp_year?: string | number | null;
  channel?: string | null;
  card_type?: string | null;
  bank?: string | null;
  country_code?: string | null;
  brand?: string | null;
  reusable?: boolean | null;
  signature?: string | null;
  account_name?: string | null;
}

/** The `customer` object of a transaction ([OAS] ChargeAuthorizationResponse.yaml `data.customer`): `customer_code` `CUS_…`, `email`. */
export interface PaystackCustomer {
  id?: number;
  email?: string | null;
  customer_code?: string | null;
}

/**
 * POST /transaction/charge_authorization body ([OAS] components/schemas/TransactionChargeAuthorization.yaml:
 * `email`, `amount` integer of subunits and `authorization_code` required; `reference`, `currency`,
 * `metadata` — "Stringified JSON object of custom data" — optional), plus `callback_url`, a documented
 * exception: where Paystack sends the payer back after a Two-Factor challenge ([DCS]
 * src/doc/payments/recurring-charges/callback/index.json, the Recurring Charges page's 2FA section).
 */
export interface PaystackChargeAuthorizationRequest {
  email: string;
  amount: number;
  authorization_code: string;
  reference: string;
  currency: Currency;
  /** `JSON.stringify` of {@link PaystackChargeAuthorizationMetadata}. */
  metadata: string;
  callback_url: string;
}

/**
 * What the `metadata` of a charge_authorization carries (stringified): our payment id, and `cancel_action`,
 * the URL Paystack sends a payer who cancels a Two-Factor challenge to ([DCS]
 * src/doc/payments/recurring-charges/sample-metadata/index.json, which shows it as an object; the schema
 * asks for a string, which is what is sent).
 */
export interface PaystackChargeAuthorizationMetadata {
  switchyard_payment_id: string;
  cancel_action: string;
}

/** POST /customer/authorization/deactivate body ([OAS] components/schemas/CustomerDeactivateAuthorization.yaml). */
export interface PaystackDeactivateAuthorizationRequest {
  authorization_code: string;
}

/** POST /refund body. `amount` is an integer of subunits; `transaction` takes a reference or an id. */
export interface PaystackRefundRequest {
  transaction: string;
  amount: number;
  currency: Currency;
  merchant_note: string;
}

/** `data` of POST /refund, GET /refund/:id and the items of GET /refund. `amount` in subunits. */
export interface PaystackRefundData {
  id: number;
  status: string;
  amount: number;
  currency: string;
  /** An id (fetch, list) or the transaction object (create). */
  transaction?: number | { id: number; reference: string };
  /** List items [OAS RefundListResponseArray]: the refunded transaction's reference. */
  transaction_reference?: string | null;
  /** The note sent with POST /refund: ours is {@link refundMerchantNote}. */
  merchant_note?: string | null;
  customer_note?: string | null;
  /** Fetch answers [OAS RefundFetchResponse]: Paystack's note on the refund's state (e.g. `PROCESSING`). */
  reason?: string | null;
}

/** `meta` of GET /refund [OAS RefundListResponse]: `pageCount` pages of `perPage` refunds. */
export interface PaystackListMeta {
  total?: number;
  skipped?: number;
  perPage?: number | string;
  page?: number;
  pageCount?: number;
}

/** GET /refund: the envelope with a list and its `meta`. */
export interface PaystackRefundList extends PaystackEnvelope<PaystackRefundData[]> {
  meta?: PaystackListMeta | null;
}

/**
 * `data` of the refund.pending / refund.processing / refund.processed / refund.failed events
 * (doc/payments/refunds/events.js): no refund id in the documented samples (Hyperswitch reads an
 * `id` when present), `amount` sometimes a string.
 */
export interface PaystackRefundEventData {
  status: string;
  transaction_reference: string;
  refund_reference: string | null;
  amount: number | string;
  currency: string;
  /** Present in the `refund.needs-attention` sample ([DCS] refunds/events/refund-needs-attention.json). */
  id?: number | string;
  merchant_note?: string | null;
  /** Not in the samples; read when present as Paystack's explanation of the refund's state. */
  reason?: string | null;
  message?: string | null;
}

/* ------------------------------------------------------------------------------------------------
 * Amounts and references
 * --------------------------------------------------------------------------------------------- */

/**
 * Minor units → Paystack's wire unit. Paystack amounts are "in the subunit of the supported
 * currency" (kobo, pesewas, cents; Charge and Refund API references) and all five of our
 * currencies have two decimals, so the subunit IS our minor unit: the value is checked, not scaled.
 * @param minor a non-negative safe integer
 * @throws RangeError when `minor` is not a non-negative safe integer
 */
export function toPaystackAmount(minor: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError('Amounts are non-negative integers in minor units.');
  return minor;
}

/**
 * Paystack's wire amount (a number, or a digit string in some events) → minor units.
 * @returns the integer, or null when the value is not a non-negative integer
 */
export function fromPaystackAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}

/**
 * Our payment id → the Paystack `reference`. Paystack allows only `-`, `.`, `=` and
 * alphanumerics in a reference (Charge API `reference`), our ids are `pay_<hex>`, so `_` becomes `-`
 * (`pay_3f2b…` → `pay-3f2b…`). The mapping is deterministic, so a sync can find a payment whose
 * authorize timed out without knowing anything Paystack returned.
 */
export function paystackReference(paymentId: string): string {
  return paymentId.replace(/_/g, '-');
}

/**
 * The Paystack `reference` → our payment id, the inverse of {@link paystackReference}.
 * @returns `pay_<id>`, or null for a reference this service did not create (`pay-` followed by alphanumerics)
 */
export function paymentIdFromReference(reference: string): string | null {
  const match = /^pay-([A-Za-z0-9]{1,64})$/.exec(reference);
  return match ? `pay_${match[1]}` : null;
}

/* ------------------------------------------------------------------------------------------------
 * Errors
 * --------------------------------------------------------------------------------------------- */

/** Lower-case snake_case slug of a Paystack message (`"Invalid key"` → `invalid_key`), at most 64 chars. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/**
 * Maps a Paystack 4xx body to `{code, message}` for `connectorFetch`'s `errorOf`: `code` is the
 * body's `code` when present (e.g. `invalid_params`), else the slug of `message`
 * (`"Transaction reference not found"` → `transaction_reference_not_found`), else `http_<status>`;
 * `message` prefers `data.message` (as Hyperswitch's `get_error_message`), then `message`.
 * The secret key never appears: Paystack's bodies do not echo it and nothing here adds it.
 */
export function paystackErrorOf(status: number, body: unknown): { code: string; message: string } {
  const b = (body ?? {}) as PaystackErrorBody;
  const dataMessage =
    b.data && typeof b.data === 'object' && typeof (b.data as { message?: unknown }).message === 'string'
      ? (b.data as { message: string }).message
      : undefined;
  const message = dataMessage || b.message || `Paystack refused the request (HTTP ${status}).`;
  const code = (typeof b.code === 'string' && b.code) || (b.message ? slug(b.message) : '') || `http_${status}`;
  return { code, message };
}

/* ------------------------------------------------------------------------------------------------
 * Credential check
 * --------------------------------------------------------------------------------------------- */

/**
 * The read of the credential check: Fetch Balance, `GET /balance` ("Check Balance" of the Transfers Control API,
 * https://paystack.com/docs/api/transfer-control/; PaystackOSS/openapi commit 9678dea922a9
 * `src/assets/openapi/openapi.yaml` mounts `/balance` on `paths/balance.yaml`: "Fetch the available balance on your
 * integration", `200` `BalanceCheckResponse`, `401` `Unauthorized`). No parameters, changes nothing.
 */
export const PAYSTACK_BALANCE_PATH = '/balance';

/**
 * Whether a body is the `200` answer of `GET /balance`: `BalanceCheckResponse` of PaystackOSS/openapi (commit
 * 9678dea922a9, `components/schemas/BalanceCheckResponse.yaml`: `status` boolean, `message`, `data` an array of
 * `{currency, balance}`; required all three), with `status: true` as in Paystack's sample
 * (PaystackOSS/doc-code-snippets commit 94af513d752d, `src/api/transfers-control/balance/response.json`).
 */
export function isPaystackBalanceResponse(body: unknown): boolean {
  const b = body as { status?: unknown; data?: unknown } | null;
  return !!b && typeof b === 'object' && b.status === true && Array.isArray(b.data);
}

/**
 * Whether a 4xx answer is Paystack saying the secret key is not valid: its `Unauthorized` body
 * `{"status": false, "message": "Invalid key"}` (PaystackOSS/openapi commit 9678dea922a9,
 * `components/responses/Unauthorized.yaml`, answered with 401 by every path, `/balance` included), recognised
 * by its message whatever the status (case-insensitive, trailing period ignored).
 */
export function isInvalidKeyAnswer(status: number, body: unknown): boolean {
  if (status < 400 || status >= 500) return false;
  const b = body as PaystackErrorBody | null;
  if (!b || typeof b !== 'object' || b.status !== false || typeof b.message !== 'string') return false;
  return b.message.trim().replace(/\.$/, '').toLowerCase() === 'invalid key';
}

/**
 * Messages with which Paystack says a transaction reference does not exist at GET
 * /transaction/verify/:reference: `Entity not found` (the documented 404 body [OAS]
 * components/responses/NotFound.yaml) and `Transaction reference not found` (the 400 body
 * Paystack's live API answers for an unknown reference; not in PaystackOSS material — recorded from
 * public integrations, e.g. the paystack-gateway gem's `transaction_not_found?`). Compared
 * case-insensitively, trailing period ignored.
 */
export const PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES: readonly string[] = ['entity not found', 'transaction reference not found'];

/**
 * Whether an error answer of GET /transaction/verify/:reference says the reference is unknown to
 * Paystack: HTTP 404 or 400 with Paystack's JSON error body (`status: false`) and one of
 * {@link PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES}. Anything else (a proxy's 404 page, another
 * message, a 5xx) is not a "not found" answer.
 */
export function isReferenceNotFound(status: number, body: unknown): boolean {
  if (status !== 404 && status !== 400) return false;
  const b = body as PaystackErrorBody | null;
  if (!b || typeof b !== 'object' || b.status !== false || typeof b.message !== 'string') return false;
  const message = b.message.trim().replace(/\.$/, '').toLowerCase();
  return PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES.includes(message);
}

/**
 * How long after a payment's creation a reference Paystack does not know may still appear: 15
 * minutes. Paystack documents no propagation window for verify, but an authorize whose answer we
 * lost (a `POST /charge` waiting on the issuer or bank) may still be creating the transaction; our
 * own call gives up after {@link PAYSTACK_TIMEOUTS_MS}.authorize (60 s). Before the window, not found
 * is `Processing`; after it, `Failed` with `notFound: true`.
 */
export const PAYSTACK_NOT_FOUND_SETTLE_MS = 15 * 60 * 1000;

/**
 * How long after our refund record was written (just before POST /refund) a refund absent from the
 * transaction's refund list may still appear: 10 minutes. Paystack documents no delay for List
 * Refunds; the window covers a refund request still executing after our call gave up (60 s).
 */
export const PAYSTACK_REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/** `perPage` of the refund lookup's GET /refund (Paystack's documented default [OAS]). */
export const PAYSTACK_REFUND_LIST_PER_PAGE = 50;

/** Pages of GET /refund read for one lookup before giving up (non-authoritative: throws). */
export const PAYSTACK_REFUND_LIST_MAX_PAGES = 20;

/**
 * Margin subtracted from our refund record's time for the lookup's `from`, covering clock skew
 * between us and Paystack: 1 hour.
 */
export const PAYSTACK_REFUND_LIST_FROM_MARGIN_MS = 60 * 60 * 1000;

/**
 * The query of the refund lookup's GET /refund:
 * - `transaction` = the transaction's numeric id: the filter this adapter's webhook lookup already
 *   uses. PaystackOSS/openapi [OAS] documents only `perPage`, `page`, `from` and `to` for List
 *   Refunds (older SDKs built on Paystack's earlier reference list `reference` and `currency`), so
 *   the filter may be ignored: every listed refund is also checked client-side
 *   ({@link ourPaystackRefund}) and every page is read, which keeps the answer authoritative;
 * - `from` = our refund record's time minus {@link PAYSTACK_REFUND_LIST_FROM_MARGIN_MS} (ISO 8601,
 *   documented [OAS]): our refund cannot be older, and it bounds the listing if the filter is ignored;
 * - `perPage` ({@link PAYSTACK_REFUND_LIST_PER_PAGE}) and `page` (1-based).
 * @param createdAt ISO 8601 UTC time our refund record was written
 */
export function refundListQuery(transactionId: number, createdAt: string, page: number): URLSearchParams {
  const createdMs = Date.parse(createdAt);
  const query = new URLSearchParams([['transaction', String(transactionId)]]);
  if (Number.isFinite(createdMs)) query.append('from', new Date(createdMs - PAYSTACK_REFUND_LIST_FROM_MARGIN_MS).toISOString());
  query.append('perPage', String(PAYSTACK_REFUND_LIST_PER_PAGE));
  query.append('page', String(page));
  return query;
}

/**
 * Whether another page of GET /refund must be read after `page`: `meta.pageCount` when Paystack
 * gives it; without it, a full page (`perPage` items) may have a successor.
 */
export function hasMoreRefundPages(list: PaystackRefundList, page: number): boolean {
  const pageCount = list.meta?.pageCount;
  if (typeof pageCount === 'number' && Number.isFinite(pageCount)) return page < pageCount;
  return (list.data ?? []).length >= PAYSTACK_REFUND_LIST_PER_PAGE;
}

/** Whether a listed refund is for this transaction (by id or reference); true when it says nothing about it. */
function refundConcerns(refund: PaystackRefundData, transaction: { id: number; reference: string }): boolean {
  const t = refund.transaction;
  if (typeof t === 'number') return t === transaction.id;
  if (t && typeof t === 'object' && typeof t.id === 'number') return t.id === transaction.id;
  if (typeof refund.transaction_reference === 'string' && refund.transaction_reference)
    return refund.transaction_reference === transaction.reference;
  return true;
}

/**
 * Picks our refund among a transaction's refunds (GET /refund). POST /refund carries our refund id in
 * `merchant_note` ({@link refundMerchantNote}; [OAS] RefundCreate) and the list returns it, so the
 * match is on that note. Rules:
 * - refunds of another transaction (the `transaction` filter ignored) are skipped;
 * - exactly one refund with our note → it (its amount and currency must be ours);
 * - several with our note → ambiguous;
 * - none with our note, but one of our amount and currency carries no `merchant_note` at all →
 *   ambiguous (it may be ours with the note dropped);
 * - otherwise → none.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous or when the refund with our note has another amount
 *   or currency: nothing is settled automatically, the caller retries later or an operator looks
 */
export function ourPaystackRefund(
  refunds: readonly PaystackRefundData[],
  transaction: { id: number; reference: string },
  ours: { refundId: string; amount: number; currency: Currency },
): PaystackRefundData | null {
  const concerned = refunds.filter((r) => refundConcerns(r, transaction));
  const note = refundMerchantNote(ours.refundId);
  const matches = concerned.filter((r) => typeof r.merchant_note === 'string' && r.merchant_note.trim() === note);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      PAYSTACK_CONNECTOR_NAME,
      `Paystack lists ${matches.length} refunds noted "${note}" on transaction ${transaction.id}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (match) {
    if (fromPaystackAmount(match.amount) !== ours.amount || match.currency !== ours.currency) {
      throw new ConnectorTechnicalError(
        PAYSTACK_CONNECTOR_NAME,
        `Paystack refund ${match.id} is noted "${note}" but is ${String(match.amount)} ${match.currency}, not ${ours.amount} ${ours.currency}.`,
      );
    }
    return match;
  }
  const unnoted = concerned.filter(
    (r) =>
      (r.merchant_note === undefined || r.merchant_note === null || r.merchant_note.trim() === '') &&
      fromPaystackAmount(r.amount) === ours.amount &&
      r.currency === ours.currency,
  );
  if (unnoted.length > 0) {
    throw new ConnectorTechnicalError(
      PAYSTACK_CONNECTOR_NAME,
      `Paystack lists ${unnoted.length} refund(s) of ${ours.amount} ${ours.currency} on transaction ${transaction.id} without a merchant note; refund ${ours.refundId} cannot be told apart.`,
    );
  }
  return null;
}

/**
 * A 4xx body that still describes a declined charge (`data.status` = `failed` with a reference):
 * a business outcome, answered as a Failed result rather than an exception.
 * @returns the charge data, or null for any other error body
 */
export function declinedChargeOf(body: unknown): PaystackChargeData | null {
  const data = (body as { data?: unknown } | null)?.data as PaystackChargeData | undefined;
  if (data && typeof data === 'object' && data.status === 'failed' && typeof data.reference === 'string') return data;
  return null;
}

/**
 * A 4xx body of a submit step that still describes the charge: `data.status` is one of
 * {@link PAYSTACK_CHARGE_STATUSES} (e.g. `failed` after a wrong PIN, or `send_otp` again when Paystack
 * keeps the step open), with or without a reference (the birthday step's `send_otp` sample has none).
 * @returns the charge data, or null for a plain error body (`{status: false, message}`)
 */
export function chargeDataOfErrorBody(body: unknown): PaystackChargeData | null {
  const data = (body as { data?: unknown } | null)?.data as PaystackChargeData | undefined;
  if (!data || typeof data !== 'object' || typeof data.status !== 'string') return null;
  return isKey(PAYSTACK_CHARGE_STATUS, data.status) ? data : null;
}

/* ------------------------------------------------------------------------------------------------
 * Request builders
 * --------------------------------------------------------------------------------------------- */

/** What every request builder needs besides the method-specific part. */
function chargeBase(request: AuthorizeRequest, email: string): PaystackChargeBase {
  return {
    email,
    amount: toPaystackAmount(request.amount),
    currency: request.currency,
    reference: paystackReference(request.paymentId),
  };
}

/**
 * POST /charge with a `card` object ({@link PaystackCard}: number, cvv, expiry_month, expiry_year as
 * strings, the year in two digits as in Paystack's sample `"99"`). A documented exception to Paystack's
 * current schema, for integrations Paystack approved for card data (PCI-DSS); an integration that is
 * not approved gets a 4xx → ConnectorRequestError. The PAN and CVC only live in the returned object,
 * which the caller serializes once and drops; never log it.
 */
export function buildCardCharge(request: AuthorizeRequest, email: string, card: CardDetails): PaystackChargeRequest {
  const year = card.card_exp_year.length === 4 ? card.card_exp_year.slice(2) : card.card_exp_year.padStart(2, '0');
  return {
    ...chargeBase(request, email),
    card: {
      number: card.card_number,
      cvv: card.card_cvc,
      expiry_month: card.card_exp_month.padStart(2, '0'),
      expiry_year: year,
    },
  };
}

/**
 * POST /transaction/initialize for a card payment without card details: Paystack's hosted
 * checkout limited to cards, returning the payer to `returnUrl` (Initialize Transaction:
 * email, amount, currency, reference, callback_url, channels).
 */
export function buildCardCheckout(request: AuthorizeRequest, email: string): PaystackInitializeRequest {
  return { ...chargeBase(request, email), callback_url: request.returnUrl, channels: ['card'] };
}

/** Bounds of `bank_transfer.account_expires_at`, in minutes from now, per currency. */
export const BANK_TRANSFER_EXPIRY_BOUNDS: Readonly<Partial<Record<Currency, { min: number; max: number }>>> = {
  /** Pay with Transfer: "Minimum is 15 minutes from now; maximum is 8 hours." */
  NGN: { min: 15, max: 8 * 60 },
  /** Pesalink: "less than 25 minutes from now", the account "is valid for 25 minutes". */
  KES: { min: 1, max: 24 },
};

/**
 * POST /charge with `bank_transfer.account_expires_at` (Pay with Transfer, NGN; Pesalink, KES).
 * @param expiryMinutes wanted validity, clamped to {@link BANK_TRANSFER_EXPIRY_BOUNDS}
 * @param now the current instant (injected for tests)
 */
export function buildBankTransferCharge(request: AuthorizeRequest, email: string, expiryMinutes: number, now: Date): PaystackChargeRequest {
  const bounds = BANK_TRANSFER_EXPIRY_BOUNDS[request.currency] ?? { min: 15, max: 8 * 60 };
  const minutes = Math.min(bounds.max, Math.max(bounds.min, Math.floor(expiryMinutes)));
  const expiresAt = new Date(now.getTime() + minutes * 60_000).toISOString();
  return { ...chargeBase(request, email), bank_transfer: { account_expires_at: expiresAt } };
}

/**
 * POST /charge with `ussd.type` = the payer's bank's code in {@link PAYSTACK_USSD_BANKS} ([OAS]
 * components/schemas/USSD.yaml enum 737/919/822/966).
 * @throws ConnectorRequestError `ussd_bank_required` without `request.ussdBankCode`, `ussd_bank_not_supported`
 *   for a bank Paystack does not serve (the message names the allowed CBN codes) — nothing is sent then
 */
export function buildUssdCharge(request: AuthorizeRequest, email: string): PaystackChargeRequest {
  return { ...chargeBase(request, email), ussd: { type: paystackUssdType(request.ussdBankCode) } };
}

/**
 * The Paystack USSD `type` of a payer's bank.
 * @param ussdBankCode CBN bank code (e.g. `058`)
 * @throws ConnectorRequestError `ussd_bank_required` / `ussd_bank_not_supported` (see {@link buildUssdCharge})
 */
export function paystackUssdType(ussdBankCode: string | undefined): PaystackUssdType {
  const allowed = Object.keys(PAYSTACK_USSD_BANKS).sort().join(', ');
  if (!ussdBankCode)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'ussd_bank_required',
      `A USSD payment through Paystack needs the payer's bank (one of ${allowed}).`,
    );
  if (!Object.hasOwn(PAYSTACK_USSD_BANKS, ussdBankCode)) {
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'ussd_bank_not_supported',
      `Paystack offers USSD only for the banks ${allowed}.`,
    );
  }
  return PAYSTACK_USSD_BANKS[ussdBankCode] as PaystackUssdType;
}

/**
 * Mobile-money `provider` codes of the Charge API for our currencies, as Paystack's charge samples
 * write them ([DCS] src/doc/payments/payment-methods/mobile/index.sh and mobile-charge/index.json:
 * `"provider": "mtn"`; the List Banks answer for `type=mobile_money` gives the same codes in upper
 * case, `MTN`/`ATL`/`VOD`, [DCS] src/doc/transfers/recipients/list-telcos/index.json; the openapi says
 * the provider "can be fetched from the List Bank endpoint", [OAS] components/schemas/MobileMoney.yaml).
 * See {@link PAYSTACK_MOBILE_MONEY_PROVIDERS}.
 */
export type PaystackMobileMoneyProvider = 'mtn' | 'atl' | 'vod' | 'mpesa';

/**
 * The networks behind each provider code, for documentation and display:
 * - `mtn` MTN Mobile Money (Ghana);
 * - `atl` AT Money, formerly AirtelTigo Money (Ghana; still "AirtelTigo" in Paystack's List Banks sample);
 * - `vod` Telecel Cash, formerly Vodafone Cash (Ghana; "Vodafone" in the List Banks sample). A Telecel
 *   charge answers `send_otp` with "Please dial *110# to generate a voucher code. Then input the
 *   voucher" ([DCS] src/doc/payments/payment-methods/mobile-vodafone/index.json): the voucher is the OTP
 *   of the `submit_otp` step;
 * - `mpesa` M-PESA (Kenya, STK push).
 */
export const PAYSTACK_MOBILE_MONEY_PROVIDERS: Readonly<Record<PaystackMobileMoneyProvider, string>> = {
  mtn: 'MTN Mobile Money',
  atl: 'AT Money (formerly AirtelTigo Money)',
  vod: 'Telecel Cash (formerly Vodafone Cash)',
  mpesa: 'M-PESA',
};

/** Ghana's networks (`shared/domain/ghana-mobile-networks.ts`) → Paystack provider: MTN `mtn`, Telecel (ex-Vodafone) `vod`, AT (ex-AirtelTigo) `atl`. */
export const PAYSTACK_GHANA_PROVIDERS: Readonly<Record<GhanaMobileNetwork, PaystackMobileMoneyProvider>> = {
  mtn: 'mtn',
  telecel: 'vod',
  at: 'atl',
};

/**
 * The `mobile_money` object for a payer's E.164 phone:
 * - GHS: `+233XXXXXXXXX` → local form `0XXXXXXXXX` (the documented samples, e.g. `0551234987`) and
 *   the provider from {@link PAYSTACK_GHANA_PROVIDERS};
 * - KES: M-PESA (`mpesa`, STK push) with the phone in international form ("Include the country code
 *   in the phone number (e.g. +254722000000)"); Airtel Money Kenya is not offered.
 * @throws ConnectorRequestError `phone_required` without a phone, `invalid_phone` when the number is
 *   not a mobile number of the currency's country, `mobile_money_provider_unknown` for an unknown
 *   Ghanaian prefix — nothing is sent to Paystack then.
 */
export function mobileMoneyTarget(
  currency: Currency,
  phone: string | null | undefined,
): { phone: string; provider: PaystackMobileMoneyProvider } {
  if (!phone)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'phone_required',
      "Mobile money through Paystack needs the payer's phone number.",
    );
  if (currency === 'GHS') {
    const match = /^\+233(\d{9})$/.exec(phone);
    if (!match)
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'invalid_phone',
        'A GHS mobile-money payment needs a Ghanaian number (+233 followed by 9 digits).',
      );
    const national = match[1] as string;
    const network = ghanaMobileNetwork(phone);
    const provider = network ? PAYSTACK_GHANA_PROVIDERS[network] : undefined;
    if (!provider)
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'mobile_money_provider_unknown',
        'The phone number does not belong to a Ghanaian mobile-money network (MTN, Telecel, AirtelTigo).',
      );
    return { phone: `0${national}`, provider };
  }
  if (currency === 'KES') {
    if (!/^\+254\d{9}$/.test(phone))
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'invalid_phone',
        'A KES mobile-money payment needs a Kenyan number (+254 followed by 9 digits).',
      );
    return { phone, provider: 'mpesa' };
  }
  throw new ConnectorRequestError(
    PAYSTACK_CONNECTOR_NAME,
    'payment_method_not_supported',
    `Paystack offers no mobile money in ${currency}.`,
  );
}

/**
 * POST /charge with a `mobile_money` object (`phone`, `provider`; Payment Channels → Mobile Money,
 * https://paystack.com/docs/payments/payment-channels/#mobile-money).
 */
export function buildMobileMoneyCharge(request: AuthorizeRequest, email: string): PaystackChargeRequest {
  return { ...chargeBase(request, email), mobile_money: mobileMoneyTarget(request.currency, request.phone) };
}

/**
 * POST /refund body (https://paystack.com/docs/api/refund/#create: `transaction` "Transaction
 * reference or ID", optional integer `amount` in subunits, `currency`, `merchant_note`): the
 * transaction by its reference, the amount in subunits (integer), the
 * currency, and our refund id in `merchant_note` (Paystack takes no refund reference of ours; the
 * note shows on the Paystack dashboard for reconciliation).
 */
export function buildRefund(connectorTransactionId: string, amount: number, currency: Currency, refundId: string): PaystackRefundRequest {
  return { transaction: connectorTransactionId, amount: toPaystackAmount(amount), currency, merchant_note: refundMerchantNote(refundId) };
}

/**
 * The Paystack call that answers an authentication step: the path of {@link PAYSTACK_SUBMIT_PATHS} and
 * its body ([OAS] ChargeSubmit*.yaml) with the charge `reference` (the one recorded from the charge's
 * answer, else ours from {@link paystackReference}):
 * - `submit_pin` `{pin, reference}`; `submit_otp` `{otp, reference}` (also a Telecel voucher);
 * - `submit_phone` `{phone, reference}` (as typed: Paystack validates it);
 * - `submit_birthday` `{birthday, reference}` (YYYY-MM-DD);
 * - `submit_address` `{address, city, state, zip_code, reference}` from `line1`, `city`, `state`, `zip`
 *   (Paystack takes no country).
 * The PIN and OTP only live in the returned body, serialized once by the caller; never log it.
 * @throws ConnectorRequestError `authentication_value_required` when the step's value is missing or
 *   blank, `invalid_birthday` when it is not YYYY-MM-DD, `authentication_step_not_supported` for a
 *   step Paystack has no endpoint for — nothing is sent then; the messages never contain the value
 */
export function buildSubmitRequest(request: AuthenticateRequest): { path: string; body: PaystackSubmitRequest } {
  const reference = request.connectorTransactionId || paystackReference(request.paymentId);
  const path = isKey(PAYSTACK_SUBMIT_PATHS, request.step) ? PAYSTACK_SUBMIT_PATHS[request.step] : undefined;
  if (!path)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'authentication_step_not_supported',
      `Paystack has no endpoint for the step ${String(request.step)}.`,
    );
  const required = (value: string | undefined, field: string): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConnectorRequestError(PAYSTACK_CONNECTOR_NAME, 'authentication_value_required', `The ${request.step} step needs ${field}.`);
    }
    return value;
  };
  switch (request.step) {
    case 'submit_pin':
      return { path, body: { pin: required(request.pin, 'the pin'), reference } };
    case 'submit_otp':
      return { path, body: { otp: required(request.otp, 'the otp'), reference } };
    case 'submit_phone':
      return { path, body: { phone: required(request.phone, 'the phone'), reference } };
    case 'submit_birthday': {
      const birthday = required(request.birthday, 'the birthday');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(birthday))
        throw new ConnectorRequestError(PAYSTACK_CONNECTOR_NAME, 'invalid_birthday', 'The birthday must be YYYY-MM-DD.');
      return { path, body: { birthday, reference } };
    }
    case 'submit_address': {
      const a = request.address;
      return {
        path,
        body: {
          address: required(a?.line1, 'address.line1'),
          city: required(a?.city, 'address.city'),
          state: required(a?.state, 'address.state'),
          zip_code: required(a?.zip, 'address.zip'),
          reference,
        },
      };
    }
  }
}

/**
 * The secrets of an authentication answer (PIN, OTP): an adapter removes them from any text it keeps
 * or throws (a processor's error message that would echo one).
 * @returns the non-empty PIN/OTP values of the request
 */
export function authenticationSecrets(request: AuthenticateRequest): string[] {
  return [request.pin, request.otp].filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** `text` with every occurrence of each secret replaced by `[REDACTED]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, secret) => t.split(secret).join('[REDACTED]'), text);
}

/** The free-text fields of Paystack's answers that we keep or show (messages, prompts): the only ones scrubbed. */
const PAYSTACK_TEXT_FIELDS: ReadonlySet<string> = new Set(['message', 'gateway_response', 'display_text']);

/**
 * A parsed JSON value with {@link withoutSecrets} applied to its free-text fields (`message`,
 * `gateway_response`, `display_text`, at any depth), so nothing derived from a processor's answer (a
 * message, a code slugged from it, a prompt) can carry a PIN or OTP the processor echoed. Identifiers
 * (`reference`, URLs, account numbers, USSD codes) are left exactly as Paystack sent them: a PIN's
 * digits can occur inside a reference by chance, and rewriting it would point later calls elsewhere.
 */
export function jsonWithoutSecrets<T>(value: T, secrets: readonly string[], key?: string): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return (key !== undefined && PAYSTACK_TEXT_FIELDS.has(key) ? withoutSecrets(value, secrets) : value) as T;
  if (Array.isArray(value)) return value.map((v) => jsonWithoutSecrets(v, secrets, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonWithoutSecrets(v, secrets, k)]),
    ) as T;
  }
  return value;
}

/** The `merchant_note` POST /refund carries, `Switchyard refund <our refund id>`: how {@link ourPaystackRefund} finds it again. */
export function refundMerchantNote(refundId: string): string {
  return `Switchyard refund ${refundId}`;
}

/* ------------------------------------------------------------------------------------------------
 * Response mappers
 * --------------------------------------------------------------------------------------------- */

/** Context a charge answer is mapped with. */
export interface ChargeContext {
  /** Our payment id (the hosted step page's URL is built from it). */
  paymentId: string;
  /** Public base URL of this API, e.g. `https://api.example.com` (the hosted step page). */
  publicBaseUrl: string;
  paymentMethod: PaymentMethod;
  /** Minor units. */
  amount: number;
  currency: Currency;
  /** Our reference, used when Paystack's answer has none. */
  reference: string;
  /** `expires_at` of a USSD code (Paystack returns none): see the connector's `paymentSessionTimeoutSeconds`. */
  ussdExpiresAt: string;
}

/** @returns true when `status` is a key of `table` (and not an inherited property). */
function isKey<K extends string>(table: Readonly<Record<K, unknown>>, status: string): status is K {
  return Object.hasOwn(table, status);
}

/** `errorCode`/`errorMessage` of a failed charge or transaction: slug of `gateway_response`, and `message`. */
function failure(
  data: { gateway_response?: string | null; message?: string | null },
  fallback: string,
): { errorCode: string; errorMessage: string } {
  const gateway = data.gateway_response?.trim();
  return {
    errorCode: gateway ? slug(gateway) || fallback : fallback,
    errorMessage: data.message?.trim() || gateway || 'Paystack declined the payment.',
  };
}

/** ISO 8601 UTC of a Paystack timestamp, or null when it does not parse. */
function isoOrNull(value: string | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * The next action for a charge that waits on the payer (response samples of
 * https://paystack.com/docs/payments/payment-channels/):
 * - `open_url` → redirect_to_url `data.url` (3-D Secure);
 * - `pay_offline` + ussd → display_ussd_code `data.ussd_code`;
 * - `pay_offline` + mobile_money → await_mobile_money_approval with `data.display_text`;
 * - `pending_bank_transfer` → bank_transfer_instructions from the account fields (Pesalink's
 *   `transaction_reference` is the narration the payer must use, so it is the reference shown);
 * - `send_pin` / `send_otp` / `send_phone` / `send_birthday` / `send_address` → the step of
 *   {@link PAYSTACK_STEP_OF_STATUS} (`authenticationAction`: our hosted step page, Paystack's
 *   `display_text` as the prompt or null, `card_required` false — Paystack keeps the card with the
 *   charge and its submit endpoints take only the reference and the value). A Telecel voucher prompt
 *   is such a `send_otp` on a mobile-money charge.
 */
export function chargeNextAction(data: PaystackChargeData, ctx: ChargeContext): NextAction | null {
  const reference = data.reference || ctx.reference;
  if (isKey(PAYSTACK_STEP_OF_STATUS, data.status)) {
    const prompt = typeof data.display_text === 'string' && data.display_text.trim() ? data.display_text : null;
    return authenticationAction(PAYSTACK_STEP_OF_STATUS[data.status], ctx.publicBaseUrl, ctx.paymentId, prompt, false);
  }
  switch (data.status) {
    case 'open_url':
      return data.url ? { type: 'redirect_to_url', redirect_to_url: data.url } : null;
    case 'pay_offline':
      if (ctx.paymentMethod === 'ussd' && data.ussd_code) {
        return { type: 'display_ussd_code', ussd: { code: data.ussd_code, reference, expires_at: ctx.ussdExpiresAt } };
      }
      if (ctx.paymentMethod === 'mobile_money') {
        return {
          type: 'await_mobile_money_approval',
          mobile_money: { message: data.display_text || 'Approve the payment prompt sent to your phone.', reference },
        };
      }
      return null;
    case 'pending_bank_transfer': {
      const expiresAt = isoOrNull(data.account_expires_at);
      if (!data.account_number || !data.bank?.name || !expiresAt) return null;
      return {
        type: 'bank_transfer_instructions',
        bank_transfer: {
          bank_name: data.bank.name,
          account_number: data.account_number,
          account_name: data.account_name ?? '',
          amount: fromPaystackAmount(data.amount) ?? ctx.amount,
          currency: ctx.currency,
          reference: data.transaction_reference || reference,
          expires_at: expiresAt,
        },
      };
    }
    default:
      return null;
  }
}

/**
 * A Charge API answer (POST /charge, POST /charge/submit_*, GET /charge/:reference) → our result,
 * through {@link PAYSTACK_CHARGE_STATUS}. `connectorTransactionId` is the Paystack reference (every
 * Paystack endpoint takes it; pending answers carry no numeric id). `amountCaptured` is Paystack's
 * amount on `success`, else 0. A failure carries the slug of `gateway_response` (else the status) and
 * Paystack's `message` (e.g. "Error occured while enrolling you for OTP!", [DCS] submit-pin `200_failed`).
 * An unknown status (not in the table) → Processing, so a sync settles it. A `success` whose
 * `authorization` is reusable carries it as `savedMethod` ({@link paystackSavedMethod}).
 * @param refusal the envelope's message when Paystack answered `status: false` (or a 4xx) with the
 *   charge still open on a step: kept as errorCode (slug) / errorMessage on the RequiresAction result,
 *   so the payer sees why their answer was not taken (e.g. a wrong mobile-money OTP, which Paystack's
 *   errors page says to show "and ask for correct OTP")
 */
export function chargeToPaymentResult(data: PaystackChargeData, ctx: ChargeContext, refusal?: string | null): PaymentResult {
  const reference = data.reference || ctx.reference;
  const status = isKey(PAYSTACK_CHARGE_STATUS, data.status) ? PAYSTACK_CHARGE_STATUS[data.status] : 'Processing';
  const result: PaymentResult = { status, connectorTransactionId: reference, amountCaptured: 0 };
  if (status === 'Succeeded') {
    result.amountCaptured = fromPaystackAmount(data.amount) ?? ctx.amount;
    const saved = paystackSavedMethod(data);
    if (saved) result.savedMethod = saved;
  } else if (status === 'RequiresAction') {
    result.nextAction = chargeNextAction(data, ctx);
    const reason = refusal?.trim();
    if (reason && isKey(PAYSTACK_STEP_OF_STATUS, data.status)) {
      result.errorCode = slug(reason) || 'authentication_refused';
      result.errorMessage = reason;
    }
  } else if (status === 'Failed') {
    Object.assign(result, failure(data, data.status));
  }
  return result;
}

/**
 * A transaction (GET /transaction/verify/:reference, https://paystack.com/docs/api/transaction/#verify;
 * the `charge.success` event) → our result through {@link PAYSTACK_TRANSACTION_STATUS}. `amountCaptured`
 * is Paystack's `amount` on success; a failure carries the slug of `gateway_response` and `message`
 * ("the reason for failure from data.message", Payment Channels → Mobile Money).
 * A charge still waiting on the payer's PIN/OTP/phone/birthday/address verifies as `ongoing` ("waiting
 * on the customer to enter an otp", verify-payments page) → RequiresAction; should verify ever answer a
 * Charge API status instead (`send_otp`, `open_url`, …), it is mapped through {@link PAYSTACK_CHARGE_STATUS}
 * to the same RequiresAction. Neither carries a next action (verify does not say which step, nor does
 * the sync know our public URL): the caller keeps the payment's current `next_action`.
 * Any other unknown status → Processing. A `success` whose `authorization` is reusable carries it as
 * `savedMethod` ({@link paystackSavedMethod}): verify, `charge.success` and sync alike.
 */
export function transactionToPaymentResult(data: PaystackTransactionData): PaymentResult {
  const status = isKey(PAYSTACK_TRANSACTION_STATUS, data.status)
    ? PAYSTACK_TRANSACTION_STATUS[data.status]
    : isKey(PAYSTACK_CHARGE_STATUS, data.status) && PAYSTACK_CHARGE_STATUS[data.status] === 'RequiresAction'
      ? 'RequiresAction'
      : 'Processing';
  const result: PaymentResult = { status, connectorTransactionId: data.reference, amountCaptured: 0 };
  if (status === 'Succeeded') {
    result.amountCaptured = fromPaystackAmount(data.amount) ?? 0;
    const saved = paystackSavedMethod(data);
    if (saved) result.savedMethod = saved;
  }
  if (status === 'Failed') Object.assign(result, failure(data, 'failed'));
  if (status === 'Cancelled') {
    result.errorCode = 'reversed';
    result.errorMessage = 'Paystack reversed the transaction (refund or chargeback).';
  }
  return result;
}

/**
 * A refund (create, fetch, event) → our result through {@link PAYSTACK_REFUND_STATUS}.
 * `needs-attention` is never Succeeded: it keeps `Pending` with errorCode
 * {@link PAYSTACK_REFUND_NEEDS_ATTENTION_CODE} and Paystack's own explanation when the answer has one
 * (`paystackMessage`: a sentence is used as is, a bare token such as `NEEDS_ATTENTION` is appended to
 * ours), else ours; `failed` carries errorCode `failed`. An unknown status → Pending.
 * @param paystackMessage Paystack's text about the refund's state (`reason`, `message`), if any
 */
export function refundToRefundResult(status: string, connectorRefundId: string | null, paystackMessage?: string | null): RefundResult {
  const ours = isKey(PAYSTACK_REFUND_STATUS, status) ? PAYSTACK_REFUND_STATUS[status] : 'Pending';
  const result: RefundResult = { status: ours, connectorRefundId };
  if (status === 'needs-attention') {
    const ours =
      "Paystack could not pay this refund back automatically and needs the customer's bank details: retry it on the Paystack dashboard or with POST /refund/retry_with_customer_details/:id.";
    const theirs = paystackMessage?.trim();
    result.errorCode = PAYSTACK_REFUND_NEEDS_ATTENTION_CODE;
    // A sentence from Paystack is shown as is; a bare token (`reason` is often a state such as
    // `PROCESSING`, [DCS] refunds/retry) only completes ours.
    result.errorMessage = !theirs ? ours : /\s/.test(theirs) ? theirs : `${ours} (Paystack: ${theirs})`;
  } else if (ours === 'Failed') {
    result.errorCode = 'failed';
    result.errorMessage = 'Paystack could not process the refund; the amount was credited back to the merchant balance.';
  }
  return result;
}

/* ------------------------------------------------------------------------------------------------
 * Saved payment methods: authorization codes
 * --------------------------------------------------------------------------------------------- */

/**
 * Charge Authorization: charges an `authorization_code` Paystack returned as `reusable` with an earlier
 * successful payment ([OAS] paths/transaction_charge_authorization.yaml, mounted at this path by
 * src/assets/openapi/openapi.yaml; https://paystack.com/docs/api/transaction/#charge-authorization and
 * https://paystack.com/docs/payments/recurring-charges/).
 */
export const PAYSTACK_CHARGE_AUTHORIZATION_PATH = '/transaction/charge_authorization';

/**
 * Deactivate Authorization: makes an `authorization_code` unusable ([OAS]
 * paths/customer_authorization_deactivate.yaml, mounted at `/customer/authorization/deactivate` by
 * src/assets/openapi/openapi.yaml since PaystackOSS/openapi commit ef89553d5bdaf3c87f9ec16777fbd1ba78e5a203
 * (2025-08-26), which moved it from `/customer/deactivate_authorization`; [DCS]
 * src/api/customers/deactivate-authorization/index.sh calls the same URL since commit
 * c04ba177108465c1510514f6e4e700239e30a6e8, 2024-01-22; https://paystack.com/docs/api/customer/#deactivate-authorization).
 */
export const PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH = '/customer/authorization/deactivate';

/**
 * A saved method's Paystack `authorization_code`, checked before it is sent: a non-empty string of at
 * most 100 characters without whitespace (Paystack's codes are `AUTH_` and alphanumerics, e.g.
 * `AUTH_uh8bcl3zbn`, [DCS] src/api/transactions/charge_authorization/response.json). The message of the
 * error never contains the value.
 * @throws ConnectorRequestError `saved_method_invalid` when the token is not such a string (nothing is sent)
 */
export function paystackAuthorizationCode(savedMethod: SavedMethodCharge): string {
  const token = savedMethod.token;
  if (typeof token !== 'string' || !/^\S{1,100}$/.test(token)) {
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'saved_method_invalid',
      'The saved payment method has no usable Paystack authorization code.',
    );
  }
  return token;
}

/**
 * POST /transaction/charge_authorization body ({@link PaystackChargeAuthorizationRequest}) for a saved
 * method: `email` (the one the authorization belongs to: "You can only charge an authorization for the
 * customer who saved it", https://paystack.com/docs/api/errors/), `amount` in subunits (integer,
 * {@link toPaystackAmount}), `authorization_code`, `reference` = {@link paystackReference} of our
 * payment id (the same scheme as every other charge, so sync and the reconciler find a charge whose
 * answer was lost), `currency`, `metadata` (stringified, as the schema types it: our payment id and
 * `cancel_action`) and `callback_url` (our processor return route, where a payer Paystack challenges
 * comes back). Paystack has no "merchant-initiated" flag: an off-session charge is the same call. The
 * optional `queue` ("If you are making a scheduled charge call, it is a good idea to queue them") is not
 * sent: a queued charge answers without an outcome, and the caller spreads its renewals itself.
 * The token only lives in the returned body, serialized once by the caller; never log it.
 * @param email the e-mail the authorization was issued to (the saved method's, else the payment's)
 * @throws ConnectorRequestError `saved_method_invalid` ({@link paystackAuthorizationCode})
 * @throws RangeError when the amount is not a non-negative safe integer
 */
export function buildChargeAuthorization(
  request: AuthorizeRequest,
  savedMethod: SavedMethodCharge,
  email: string,
): PaystackChargeAuthorizationRequest {
  const metadata: PaystackChargeAuthorizationMetadata = { switchyard_payment_id: request.paymentId, cancel_action: request.returnUrl };
  return {
    email,
    amount: toPaystackAmount(request.amount),
    authorization_code: paystackAuthorizationCode(savedMethod),
    reference: paystackReference(request.paymentId),
    currency: request.currency,
    metadata: JSON.stringify(metadata),
    callback_url: request.returnUrl,
  };
}

/**
 * POST /customer/authorization/deactivate body: `{authorization_code}` ([OAS] CustomerDeactivateAuthorization.yaml).
 * @throws ConnectorRequestError `saved_method_invalid` ({@link paystackAuthorizationCode})
 */
export function buildDeactivateAuthorization(savedMethod: SavedMethodCharge): PaystackDeactivateAuthorizationRequest {
  return { authorization_code: paystackAuthorizationCode(savedMethod) };
}

/**
 * The answer of POST /transaction/charge_authorization → our result. Its `data` is a transaction
 * ([OAS] ChargeAuthorizationResponse.yaml; [DCS] src/api/transactions/charge_authorization/response.json),
 * so it goes through the Charge API table like every charge ({@link chargeToPaymentResult}): `success` →
 * Succeeded (with the reusable authorization as `savedMethod`), `failed` → Failed with the slug of
 * `gateway_response` (e.g. `insufficient_funds`) and Paystack's `message`, else its `gateway_response`; a
 * step (`send_otp`, `send_pin`, …) or `open_url` → RequiresAction with the step's hosted page or the
 * 3-D Secure URL; `pending` and any status outside the table → Processing (a sync settles it).
 * A challenged card (Two-Factor Authentication, [DCS] src/doc/payments/recurring-charges/two-factor/index.json:
 * `data.paused: true` with `authorization_url`, no `status`) → RequiresAction, `redirect_to_url` =
 * `authorization_url` ("redirect the user to the data.authorization_url to complete the authorization",
 * https://paystack.com/docs/payments/recurring-charges/); paused without a URL → Processing. Whoever
 * started the charge (the payer present or not), an answer that needs the payer is never a failure.
 */
export function chargeAuthorizationToPaymentResult(data: PaystackChargeData, ctx: ChargeContext): PaymentResult {
  if (data.paused === true) {
    const reference = data.reference || ctx.reference;
    const url = typeof data.authorization_url === 'string' && data.authorization_url.trim() ? data.authorization_url : null;
    if (!url) return { status: 'Processing', connectorTransactionId: reference, amountCaptured: 0 };
    return {
      status: 'RequiresAction',
      connectorTransactionId: reference,
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: url },
    };
  }
  return chargeToPaymentResult(data, ctx);
}

/** Lower-case brand: `brand`, else `card_type` (trimmed, inner spaces collapsed, a trailing debit/credit/prepaid word dropped). */
function cardBrand(authorization: PaystackAuthorization): string | null {
  for (const raw of [authorization.brand, authorization.card_type]) {
    if (typeof raw !== 'string') continue;
    const text = raw
      .trim()
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/ (debit|credit|prepaid)$/, '');
    if (text) return text;
  }
  return null;
}

/** A Paystack month or year (a digit string, or a number) → integer, or null. */
function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^\d{1,4}$/.test(value.trim())) return Number(value.trim());
  return null;
}

/**
 * The last instant of a card's expiry month, ISO 8601 UTC (`2030-12-31T23:59:59.999Z` for 12/2030): a
 * card is valid through the last day of the month printed on it.
 * @param expMonth 1–12
 * @param expYear four digits
 */
export function endOfExpiryMonth(expMonth: number, expYear: number): string {
  return new Date(Date.UTC(expYear, expMonth, 1) - 1).toISOString();
}

/**
 * The card of a Paystack authorization: lower-case brand (`brand`, else `card_type`; the [DCS] samples
 * write `"card_type": "visa "`, `"brand": "visa"`), `last4` (four digits), `exp_month`/`exp_year` (strings
 * in Paystack, "12"/"2030" → 12/2030; a two-digit year is taken as 20YY), `bin` and `country_code` (the
 * issuer's country, ISO 3166-1 alpha-2) where given.
 * @returns null when the authorization is not a card (`channel` other than `card`) or a field needed
 *   (brand, last4, a month 1–12, a year) is missing or malformed
 */
export function paystackSavedCard(authorization: PaystackAuthorization): SavedCardDetails | null {
  if (authorization.channel !== undefined && authorization.channel !== null && authorization.channel !== 'card') return null;
  const brand = cardBrand(authorization);
  const last4 = typeof authorization.last4 === 'string' && /^\d{4}$/.test(authorization.last4) ? authorization.last4 : null;
  const expMonth = wholeNumber(authorization.exp_month);
  const year = wholeNumber(authorization.exp_year);
  const expYear = year !== null && year < 100 ? 2000 + year : year;
  if (!brand || !last4 || expMonth === null || expMonth < 1 || expMonth > 12 || expYear === null || expYear < 1000 || expYear > 9999)
    return null;
  const bin = typeof authorization.bin === 'string' && authorization.bin.trim() ? authorization.bin.trim() : null;
  const country =
    typeof authorization.country_code === 'string' && /^[A-Za-z]{2}$/.test(authorization.country_code.trim())
      ? authorization.country_code.trim().toUpperCase()
      : null;
  return { brand, last4, expMonth, expYear, bin, issuerCountry: country };
}

/**
 * The saved method a Paystack transaction carries, when its `authorization` is reusable:
 * - only when `authorization.reusable === true` and `authorization_code` is a non-empty string ("Only
 *   reusable authorizations can be used with our charge authorization endpoint", https://paystack.com/docs/api/errors/);
 *   a `reusable: false` authorization (a bank or USSD payment, [DCS] src/api/charges/submit-otp/response.json
 *   `200`) saves nothing;
 * - `token` = `authorization_code`; `fingerprint` = `signature` (the same for every authorization of one card;
 *   null when absent); `card` = {@link paystackSavedCard} (null for a non-card authorization);
 *   `email` = `customer.email` and `processorCustomerId` = `customer.customer_code` (`CUS_…`; null when absent);
 * - `expiresAt` = the end of the card's expiry month ({@link endOfExpiryMonth}): Paystack states no other limit
 *   on an authorization; null without a card.
 * Sources: [OAS] ChargeAuthorizationResponse.yaml / VerifyResponse.yaml `authorization` and `customer`;
 * [DCS] src/api/transactions/verify/response.json, src/api/transactions/charge_authorization/response.json,
 * src/doc/payments/recurring-charges/authorization/index.json.
 * The token is secret: the caller encrypts it and never logs it.
 * @returns the saved method, or null
 */
export function paystackSavedMethod(data: { authorization?: unknown; customer?: unknown }): SavedMethodToken | null {
  const authorization = data.authorization;
  if (!authorization || typeof authorization !== 'object') return null;
  const a = authorization as PaystackAuthorization;
  if (a.reusable !== true || typeof a.authorization_code !== 'string' || !a.authorization_code.trim()) return null;
  const c = data.customer && typeof data.customer === 'object' ? (data.customer as PaystackCustomer) : null;
  const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
  const card = paystackSavedCard(a);
  return {
    token: a.authorization_code,
    processorCustomerId: text(c?.customer_code),
    email: text(c?.email),
    fingerprint: text(a.signature),
    card,
    expiresAt: card ? endOfExpiryMonth(card.expMonth, card.expYear) : null,
  };
}

/* ------------------------------------------------------------------------------------------------
 * Disputes: the status table (mapping code: ./paystack-disputes.ts)
 * --------------------------------------------------------------------------------------------- */

/**
 * Paystack's dispute `status` values: the enum of List Disputes' `status` filter, [OAS] `paths/dispute.yaml`
 * (PaystackOSS/openapi 9678dea922a9; also `src/assets/sdk/paystack.yaml`: "Dispute Status. Acceptable values are
 * awaiting-merchant-feedback, awaiting-bank-feedback, pending, resolved").
 */
export const PAYSTACK_DISPUTE_STATUSES = ['awaiting-merchant-feedback', 'awaiting-bank-feedback', 'pending', 'resolved'] as const;
/** One of {@link PAYSTACK_DISPUTE_STATUSES}. */
export type PaystackDisputeStatus = (typeof PAYSTACK_DISPUTE_STATUSES)[number];

/**
 * Paystack's dispute `resolution` values: `merchant-accepted` and `declined`, the values Resolve Dispute accepts
 * ([OAS] `components/schemas/DisputeResolve.yaml`: "Dispute resolution. Accepted values, merchant-accepted,
 * declined"; [DCS] `src/api/disputes/resolve/response.json` answers `merchant-accepted`); `auto-accepted`, the
 * resolution of Paystack's `charge.dispute.resolve` sample ([DCS] `src/doc/payments/webhooks/events/charge-dispute-resolve.json`:
 * resolved 2 s after its `dueAt`, i.e. Paystack accepted it for a merchant who did not answer in time: "All disputes
 * raised against your integration/business should be handled within 16 hours", https://paystack.com/docs/payments/manage-disputes/);
 * `merchant-declined`, a spelling some integrations read (not in Paystack's material), read as `declined`.
 */
export const PAYSTACK_DISPUTE_RESOLUTIONS = ['merchant-accepted', 'auto-accepted', 'declined', 'merchant-declined'] as const;
/** One of {@link PAYSTACK_DISPUTE_RESOLUTIONS}. */
export type PaystackDisputeResolution = (typeof PAYSTACK_DISPUTE_RESOLUTIONS)[number];

/** The resolution this adapter sends to accept a dispute (`PUT /dispute/:id/resolve`). */
export const PAYSTACK_ACCEPT_RESOLUTION: PaystackDisputeResolution = 'merchant-accepted';
/**
 * The resolution this adapter sends to challenge a dispute with evidence: `declined`, the value Paystack's
 * DisputeResolve schema documents (not `merchant-declined`, which no Paystack material names).
 */
export const PAYSTACK_DECLINE_RESOLUTION: PaystackDisputeResolution = 'declined';

/** Our stage and status for one Paystack status (or resolution). */
export interface PaystackDisputeMapping {
  status: DisputeStatus;
  stage: DisputeStage;
}

/**
 * Open Paystack statuses → ours. Paystack has one stage (a chargeback or a fraud claim, `category`), so the stage
 * is always `dispute`:
 * - `awaiting-merchant-feedback` → `dispute_opened` (the merchant must accept or decline, by `dueAt`);
 * - `pending` → `dispute_opened` (the status Paystack's samples record at creation, `history[0].status`; nothing
 *   answered yet);
 * - `awaiting-bank-feedback` → `dispute_challenged` (the merchant declined with evidence; the issuer decides).
 * `resolved` is read through {@link PAYSTACK_DISPUTE_RESOLUTION}.
 */
export const PAYSTACK_DISPUTE_STATUS: Readonly<Record<Exclude<PaystackDisputeStatus, 'resolved'>, PaystackDisputeMapping>> = {
  'awaiting-merchant-feedback': { status: 'dispute_opened', stage: 'dispute' },
  pending: { status: 'dispute_opened', stage: 'dispute' },
  'awaiting-bank-feedback': { status: 'dispute_challenged', stage: 'dispute' },
};

/**
 * A `resolved` dispute's `resolution` → ours:
 * - `merchant-accepted` → `dispute_accepted` (the merchant accepted; `refund_amount` goes back to the cardholder);
 * - `auto-accepted` → `dispute_expired` (nobody answered by `dueAt`; Paystack accepted it: the money stays out);
 * - `declined` / `merchant-declined` → `dispute_won` (the decline stood: Paystack closes the dispute in the merchant's
 *   favour; Paystack documents no later stage).
 * A resolved dispute with another (or no) resolution is an unknown value: `dispute_opened` with a warning.
 */
export const PAYSTACK_DISPUTE_RESOLUTION: Readonly<Record<PaystackDisputeResolution, PaystackDisputeMapping>> = {
  'merchant-accepted': { status: 'dispute_accepted', stage: 'dispute' },
  'auto-accepted': { status: 'dispute_expired', stage: 'dispute' },
  declined: { status: 'dispute_won', stage: 'dispute' },
  'merchant-declined': { status: 'dispute_won', stage: 'dispute' },
};

/**
 * The raw value kept in `connectorStatus`: the status, with the resolution after a colon when there is one
 * (`resolved:merchant-accepted`), so the raw pair survives.
 */
export function paystackDisputeConnectorStatus(status: string, resolution: string | null | undefined): string {
  return resolution ? `${status}:${resolution}` : status;
}

/**
 * Paystack's status and resolution → ours, through {@link PAYSTACK_DISPUTE_STATUS} and {@link PAYSTACK_DISPUTE_RESOLUTION}.
 * @returns the mapping, or null for a value the tables do not know (the caller maps it to `dispute_opened` and warns)
 */
export function paystackDisputeMapping(status: string, resolution: string | null | undefined): PaystackDisputeMapping | null {
  if (status === 'resolved') {
    return resolution && Object.hasOwn(PAYSTACK_DISPUTE_RESOLUTION, resolution)
      ? PAYSTACK_DISPUTE_RESOLUTION[resolution as PaystackDisputeResolution]
      : null;
  }
  return Object.hasOwn(PAYSTACK_DISPUTE_STATUS, status) ? PAYSTACK_DISPUTE_STATUS[status as keyof typeof PAYSTACK_DISPUTE_STATUS] : null;
}

/**
 * Timeouts of the dispute calls, in milliseconds (`CONNECTOR_TIMEOUT_MS` overrides them, as every other): reads
 * (`GET /dispute/:id`, `GET /dispute/:id/upload_url`) 30 000 as the other reads ([DCS] samples' `CURLOPT_TIMEOUT => 30`);
 * writes (`POST /dispute/:id/evidence`, `PUT /dispute/:id/resolve`, the upload to the signed URL) 60 000 as charges
 * and refunds: a write cut short is an unknown outcome.
 */
export const PAYSTACK_DISPUTE_TIMEOUTS_MS = { read: 30_000, write: 60_000 } as const;

/** A Paystack dispute as `GET /dispute/:id`, `PUT /dispute/:id/resolve` and the `charge.dispute.*` events print it ([OAS] DisputeFetchResponse). */
export interface PaystackDisputeData {
  id?: number | string;
  refund_amount?: number | string | null;
  currency?: string | null;
  status?: string;
  resolution?: string | null;
  category?: string | null;
  transaction?: { id?: number; reference?: string; amount?: number | string; currency?: string } | null;
  transaction_reference?: string | null;
  customer?: {
    first_name?: string | null;
    last_name?: string | null;
    email?: string | null;
    phone?: string | null;
    international_format_phone?: string | null;
  } | null;
  dueAt?: string | null;
  due_at?: string | null;
  resolvedAt?: string | null;
  messages?: { sender?: string; body?: string; createdAt?: string }[] | null;
  message?: { body?: string } | null;
  createdAt?: string | null;
  created_at?: string | null;
  updatedAt?: string | null;
  updated_at?: string | null;
}

/** The `data` of `GET /dispute/:id/upload_url` ([OAS] DisputeUploadURLResponse: both required). */
export interface PaystackUploadUrlData {
  signedUrl: string;
  fileName: string;
}
