import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import { logger } from '../../observability/logger';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  type Connector,
  type ConnectorDispute,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type DisputeEvidenceFile,
  type DisputeRef,
  type InboundWebhook,
  type PaymentResult,
  type RefundLookupRequest,
  type RefundResult,
  type SavedMethodCharge,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
} from '../connector';
import { type ConnectorOperation, connectorFetch, timeoutFor, verifyCredentialsFetch } from '../connector-http';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';
import { PAYSTACK_REFUND_NEEDS_ATTENTION_CODE } from './decline-codes';
import {
  hasMoreRefundPages,
  isReferenceNotFound,
  ourPaystackRefund,
  PAYSTACK_NOT_FOUND_SETTLE_MS,
  PAYSTACK_REFUND_LIST_MAX_PAGES,
  PAYSTACK_REFUND_LOOKUP_SETTLE_MS,
  refundListQuery,
} from './lookups';
import { buildAcceptResolution, buildDeclineResolution, buildPaystackEvidence, disputeFromPaystack } from './paystack-disputes';
import { authenticationSecrets, jsonWithoutSecrets } from './redaction';
import { paystackReference } from './references';
import {
  buildBankTransferCharge,
  buildCardCharge,
  buildCardCheckout,
  buildChargeAuthorization,
  buildDeactivateAuthorization,
  buildMobileMoneyCharge,
  buildRefund,
  buildSubmitRequest,
  buildUssdCharge,
  PAYSTACK_BALANCE_PATH,
  PAYSTACK_CHARGE_AUTHORIZATION_PATH,
  PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH,
} from './requests';
import {
  type ChargeContext,
  chargeAuthorizationToPaymentResult,
  chargeDataOfErrorBody,
  chargeToPaymentResult,
  declinedChargeOf,
  isInvalidKeyAnswer,
  isPaystackBalanceResponse,
  paystackErrorOf,
  refundToRefundResult,
  transactionToPaymentResult,
} from './responses';
import { PAYSTACK_ACCEPT_RESOLUTION, PAYSTACK_DECLINE_RESOLUTION } from './statuses';
import { paystackSupports } from './supported-methods';
import { PAYSTACK_DISPUTE_TIMEOUTS_MS, PAYSTACK_TIMEOUTS_MS } from './timeouts';
import { PaystackTransfers } from './transfers';
import { parsePaystackWebhook } from './webhooks';
import type {
  PaystackChargeData,
  PaystackChargeRequest,
  PaystackDisputeData,
  PaystackEnvelope,
  PaystackInitializeData,
  PaystackRefundData,
  PaystackRefundList,
  PaystackTransactionData,
  PaystackUploadUrlData,
} from './wire-types';

/** Configuration of {@link PaystackConnector}. Keys come from configuration only (Secrets Manager, env). */
export interface PaystackConnectorConfig {
  /** `https://api.paystack.co` in test and live mode (the key decides the mode); a local fixture server in tests. */
  baseUrl: string;
  /** The secret key (`sk_test_…` / `sk_live_…`), sent as `Authorization: Bearer …`. Never logged or returned. */
  secretKey: string;
  /**
   * The key webhooks are verified with. Paystack signs events with the integration's secret key
   * ("HMAC SHA512 signature of the event payload signed using your secret key",
   * https://paystack.com/docs/payments/webhooks/), so this is the same value as {@link secretKey};
   * an empty string falls back to {@link secretKey}.
   */
  webhookSecret: string;
  /**
   * Timeout of every Paystack call, in milliseconds (`CONNECTOR_TIMEOUT_MS`). Unset, each operation
   * uses {@link PAYSTACK_TIMEOUTS_MS}.
   */
  timeoutMs?: number;
  /**
   * Validity of a Pay with Transfer / Pesalink account, in minutes (default 30), clamped to what
   * Paystack accepts: 15 minutes to 8 hours in NGN, under 25 minutes in KES.
   */
  bankTransferExpiryMinutes?: number;
  /**
   * The integration's Payment Session Timeout on Paystack, in seconds (default 86400). Paystack
   * returns no expiry with a USSD code ("sessions on Paystack never expire" unless the merchant sets
   * this timeout, https://docs-v1.paystack.com/docs/payment-session-timeouts), so the USSD
   * `expires_at` shown to the payer is now + this value.
   */
  paymentSessionTimeoutSeconds?: number;
  /** The clock (tests inject a fixed one). */
  now?: () => Date;
}

/**
 * Paystack as a {@link Connector}. See the module comment for the flows and
 * `supported-methods.ts` for the supported matrix ({@link paystackSupports}) and `statuses.ts` for the status tables.
 */
export class PaystackConnector implements Connector {
  readonly name = PAYSTACK_CONNECTOR_NAME;
  private readonly baseUrl: string;
  private readonly secretKey: string;
  private readonly webhookSecret: string;
  private readonly timeoutMs: number | undefined;
  private readonly bankTransferExpiryMinutes: number;
  private readonly paymentSessionTimeoutSeconds: number;
  private readonly now: () => Date;

  /**
   * @param config see {@link PaystackConnectorConfig}
   * @throws Error when `secretKey` is empty (the message names the field, never a value)
   */
  private transfers: PaystackTransfers | undefined;

