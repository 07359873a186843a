/**
 * Paystack's JSON as the adapter sends and reads it: the `{status, message, data}` envelope, the error body, the
 * request bodies (POST /charge, /transaction/initialize, the submit steps, /transaction/charge_authorization,
 * /customer/authorization/deactivate, /refund) and the `data` of charges, transactions, refunds, refund lists,
 * webhook deliveries, disputes and dispute upload URLs. Only the fields the adapter writes or reads; amounts are
 * integers of the currency's subunit (kobo, pesewas, cents), which is our minor unit (./money.ts).
 *
 * Sources (each type cites its page):
 * - https://paystack.com/docs/api/ ("Requests and Response"), https://paystack.com/docs/api/charge/,
 *   https://paystack.com/docs/api/transaction/, https://paystack.com/docs/api/refund/,
 *   https://paystack.com/docs/payments/webhooks/, https://paystack.com/docs/payments/recurring-charges/
 * - [OAS] PaystackOSS/openapi at commit 9678dea922a900b2485969592055ccf634460352 (2025-10-24):
 *   components/schemas/{ChargeCreate,ChargeSubmit*,TransactionInitialize,TransactionChargeAuthorization,
 *   ChargeAuthorizationResponse,VerifyResponse,CustomerDeactivateAuthorization,RefundCreate,RefundListResponse,
 *   RefundListResponseArray,DisputeFetchResponse,DisputeUploadURLResponse}.yaml
 * - [DCS] PaystackOSS/doc-code-snippets at commit 94af513d752dfc9f85dd0718301e7257091eb7f2: the response samples of
 *   src/api/{charges,transactions,refunds,disputes} and src/doc/payments/{payment-methods,recurring-charges,refunds}
 * - Hyperswitch's connector: juspay/hyperswitch crates/hyperswitch_connectors/src/connectors/paystack/transformers.rs
 *   (`PaystackErrorResponse`)
 */
import type { Currency } from '../../domain/money';
import type { PaystackMobileMoneyProvider } from './mobile-money';
import type { PaystackUssdType } from './supported-methods';

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
export interface PaystackChargeBase {
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
 * webhooks too, and `paystackSavedMethod` (./responses.ts) checks every field before it uses it.
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
  /** The note sent with POST /refund: ours is `refundMerchantNote` (./references.ts). */
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
