/**
 * Flutterwave's answers → Switchyard's results: a charge, a validation, a verified transaction and a capture →
 * a payment result (status, next action or authentication step, decline, saved card), a refund → a refund result,
 * a 4xx body or an `"error"` envelope → the processor's code and message, and the credential check's answer.
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
 * - [RS] Refund statuses: https://developer.flutterwave.com/v3.0.0/docs/refunds ("completed: Refund has been initiated and is
 *   pending disbursement…"), https://developer.flutterwave.com/docs/collecting-payments/refunds ("completed: General status
 *   for completed refunds for cards and other payment types") and https://flutterwaveinc.mintlify.app/other-features/refunds
 *   ("complete: General status for completed refunds"). See docs/connectors/flutterwave.md for the decision.
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *   https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [SDK] The official Node SDK flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *   services/charge/encryp.js (3DES-ECB), services/schema/create.js and base.js (the joi request schemas the
 *   contract tests validate every body against), documentation/collections.md and documentation/transactions.md
 *   (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
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
import { type AuthenticationStep, authenticationAction, type NextAction } from '../../domain/payment';
import { type AuthorizeRequest, ConnectorRequestError, type PaymentResult, type RefundResult } from '../connector';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';
import { declineOf, slugOf } from './decline-codes';
import { majorToMinor } from './money';
import { cardStepReference } from './references';
import { BANK_TRANSFER_EXPIRES_SECONDS } from './requests';
import { withSavedMethod } from './saved-cards';
import { FLUTTERWAVE_AUTH_MODES, paymentStatusOf, refundStatusOf } from './statuses';
import type { FlutterwaveChargeType } from './supported-methods';
import type { FlutterwaveAuthorization, FlutterwaveRefund, FlutterwaveResponse, FlutterwaveTransaction } from './wire-types';

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
 * Whether a body is the answer of `GET /v3/balances`: `{status: "success", message: "Wallet balances fetched",
 * data: [{currency, available_balance, ledger_balance}, …]}` (flutterwave-node-v3 1.4.1 `documentation/misc.md`
 * "Get all wallet balances", Sample Response). Only the envelope is read.
 */
export function isFlutterwaveBalances(body: unknown): boolean {
  const b = body as { status?: unknown; data?: unknown } | null;
  return !!b && typeof b === 'object' && b.status === 'success' && Array.isArray(b.data);
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

/** What mapping a charge response needs to know about the request. */
export interface ChargeContext {
  /** `publicBaseUrl` builds the hosted page of an authentication step (`next_action.redirect_to_url`). */
  request: Pick<AuthorizeRequest, 'amount' | 'currency' | 'paymentId' | 'captureMethod' | 'publicBaseUrl'>;
  type: FlutterwaveChargeType;
  /** The clock in epoch ms (expiry fallbacks). */
  now: number;
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
 * - `data.status` through `FLUTTERWAVE_PAYMENT_STATUS` (./statuses.ts) (preauth: `FLUTTERWAVE_PREAUTH_STATUS` (./statuses.ts));
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
  /** What `pending` means for this payment (`FLUTTERWAVE_PENDING_STATUS` (./statuses.ts)). */
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
 * id to record (`connectorRefundId` null; `ourPreauthRefund` (./lookups.ts) finds the refund in `GET /v3/refunds` when an
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