  /** Payouts as Paystack transfers (./transfers.ts), with this account's key and timeouts. */
  get payouts(): PaystackTransfers {
    this.transfers ??= new PaystackTransfers(<T>(kind: 'send' | 'read', method: 'GET' | 'POST', path: string, body?: unknown) =>
      this.call<T>(kind === 'send' ? 'refund' : 'sync', method, path, body),
    );
    return this.transfers;
  }

  constructor(config: PaystackConnectorConfig) {
    if (!config.secretKey) throw new Error('PaystackConnector: secretKey is required.');
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.secretKey = config.secretKey;
    this.webhookSecret = config.webhookSecret || config.secretKey;
    this.timeoutMs = config.timeoutMs;
    this.bankTransferExpiryMinutes = config.bankTransferExpiryMinutes ?? 30;
    this.paymentSessionTimeoutSeconds = config.paymentSessionTimeoutSeconds ?? 86_400;
    this.now = config.now ?? (() => new Date());
  }

  /**
   * @returns whether Paystack offers `paymentMethod` in `currency` (`PAYSTACK_SUPPORTED`, ./supported-methods.ts)
   *   and, for USSD with a chosen bank (`options.ussdBankCode`, a CBN code), whether Paystack serves
   *   that bank (`PAYSTACK_USSD_BANKS`)
   */
  supports(currency: Currency, paymentMethod: PaymentMethod, options?: { ussdBankCode?: string }): boolean {
    return paystackSupports(currency, paymentMethod, options);
  }

  /**
   * Starts a Paystack charge; Paystack charges capture at once.
   * @returns Succeeded, Failed (a decline), Processing (`pending`) or RequiresAction with the next
   *   action (3-D Secure URL, hosted checkout, USSD code, transfer account, mobile-money prompt, or an
   *   authentication step `submit_pin|otp|phone|birthday|address` answered with {@link authenticate})
   * @throws ConnectorRequestError before any call for manual capture (`capture_method_not_supported`),
   *   an unsupported (currency, method) (`payment_method_not_supported`), a missing email
   *   (`email_required`, Paystack requires one), an unusable phone (mobile money) or USSD bank
   *   (`ussd_bank_required`, `ussd_bank_not_supported`); on a Paystack 4xx with Paystack's code (a 4xx
   *   that describes a failed charge is a Failed result instead)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx: the reference lets sync settle it
   *
   * With `request.savedMethod` the saved authorization is charged instead (see {@link chargeAuthorization});
   * `setupFutureUsage`, `customer` and `offSession` change nothing that is sent: Paystack returns a reusable
   * authorization with every successful card payment (the result's `savedMethod`), keys customers by e-mail,
   * and has no merchant-initiated flag.
   */
  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    if (request.captureMethod === 'manual') {
      throw new ConnectorRequestError(
        this.name,
        'capture_method_not_supported',
        'Paystack captures card and offline payments at once: capture_method manual is not supported.',
      );
    }
    if (!this.supports(request.currency, request.paymentMethod)) {
      throw new ConnectorRequestError(
        this.name,
        'payment_method_not_supported',
        `Paystack does not offer ${request.paymentMethod} in ${request.currency}.`,
      );
    }
    if (request.savedMethod) return this.chargeAuthorization(request, request.savedMethod);
    if (!request.email)
      throw new ConnectorRequestError(this.name, 'email_required', "Paystack needs the customer's email address to create a charge.");
    const ctx = this.chargeContext(request, paystackReference(request.paymentId));

    if (request.paymentMethod === 'card' && !request.card) {
      const answer = await this.call<PaystackEnvelope<PaystackInitializeData>>(
        'authorize',
        'POST',
        '/transaction/initialize',
        buildCardCheckout(request, request.email),
      );
      return {
        status: 'RequiresAction',
        connectorTransactionId: answer.data.reference || ctx.reference,
        amountCaptured: 0,
        nextAction: { type: 'redirect_to_url', redirect_to_url: answer.data.authorization_url },
      };
    }

    let body: PaystackChargeRequest;
    switch (request.paymentMethod) {
      case 'card':
        body = buildCardCharge(request, request.email, request.card!);
        break;
      case 'bank_transfer':
        body = buildBankTransferCharge(request, request.email, this.bankTransferExpiryMinutes, this.now());
        break;
      case 'ussd':
        body = buildUssdCharge(request, request.email);
        break;
      case 'mobile_money':
        body = buildMobileMoneyCharge(request, request.email);
        break;
    }

