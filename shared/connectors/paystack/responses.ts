/**
 * Paystack's answers → Switchyard's results: a Charge API answer (POST /charge, the submit steps, GET
 * /charge/:reference, POST /transaction/charge_authorization) → a payment result with its next action, a
 * transaction (verify, `charge.success`) → a payment result, a refund → a refund result, a reusable
 * authorization → a saved method, a 4xx body → the processor's code and message, and the credential check's answers.
 *
 * Sources:
 * - https://paystack.com/docs/payments/payment-channels/ (handling `data.status`, the response samples of each
 *   channel), https://paystack.com/docs/api/transaction/#verify and https://paystack.com/docs/payments/verify-payments/,
 *   https://paystack.com/docs/api/refund/, https://paystack.com/docs/api/errors/ and
 *   https://docs-v2.paystack.com/api/errors/charge, https://paystack.com/docs/payments/recurring-charges/
 * - [OAS] PaystackOSS/openapi at commit 9678dea922a900b2485969592055ccf634460352: components/schemas/
 *   {ChargeAuthorizationResponse,VerifyResponse,BalanceCheckResponse}.yaml, components/responses/Unauthorized.yaml
 * - [DCS] PaystackOSS/doc-code-snippets at commit 94af513d752dfc9f85dd0718301e7257091eb7f2: the response samples of
 *   src/api/charges/*, src/api/transactions/{verify,charge_authorization}, src/doc/payments/recurring-charges/*
 * - Wrong PIN/OTP: [DCS] submit-* `200_failed` samples (`data.status: failed` with `data.message`),
 *   https://docs-v2.paystack.com/api/errors/charge (too many incorrect OTPs: wait and retry; a wrong mobile-money OTP:
 *   "Show the error to the customer and ask for correct OTP") and the support article "Customer errors"
 *   https://support.paystack.com/hc/en-us/articles/360013597919 ("Incorrect PIN", "Incorrect Date of Birth": the
 *   transaction failed, the customer retries it)
 * - Hyperswitch's connector: juspay/hyperswitch crates/hyperswitch_connectors/src/connectors/paystack/transformers.rs
 *   (`get_error_message`)
 */
import type { Currency } from '../../domain/money';
import { authenticationAction, type NextAction, type PaymentMethod } from '../../domain/payment';
import type { PaymentResult, RefundResult, SavedCardDetails, SavedMethodToken } from '../connector';
import { declineOf, PAYSTACK_REFUND_NEEDS_ATTENTION_CODE, slug } from './decline-codes';
import { fromPaystackAmount } from './money';
import { isKey, PAYSTACK_CHARGE_STATUS, PAYSTACK_REFUND_STATUS, PAYSTACK_STEP_OF_STATUS, PAYSTACK_TRANSACTION_STATUS } from './statuses';
import type { PaystackAuthorization, PaystackChargeData, PaystackCustomer, PaystackErrorBody, PaystackTransactionData } from './wire-types';

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
 * `PAYSTACK_CHARGE_STATUSES` (./statuses.ts) (e.g. `failed` after a wrong PIN, or `send_otp` again when Paystack
 * keeps the step open), with or without a reference (the birthday step's `send_otp` sample has none).
 * @returns the charge data, or null for a plain error body (`{status: false, message}`)
 */
export function chargeDataOfErrorBody(body: unknown): PaystackChargeData | null {
  const data = (body as { data?: unknown } | null)?.data as PaystackChargeData | undefined;
  if (!data || typeof data !== 'object' || typeof data.status !== 'string') return null;
  return isKey(PAYSTACK_CHARGE_STATUS, data.status) ? data : null;
}

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
    Object.assign(result, declineOf(data, data.status));
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
  if (status === 'Failed') Object.assign(result, declineOf(data, 'failed'));
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