    const seen: { declined: PaystackChargeData | null } = { declined: null };
    try {
      const answer = await this.call<PaystackEnvelope<PaystackChargeData>>('authorize', 'POST', '/charge', body, (status, errorBody) => {
        seen.declined = declinedChargeOf(errorBody);
        return paystackErrorOf(status, errorBody);
      });
      return chargeToPaymentResult(answer.data, ctx);
    } catch (err) {
      if (err instanceof ConnectorRequestError && seen.declined) return chargeToPaymentResult(seen.declined, ctx);
      throw err;
    }
  }

  /**
   * Relays the payer's answer to the step Paystack asked for: POST /charge/submit_pin, submit_otp,
   * submit_phone, submit_birthday or submit_address with the charge reference and the value
   * (`buildSubmitRequest`), timed out like authorize (60 s, `PAYSTACK_TIMEOUTS_MS.authorize`). The
   * answer is a charge and goes through `PAYSTACK_CHARGE_STATUS`, so a step may lead to another
   * (PIN, then OTP), to 3-D Secure, to a mobile-money approval prompt, or to the outcome.
   *
   * Wrong values, as Paystack answers them (docs/connectors/paystack.md "Wrong PIN or OTP"):
   * - `data.status: failed` (HTTP 200, or a 4xx whose body is the failed charge) → Failed with
   *   Paystack's `gateway_response` slug and `message` (e.g. "Incorrect PIN"): Paystack closed the charge;
   * - the same step asked again (`send_otp` after a wrong OTP), with `status: false` or a 4xx → still
   *   RequiresAction on that step, Paystack's message as errorCode (slug) / errorMessage: Paystack keeps
   *   the step open and the number of tries is Paystack's;
   * - a plain 4xx refusal (`{status: false, message}`, e.g. too many incorrect OTPs, "Transaction
   *   reference is invalid") → ConnectorRequestError with Paystack's code and message; nothing changed.
   * The PIN and OTP are never logged, returned, or left in an error message: every string of
   * Paystack's answer is scrubbed of them (`jsonWithoutSecrets`) before anything is derived from it.
   * @throws ConnectorRequestError before any call when the step's value is missing or malformed
   *   (`authentication_value_required`, `invalid_birthday`), or on a Paystack refusal as above
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx: the outcome is unknown, the
   *   reconciler syncs (GET /transaction/verify; Paystack asks to wait 10 s or more after an exception
   *   on a /charge call, PaystackOSS/openapi paths/charge_{reference}.yaml)
   */
  async authenticate(request: AuthenticateRequest): Promise<PaymentResult> {
    const secrets = authenticationSecrets(request);
    const { path, body } = buildSubmitRequest(request);
    const ctx = this.chargeContext(request, body.reference);
    const seen: { charge: PaystackChargeData | null; message: string | null } = { charge: null, message: null };
    let raw: PaystackEnvelope<PaystackChargeData>;
    try {
      raw = await this.call<PaystackEnvelope<PaystackChargeData>>('authorize', 'POST', path, body, (status, errorBody) => {
        const clean = jsonWithoutSecrets(errorBody, secrets);
        seen.charge = chargeDataOfErrorBody(clean);
        seen.message = typeof (clean as { message?: unknown } | null)?.message === 'string' ? (clean as { message: string }).message : null;
        return paystackErrorOf(status, clean);
      });
    } catch (err) {
      if (err instanceof ConnectorRequestError && seen.charge) return chargeToPaymentResult(seen.charge, ctx, seen.message);
      throw err;
    }
    const answer = jsonWithoutSecrets(raw, secrets);
    const data =
      answer.data && typeof answer.data === 'object' ? answer.data : ({ status: '', reference: ctx.reference } as PaystackChargeData);
    const refusal = answer.status === false && typeof answer.message === 'string' ? answer.message : null;
    return chargeToPaymentResult(data, ctx, refusal);
  }

  /**
   * Charges a saved method: POST /transaction/charge_authorization ({@link buildChargeAuthorization}: the
   * authorization's e-mail — the saved method's, else the payment's —, the amount in subunits, the
   * `authorization_code`, our reference `paystackReference(paymentId)`, the currency, stringified metadata
   * and our return URL as `callback_url`), timed out like any charge (`PAYSTACK_TIMEOUTS_MS.authorize`, 60 s).
   * The answer is mapped by `chargeAuthorizationToPaymentResult`: success → Succeeded (with `savedMethod`),
   * failed → Failed with Paystack's `gateway_response` (a 4xx whose body is the failed charge too),
   * a step or `open_url` or a Two-Factor challenge (`paused`) → RequiresAction with its next action, so a
   * charge that needs the payer is never a silent failure, whether the payer is present or not.
   * The authorization code is scrubbed from every text of Paystack's answer before a code or message is
   * derived from it (`jsonWithoutSecrets`), so no error carries it.
   * @throws ConnectorRequestError before any call: `saved_method_not_supported` for a method other than a
   *   card (Paystack's authorizations are card authorizations: "This currently only works for card",
   *   https://paystack.com/docs/payments/recurring-charges/), `email_required` without an e-mail,
   *   `saved_method_invalid` for an unusable token; after the call, on a Paystack 4xx with Paystack's code
   *   (e.g. `authorization_code_does_not_exist_or_has_been_deactivated`, or the e-mail not matching)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx: the charge may have happened;
   *   `sync` finds it by our reference (GET /transaction/verify/:reference)
   */
  private async chargeAuthorization(request: AuthorizeRequest, savedMethod: SavedMethodCharge): Promise<PaymentResult> {
    if (request.paymentMethod !== 'card') {
      throw new ConnectorRequestError(
        this.name,
        'saved_method_not_supported',
        `Paystack charges saved payment methods for cards only, not ${request.paymentMethod}.`,
      );
    }
    const email = savedMethod.email || request.email;
    if (!email)
      throw new ConnectorRequestError(this.name, 'email_required', 'Paystack needs the e-mail the saved card belongs to, to charge it.');
    const body = buildChargeAuthorization(request, savedMethod, email);
    const secrets = [body.authorization_code];
    const ctx = this.chargeContext(request, body.reference);
    const seen: { declined: PaystackChargeData | null } = { declined: null };
    try {
      const raw = await this.call<PaystackEnvelope<PaystackChargeData>>(
        'authorize',
        'POST',
        PAYSTACK_CHARGE_AUTHORIZATION_PATH,
        body,
        (status, errorBody) => {
          const clean = jsonWithoutSecrets(errorBody, secrets);
          seen.declined = declinedChargeOf(clean);
          return paystackErrorOf(status, clean);
        },
      );
      const answer = jsonWithoutSecrets(raw, secrets);
      const data =
        answer?.data && typeof answer.data === 'object' ? answer.data : ({ status: '', reference: ctx.reference } as PaystackChargeData);
      return chargeAuthorizationToPaymentResult(data, ctx);
    } catch (err) {
      if (err instanceof ConnectorRequestError && seen.declined) return chargeAuthorizationToPaymentResult(seen.declined, ctx);
      throw err;
    }
  }

  /**
   * Deactivates a saved method at Paystack: POST /customer/authorization/deactivate `{authorization_code}`
   * ("Deactivate Authorization", https://paystack.com/docs/api/customer/#deactivate-authorization; [OAS]
   * paths/customer_authorization_deactivate.yaml; [DCS] src/api/customers/deactivate-authorization: `200`
   * `{"status": true, "message": "Authorization has been deactivated"}`, `404` `Authorization code not found.`).
   * The path is the one Paystack documents now; the older `/customer/deactivate_authorization` was moved there
   * (see `PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH`). Timeout: `PAYSTACK_TIMEOUTS_MS.void` (30 s; `ConnectorOperation`
   * has no entry of its own for it — deactivating moves no money and may simply be sent again).
   * @returns when Paystack answers 2xx with `status: true`
   * @throws ConnectorRequestError before any call for an unusable token (`saved_method_invalid`); on a 4xx or a
   *   2xx `status: false` with Paystack's code (e.g. `authorization_code_not_found` — unknown to this account,
   *   or already deactivated); the code is scrubbed from Paystack's text first, so no message carries it
   * @throws ConnectorTechnicalError on timeout, network error, 409, 5xx or a 2xx that is not Paystack's envelope
   */
  async detachSavedMethod(request: SavedMethodCharge): Promise<void> {
    const body = buildDeactivateAuthorization(request);
    const secrets = [body.authorization_code];
    const errorOf = (status: number, errorBody: unknown) => paystackErrorOf(status, jsonWithoutSecrets(errorBody, secrets));
    const answer = await this.call<{ status?: unknown; message?: unknown }>(
      'void',
      'POST',
      PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH,
      body,
      errorOf,
    );
    if (answer?.status === true) return;
    if (answer?.status === false) {
      const { code, message } = errorOf(200, answer);
      throw new ConnectorRequestError(this.name, code, message);
    }
    throw new ConnectorTechnicalError(
      this.name,
      'Paystack answered the authorization deactivation with something other than its envelope; the outcome is unknown.',
    );
  }

  /**
   * Never succeeds: authorize refuses manual capture, so no Paystack payment waits for one.
   * @throws ConnectorRequestError `capture_not_supported`, without calling Paystack
   */
  async capture(_request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    throw new ConnectorRequestError(
      this.name,
      'capture_not_supported',
      'Paystack charges are captured at authorization; there is nothing to capture.',
    );
  }

  /**
   * Cancels a payment that is still waiting on the payer. Paystack has no cancel call for an open
   * charge (a Pay with Transfer account lapses at its expiry, a mobile-money prompt after 180 s, a
   * USSD code with the payment session), so this verifies the transaction and, unless Paystack has
   * already taken the money, answers Cancelled. A payer who completes the open charge after that
   * produces a `charge.success` for a cancelled payment: that money must be refunded by an operator.
   * @returns Cancelled (amountCaptured 0)
   * @throws ConnectorRequestError `charge_already_succeeded` when the transaction succeeded (refund it
   *   instead), or Paystack's code on a 4xx (e.g. an unknown reference)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async void(request: TransactionRef): Promise<PaymentResult> {
    const answer = await this.verify('void', request.connectorTransactionId);
    if (answer.data.status === 'success') {
      throw new ConnectorRequestError(
        this.name,
        'charge_already_succeeded',
        'Paystack has already completed this charge; refund it instead of cancelling.',
      );
    }
    return { status: 'Cancelled', connectorTransactionId: answer.data.reference || request.connectorTransactionId, amountCaptured: 0 };
  }

  /**
   * POST /refund for `amount` minor units of the transaction (by its reference). Paystack takes no
   * idempotency key on refunds: a retried call after a timeout may refund twice, so the caller must
   * settle an unknown outcome with {@link findRefund} (by our refund id, in `merchant_note`), not by calling this again.
   * @returns the refund, usually Pending (`pending`, "queued for processing")
   * @throws ConnectorRequestError with Paystack's code on a 4xx (e.g. amount above what is refundable)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    const body = buildRefund(request.connectorTransactionId, request.amount, request.currency, request.refundId);
    const answer = await this.call<PaystackEnvelope<PaystackRefundData>>('refund', 'POST', '/refund', body);
    return this.refundResult(answer.data.status, String(answer.data.id), {
      refundId: request.refundId,
      transactionReference: request.connectorTransactionId,
      message: answer.data.reason,
    });
  }

  /** What a charge answer is mapped with (`chargeToPaymentResult`), for the payment of `request` under `reference`. */
  private chargeContext(
    request: Pick<ChargeContext, 'paymentId' | 'publicBaseUrl' | 'paymentMethod' | 'amount' | 'currency'>,
    reference: string,
  ): ChargeContext {
    const { paymentId, publicBaseUrl, paymentMethod, amount, currency } = request;
    return { paymentId, publicBaseUrl, paymentMethod, amount, currency, reference, ussdExpiresAt: this.ussdExpiresAt() };
  }

  /**
   * Paystack's view of a payment: GET /transaction/verify/:reference, with the reference derived
   * from our payment id when `connectorTransactionId` is null (an authorize that timed out).
   * Paystack's "reference not found" answer (`isReferenceNotFound`: 404 `Entity not found`, the
   * documented body in PaystackOSS/openapi, or 400 `Transaction reference not found`) means the
   * charge never reached Paystack once {@link PAYSTACK_NOT_FOUND_SETTLE_MS} has passed since the
   * payment's creation: `Failed` (`transaction_not_found`) with `notFound: true`, on which routing
   * may fall back. Before that it is `Processing` (the charge may still be in flight).
   * A transaction still waiting on the payer (`ongoing`) is refined, when `request.publicBaseUrl` is
   * known, by GET /charge/:reference ("Check pending charge",
   * PaystackOSS/openapi `paths/charge_{reference}.yaml`), which names the step Paystack waits for now
   * (`send_otp` after a PIN whose answer was lost); a failure of that check keeps verify's answer.
   * @returns the transaction mapped through `PAYSTACK_TRANSACTION_STATUS`, or the not-found result above
   * @throws ConnectorRequestError on any other 4xx
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    const reference = request.connectorTransactionId ?? paystackReference(request.paymentId);
    const seen = { notFound: false };
    let answer: PaystackEnvelope<PaystackTransactionData>;
    try {
      answer = await this.verify('sync', reference, (status, body) => {
        seen.notFound = isReferenceNotFound(status, body);
        return paystackErrorOf(status, body);
      });
    } catch (err) {
      if (!(err instanceof ConnectorRequestError) || !seen.notFound) throw err;
      const ageMs = this.now().getTime() - Date.parse(request.createdAt);
      if (!(ageMs >= PAYSTACK_NOT_FOUND_SETTLE_MS))
        return { status: 'Processing', connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
      return {
        status: 'Failed',
        connectorTransactionId: request.connectorTransactionId,
        amountCaptured: 0,
        errorCode: 'transaction_not_found',
        errorMessage: "Paystack has no transaction under this payment's reference: the charge never reached Paystack.",
        notFound: true,
      };
    }
    const verified = transactionToPaymentResult({ ...answer.data, reference: answer.data.reference || reference });
    if (verified.status !== 'RequiresAction' || !request.publicBaseUrl || !request.paymentMethod) return verified;
    // Verify says only "ongoing": Paystack's "Check pending charge" names the step it waits for now
    // (after a PIN whose answer was lost, the OTP), so the payer is asked the right question.
    try {
      const pending = await this.call<PaystackEnvelope<PaystackChargeData>>('sync', 'GET', `/charge/${encodeURIComponent(reference)}`);
      if (!pending.data || typeof pending.data !== 'object') return verified;
      const current = chargeToPaymentResult(
        pending.data,
        this.chargeContext({ ...request, publicBaseUrl: request.publicBaseUrl, paymentMethod: request.paymentMethod }, reference),
      );
      // Only a step (or a redirect) refines "ongoing"; any other answer is left to verify's, the record of the transaction.
      return current.status === 'RequiresAction' && current.nextAction ? current : verified;
    } catch {
      return verified;
    }
  }

  /**
   * Finds our refund at Paystack when its outcome is unknown (we hold no Paystack refund id):
   * GET /transaction/verify/:reference for the transaction's numeric id, then GET
   * /refund?transaction=<id>&from=<our record − 1 h>&perPage=50&page=N for every page (`meta.pageCount`),
   * and the refund whose `merchant_note` is ours (`ourPaystackRefund`, which documents the
   * ambiguity rules). Once {@link PAYSTACK_REFUND_LOOKUP_SETTLE_MS} has passed since `createdAt` an
   * absent refund is known never to have been created.
   * @returns the refund mapped through `PAYSTACK_REFUND_STATUS` (with Paystack's refund id); `Pending`
   *   with a null id when absent within the settle window; null when absent after it
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx; when the match is ambiguous
   *   (several refunds with our note, or one of our amount without any note) or ours has another
   *   amount or currency; after `PAYSTACK_REFUND_LIST_MAX_PAGES` pages
   * @throws ConnectorRequestError on a 4xx (e.g. the transaction reference is unknown)
   */
  async findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    const verified = await this.verify('findRefund', request.connectorTransactionId);
    const transaction = { id: verified.data.id, reference: verified.data.reference || request.connectorTransactionId };
    if (typeof transaction.id !== 'number') {
      throw new ConnectorTechnicalError(
        this.name,
        `Paystack's verify answer for ${request.connectorTransactionId} has no transaction id; the refund lookup cannot list its refunds.`,
      );
    }
    const refunds: PaystackRefundData[] = [];
    for (let page = 1; ; page += 1) {
      if (page > PAYSTACK_REFUND_LIST_MAX_PAGES) {
        throw new ConnectorTechnicalError(
          this.name,
          `More than ${PAYSTACK_REFUND_LIST_MAX_PAGES} pages of Paystack refunds for transaction ${transaction.id}; the lookup of refund ${request.refundId} needs an operator.`,
        );
      }
      const list = await this.call<PaystackRefundList>(
        'findRefund',
        'GET',
        `/refund?${refundListQuery(transaction.id, request.createdAt, page).toString()}`,
      );
      refunds.push(...(Array.isArray(list.data) ? list.data : []));
      if (!hasMoreRefundPages(list, page)) break;
    }
    const ours = ourPaystackRefund(refunds, transaction, request);
    if (ours)
      return this.refundResult(ours.status, String(ours.id), {
        refundId: request.refundId,
        transactionReference: transaction.reference,
        message: ours.reason,
      });
    const ageMs = this.now().getTime() - Date.parse(request.createdAt);
    if (!(ageMs >= PAYSTACK_REFUND_LOOKUP_SETTLE_MS)) return { status: 'Pending', connectorRefundId: null };
    return null;
  }

  /**
   * Paystack's view of a refund: GET /refund/:id.
   * @throws ConnectorRequestError on a 4xx; ConnectorTechnicalError on timeout, network error or 5xx
   */
  async syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    const answer = await this.call<PaystackEnvelope<PaystackRefundData>>(
      'syncRefund',
      'GET',
      `/refund/${encodeURIComponent(request.connectorRefundId)}`,
    );
    return this.refundResult(answer.data.status, String(answer.data.id ?? request.connectorRefundId), {
      refundId: request.refundId,
      transactionReference: answer.data.transaction_reference ?? null,
      message: answer.data.reason,
    });
  }

  /**
   * Verifies and maps a webhook: ./webhooks.ts {@link parsePaystackWebhook} (signature, events), with this account's
   * secret and, for a refund event without a refund id, its lookups (GET /transaction/verify/:reference then
   * GET /refund?transaction=<id>, the `webhook` timeout).
   * @throws what {@link parsePaystackWebhook} throws
   */
  async parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    return parsePaystackWebhook(webhook, this.webhookSecret, {
      transactionId: async (reference) => (await this.verify('webhook', reference)).data.id,
      refundsOf: async (transactionId) =>
        (
          await this.call<PaystackEnvelope<PaystackRefundData[]>>(
            'webhook',
            'GET',
            `/refund?transaction=${encodeURIComponent(String(transactionId))}`,
          )
        ).data ?? [],
      refundResult: (status, connectorRefundId, context) => this.refundResult(status, connectorRefundId, context),
    });
  }

  /**
   * Checks that Paystack accepts the secret key: one read-only `GET /balance` ("Check Balance",
   * https://paystack.com/docs/api/transfer-control/; PaystackOSS/openapi `paths/balance.yaml`) with
   * `Authorization: Bearer`, no body, timeout `PAYSTACK_TIMEOUTS_MS.verifyCredentials` (10 s; `timeoutMs`
   * overrides). Nothing changes at Paystack.
   * @returns when Paystack answers 2xx with its balance envelope ({@link isPaystackBalanceResponse})
   * @throws ConnectorRequestError `invalid_credentials` on 401 or 403, or Paystack's `{"status": false, "message":
   *   "Invalid key"}` with any 4xx ({@link isInvalidKeyAnswer}); the message never holds the key
   * @throws ConnectorRequestError with Paystack's code and message for any other 4xx (the key masked out)
   * @throws ConnectorTechnicalError on timeout, network error, 5xx, or a 2xx that is not the balance envelope
   */
  async verifyCredentials(): Promise<void> {
    await verifyCredentialsFetch({
      connector: this.name,
      url: `${this.baseUrl}${PAYSTACK_BALANCE_PATH}`,
      headers: { Authorization: `Bearer ${this.secretKey}` },
      timeoutMs: timeoutFor(PAYSTACK_TIMEOUTS_MS, 'verifyCredentials', this.timeoutMs),
      secret: this.secretKey,
      errorOf: paystackErrorOf,
      keyRefused: isInvalidKeyAnswer,
      accepts: isPaystackBalanceResponse,
      expected: 'its balance envelope',
    });
  }

  /**
   * A refund status → our result (`refundToRefundResult`); a `needs-attention` refund is also logged
   * as a warning (`Paystack refund needs attention`) with every reference known — Paystack's refund id
   * and `refund_reference`, the transaction reference, our refund id, the event — so an operator can
   * retry it on Paystack (with the customer's bank details) before the customer is left unpaid.
   */
  private refundResult(
    status: string,
    connectorRefundId: string | null,
    context: {
      refundId: string | null;
      transactionReference: string | null;
      refundReference?: string | null;
      message?: string | null;
      event?: string;
    },
  ): RefundResult {
    const result = refundToRefundResult(status, connectorRefundId, context.message);
    if (result.errorCode === PAYSTACK_REFUND_NEEDS_ATTENTION_CODE) {
      logger.warn('Paystack refund needs attention', {
        connector: this.name,
        error_code: PAYSTACK_REFUND_NEEDS_ATTENTION_CODE,
        connector_refund_id: connectorRefundId,
        refund_reference: context.refundReference ?? null,
        transaction_reference: context.transactionReference,
        refund_id: context.refundId,
        event: context.event ?? null,
        message: result.errorMessage,
      });
    }
    return result;
  }

  /** `expires_at` shown with a USSD code: now + the integration's payment session timeout. */
  private ussdExpiresAt(): string {
    return new Date(this.now().getTime() + this.paymentSessionTimeoutSeconds * 1000).toISOString();
  }

  /** GET /transaction/verify/:reference, with the timeout of `operation`. */
  private verify(
    operation: ConnectorOperation,
    reference: string,
    errorOf?: (status: number, body: unknown) => { code: string; message: string },
  ): Promise<PaystackEnvelope<PaystackTransactionData>> {
    return this.call<PaystackEnvelope<PaystackTransactionData>>(
      operation,
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
      undefined,
      errorOf,
    );
  }

  /**
   * One Paystack call: the documented headers (bearer key; JSON content type when there is a body),
   * the operation's timeout ({@link PAYSTACK_TIMEOUTS_MS}, or the configured override), and
   * Paystack's error body mapped by {@link paystackErrorOf}.
   */
  private call<T>(
    operation: ConnectorOperation | 'disputeRead' | 'disputeWrite',
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    errorOf: (status: number, body: unknown) => { code: string; message: string } = paystackErrorOf,
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.secretKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return connectorFetch<T>({
      connector: this.name,
      method,
      url: `${this.baseUrl}${path}`,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: this.timeoutOf(operation),
      errorOf,
    });
  }

  /** Milliseconds of one call: the configured override, else the table of the operation ({@link PAYSTACK_DISPUTE_TIMEOUTS_MS} for disputes). */
  private timeoutOf(operation: ConnectorOperation | 'disputeRead' | 'disputeWrite'): number {
    if (operation === 'disputeRead' || operation === 'disputeWrite') {
      const table = operation === 'disputeRead' ? PAYSTACK_DISPUTE_TIMEOUTS_MS.read : PAYSTACK_DISPUTE_TIMEOUTS_MS.write;
      return this.timeoutMs !== undefined && Number.isFinite(this.timeoutMs) && this.timeoutMs > 0 ? this.timeoutMs : table;
    }
    return timeoutFor(PAYSTACK_TIMEOUTS_MS, operation, this.timeoutMs);
  }

  /* ---------------------------------------------------------------------------------- disputes */

  /**
   * Paystack's view of a dispute: `GET /dispute/:id` ([OAS] `paths/dispute_{id}.yaml`), mapped by `disputeFromPaystack`
   * (status table: `PAYSTACK_DISPUTE_STATUS` / `PAYSTACK_DISPUTE_RESOLUTION` in ./statuses.ts). Changes nothing.
   * @throws ConnectorRequestError on a 4xx (404 `Entity not found` for another account's or an unknown id)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx, or an answer without the dispute's
   *   status, amount or currency
   */
  async fetchDispute(request: DisputeRef): Promise<ConnectorDispute> {
    return this.disputeOf(await this.readDispute(request), request);
  }

  /**
   * Accepts a dispute: reads it (`GET /dispute/:id`, for its `refund_amount`), then `PUT /dispute/:id/resolve` with
   * `{resolution: "merchant-accepted", message: "Merchant accepted", refund_amount}` ([OAS] DisputeResolve; [DCS]
   * `src/api/disputes/resolve/index.sh`), no `uploaded_filename` (see `buildAcceptResolution`). An already accepted
   * dispute is answered as it is, without a second resolve.
   * @returns the dispute after it (the resolve answer mapped; Paystack's sample answers `resolved` / `merchant-accepted`)
   * @throws ConnectorRequestError on a 4xx; ConnectorTechnicalError on timeout, network error, 409 or 5xx (unknown:
   *   the core reads the dispute back)
   */
  async acceptDispute(request: DisputeRef): Promise<ConnectorDispute> {
    const current = await this.readDispute(request);
    const before = this.disputeOf(current, request);
    if (before.status === 'dispute_accepted') return before;
    const answer = await this.call<PaystackEnvelope<PaystackDisputeData>>(
      'disputeWrite',
      'PUT',
      `${this.disputePath(request)}/resolve`,
      buildAcceptResolution(before.amount, PAYSTACK_ACCEPT_RESOLUTION),
    );
    return this.disputeAfter(answer, request);
  }

  /**
   * Relays evidence, and submits it when `submit`:
   * 1. `GET /dispute/:id` (the customer's e-mail, name and phone Paystack requires with evidence);
   * 2. per file, `GET /dispute/:id/upload_url?upload_filename=<name>` ([OAS] `paths/dispute_{id}_upload_url.yaml`), then
   *    `PUT <signedUrl>` with the bytes and the file's media type, without our key ([DCS]
   *    `src/doc/payments/disputes/upload-url/index.js`; the signed URL is S3's);
   * 3. `POST /dispute/:id/evidence` with `buildPaystackEvidence` (the field mapping is documented there);
   * 4. when `submit`: `PUT /dispute/:id/resolve` with `{resolution: "declined", message, refund_amount: 0,
   *    uploaded_filename: <Paystack's name of the first file>}` (`buildDeclineResolution`).
   * @returns the dispute after it (the resolve answer when submitted, else `GET /dispute/:id` again)
   * @throws ConnectorRequestError before any write when `submit` comes without a file (`evidence_file_required`: Paystack
   *   asks for a document to decline) or a required evidence field cannot be filled (`evidence_incomplete`); on a 4xx
   *   (an upload refused: `upload_refused`)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx of any call
   */
  async submitDisputeEvidence(
    request: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
  ): Promise<ConnectorDispute> {
    if (request.submit && request.files.length === 0) {
      throw new ConnectorRequestError(
        this.name,
        'evidence_file_required',
        'Paystack needs a document (an uploaded file) to decline a dispute: submit the evidence with at least one file.',
      );
    }
    const current = await this.readDispute(request);
    const evidence = buildPaystackEvidence(request.evidence, current);
    const uploaded: string[] = [];
    for (const file of request.files) uploaded.push(await this.uploadEvidenceFile(request, file));
    await this.call<PaystackEnvelope<unknown>>('disputeWrite', 'POST', `${this.disputePath(request)}/evidence`, evidence);
    if (!request.submit) return this.fetchDispute(request);
    const answer = await this.call<PaystackEnvelope<PaystackDisputeData>>(
      'disputeWrite',
      'PUT',
      `${this.disputePath(request)}/resolve`,
      buildDeclineResolution(request.evidence, uploaded[0] as string, PAYSTACK_DECLINE_RESOLUTION),
    );
    return this.disputeAfter(answer, request);
  }

  /** `/dispute/<id>` of a dispute. */
  private disputePath(request: DisputeRef): string {
    return `/dispute/${encodeURIComponent(request.connectorDisputeId)}`;
  }

  /** `GET /dispute/:id` → Paystack's dispute `data`. */
  private async readDispute(request: DisputeRef): Promise<PaystackDisputeData> {
    const answer = await this.call<PaystackEnvelope<PaystackDisputeData>>('disputeRead', 'GET', this.disputePath(request));
    return answer.data ?? {};
  }

  /** A Paystack dispute mapped, or a technical error when Paystack's answer lacks what the mapping needs. */
  private disputeOf(data: PaystackDisputeData, request: DisputeRef): ConnectorDispute {
    const dispute = disputeFromPaystack({ ...data, currency: data.currency ?? data.transaction?.currency ?? request.currency });
    if (!dispute) {
      throw new ConnectorTechnicalError(
        this.name,
        `Paystack's answer for dispute ${request.connectorDisputeId} has no id, status, amount or currency this service can read.`,
      );
    }
    return dispute;
  }

  /** The dispute a resolve answered, mapped; read again when the answer is not enough. */
  private async disputeAfter(answer: PaystackEnvelope<PaystackDisputeData>, request: DisputeRef): Promise<ConnectorDispute> {
    const data = answer.data ?? {};
    const mapped = disputeFromPaystack({ ...data, id: data.id ?? request.connectorDisputeId });
    return mapped ?? this.fetchDispute(request);
  }

  /**
   * One evidence file to Paystack: `GET /dispute/:id/upload_url?upload_filename=<filename>`, then the bytes `PUT` to
   * `signedUrl` (no Authorization header: the URL carries its own signature, and our key must never leave for S3).
   * @returns Paystack's `fileName` of the upload (what `uploaded_filename` names)
   */
  private async uploadEvidenceFile(request: DisputeRef, file: DisputeEvidenceFile): Promise<string> {
    const query = new URLSearchParams({ upload_filename: file.filename }).toString();
    const answer = await this.call<PaystackEnvelope<PaystackUploadUrlData>>(
      'disputeRead',
      'GET',
      `${this.disputePath(request)}/upload_url?${query}`,
    );
    const signedUrl = answer.data?.signedUrl;
    const fileName = answer.data?.fileName;
    if (typeof signedUrl !== 'string' || !/^https?:\/\//.test(signedUrl) || typeof fileName !== 'string' || fileName === '') {
      throw new ConnectorTechnicalError(
        this.name,
        `Paystack's upload URL answer for dispute ${request.connectorDisputeId} has no signedUrl or fileName.`,
      );
    }
    let response: Response;
    try {
      response = await fetch(signedUrl, {
        method: 'PUT',
        headers: { 'Content-Type': file.mediaType },
        body: new Uint8Array(file.content),
        signal: AbortSignal.timeout(this.timeoutOf('disputeWrite')),
      });
      await response.arrayBuffer().catch(() => undefined);
    } catch (err) {
      const name = (err as Error).name;
      throw new ConnectorTechnicalError(
        this.name,
        name === 'TimeoutError' || name === 'AbortError'
          ? `Paystack's file store did not answer the upload of ${file.fileId} in time.`
          : `Paystack's file store could not be reached for the upload of ${file.fileId}.`,
      );
    }
    if (response.status >= 500 || response.status === 409)
      throw new ConnectorTechnicalError(
        this.name,
        `Paystack's file store answered HTTP ${response.status} to the upload of ${file.fileId}.`,
      );
    if (response.status >= 400)
      throw new ConnectorRequestError(
        this.name,
        'upload_refused',
        `Paystack's file store refused the upload of ${file.fileId} (HTTP ${response.status}).`,
      );
    return fileName;
  }
}
