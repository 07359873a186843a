import { createHash, randomUUID } from 'node:crypto';
import { summarizeCard } from '../../domain/card';
import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import { authenticationAction, type NextAction } from '../../domain/payment';
import type { SandboxDecision, SandboxLedger } from '../../domain/sandbox-ledger';
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
  type SyncRequest,
  type WebhookEvent,
  WebhookSignatureError,
} from '../connector';
import {
  MAX_WEBHOOK_ID_LENGTH,
  optionalString,
  readWebhookJson,
  requiredEnum,
  requiredInteger,
  requiredObject,
  requiredString,
} from '../webhook-payload';
import {
  acceptSandboxDispute,
  fetchSandboxDispute,
  listSandboxDisputes,
  openSandboxDispute,
  submitSandboxDisputeEvidence,
} from './sandbox-disputes';
import { isSandboxPayoutWebhook, SandboxPayouts, sandboxPayoutEvent } from './sandbox-payouts';
import {
  SANDBOX_SIGNATURE_HEADER,
  type SandboxWebhookBody,
  sandboxPageDecisionsSettled,
  sandboxWebhookDelayMs,
  scheduleSandboxWebhook,
  verifySandboxWebhook,
} from './sandbox-webhooks';
import {
  isTelecelGhanaPhone,
  mobileMoneyApprovalSeconds,
  SANDBOX_METHOD_STATUS,
  SANDBOX_NEXT_STEP,
  SANDBOX_STEP_VALUES,
  sandboxCardOutcome,
  sandboxToken,
  sandboxTokenBehaviour,
  TELECEL_VOUCHER_PROMPT,
} from './transformers';

const transactionId = () => `sbx_${randomUUID().replace(/-/g, '')}`;
/** Transaction ids of Telecel voucher payments (`sbxv_…`): a sync leaves them waiting on the voucher. */
const VOUCHER_PREFIX = 'sbxv_';
/** How long offline payment instructions stay valid: 24 hours. */
const INSTRUCTIONS_TTL_MS = 24 * 60 * 60 * 1000;

function hostedPage(request: AuthorizeRequest, kind: '3ds' | 'checkout'): NextAction {
  return { type: 'redirect_to_url', redirect_to_url: `${request.publicBaseUrl}/sandbox/${kind}/${request.paymentId}` };
}

function offlineInstructions(request: AuthorizeRequest, reference: string): NextAction | null {
  const expiresAt = new Date(Date.now() + INSTRUCTIONS_TTL_MS).toISOString();
  switch (request.paymentMethod) {
    case 'bank_transfer':
      return {
        type: 'bank_transfer_instructions',
        bank_transfer: {
          bank_name: 'Switchyard Sandbox Bank',
          account_number: reference.replace(/\D/g, '').padEnd(10, '0').slice(0, 10),
          account_name: 'Switchyard Sandbox Collections',
          amount: request.amount,
          currency: request.currency,
          reference,
          expires_at: expiresAt,
        },
      };
    case 'ussd':
      return {
        type: 'display_ussd_code',
        ussd: { code: `*347*000*${reference.replace(/\D/g, '').padStart(8, '0').slice(-8)}#`, reference, expires_at: expiresAt },
      };
    case 'mobile_money':
      return {
        type: 'await_mobile_money_approval',
        mobile_money: { message: 'Approve the payment prompt sent to your phone.', reference },
      };
    default:
      return null;
  }
}

/**
 * The built-in sandbox processor: deterministic outcomes from test card numbers
 * and payment methods, no network. The default route locally and in tests.
 */

/** The sandbox's answer for a payment it recorded a decision on (see `decideSandboxPayment`). */
function decidedResult(decided: SandboxDecision, connectorTransactionId: string): PaymentResult {
  if (decided.decision === 'voided') return { status: 'Cancelled', connectorTransactionId, amountCaptured: 0 };
  if (decided.decision === 'declined') {
    return {
      status: 'Failed',
      connectorTransactionId,
      amountCaptured: 0,
      errorCode: 'authentication_failed',
      errorMessage: 'The payer declined the payment on the sandbox page.',
    };
  }
  return decided.captureMethod === 'manual'
    ? { status: 'RequiresCapture', connectorTransactionId, amountCaptured: 0 }
    : { status: 'Succeeded', connectorTransactionId, amountCaptured: decided.amount };
}

const noLedger = (): Promise<never> => Promise.reject(new Error('sandbox connector: built without a ledger (use the connector registry)'));
/** The ledger of a sandbox built without one: every use is a programming error. */
const NO_LEDGER: SandboxLedger = {
  decide: noLedger,
  decision: noLedger,
  putDispute: noLedger,
  dispute: noLedger,
  disputesChanged: noLedger,
};

/**
 * The built-in sandbox connector: outcomes decided by test cards and methods (./transformers.ts), its hosted pages,
 * saved tokens and disputes (./sandbox-disputes.ts); never calls a network.
 */
export class SandboxConnector implements Connector {
  readonly name = 'sandbox';

  /**
   * @param ledger the sandbox's own records (decisions on its pages, disputes), given by the connector registry;
   *   without one (a test that only asks what the sandbox supports) a call that needs it throws
   */
  constructor(private readonly ledger: SandboxLedger = NO_LEDGER) {}

  /** The sandbox's payouts (./sandbox-payouts.ts): test destinations decide the outcome. */
  get payouts(): SandboxPayouts {
    return new SandboxPayouts(this.ledger);
  }

  /** The sandbox takes every currency and method. */
  supports(): boolean {
    return true;
  }

  /** The sandbox takes no credentials and calls nothing: every account's check passes. */
  async verifyCredentials(): Promise<void> {}

  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    const id = transactionId();
    if (request.savedMethod) return this.chargeSaved(request, id);
    if (request.paymentMethod === 'mobile_money' && request.currency === 'GHS' && isTelecelGhanaPhone(request.phone)) {
      // Telecel Cash: the payer generates a voucher (*110#) and submits it as the OTP; no webhook until then.
      return {
        status: 'RequiresAction',
        connectorTransactionId: `${VOUCHER_PREFIX}${id.slice(4)}`,
        amountCaptured: 0,
        nextAction: authenticationAction('submit_otp', request.publicBaseUrl, request.paymentId, TELECEL_VOUCHER_PROMPT),
      };
    }
    if (request.paymentMethod !== 'card') {
      scheduleSandboxWebhook(request.publicBaseUrl, {
        payment_id: request.paymentId,
        transaction_id: id,
        amount: request.amount,
        capture_method: request.captureMethod,
      });
      return {
        status: SANDBOX_METHOD_STATUS[request.paymentMethod],
        connectorTransactionId: id,
        amountCaptured: 0,
        nextAction: offlineInstructions(request, id),
      };
    }
    if (!request.card) {
      return { status: 'RequiresAction', connectorTransactionId: id, amountCaptured: 0, nextAction: hostedPage(request, 'checkout') };
    }
    const outcome = sandboxCardOutcome(request.card.card_number);
    if (outcome.kind === 'decline') {
      return { status: 'Failed', connectorTransactionId: id, amountCaptured: 0, errorCode: outcome.code, errorMessage: outcome.message };
    }
    if (outcome.kind === 'timeout') {
      throw new ConnectorTechnicalError(this.name, 'The sandbox did not answer within the timeout (its timeout test card was used).');
    }
    if (outcome.kind === 'step') {
      return {
        status: 'RequiresAction',
        connectorTransactionId: id,
        amountCaptured: 0,
        nextAction: authenticationAction(outcome.step, request.publicBaseUrl, request.paymentId, null, outcome.cardRequired ?? false),
      };
    }
    if (outcome.kind === 'three_ds') {
      return { status: 'RequiresAction', connectorTransactionId: id, amountCaptured: 0, nextAction: hostedPage(request, '3ds') };
    }
    const authorized: PaymentResult =
      request.captureMethod === 'manual'
        ? { status: 'RequiresCapture', connectorTransactionId: id, amountCaptured: 0 }
        : { status: 'Succeeded', connectorTransactionId: id, amountCaptured: request.amount };
    // A dispute test card: the cardholder disputes the charge as soon as it succeeds.
    if (outcome.dispute && authorized.status === 'Succeeded') {
      await openSandboxDispute(this.ledger, request.paymentId, id, request.amount, request.currency, outcome.dispute);
    }
    if (!request.setupFutureUsage) return authorized;
    // Saved for later: a reusable token, as processors return one with the payment.
    const summary = summarizeCard(request.card, '');
    return {
      ...authorized,
      savedMethod: {
        token: sandboxToken(outcome.savedCharges ?? 'ok', randomUUID().replace(/-/g, '')),
        processorCustomerId: null,
        email: request.customer?.email ?? request.email ?? null,
        fingerprint: createHash('sha256').update(`sandbox-card:${request.card.card_number}`).digest('hex').slice(0, 24),
        card: {
          brand: summary.brand,
          last4: summary.last4,
          expMonth: summary.exp_month,
          expYear: summary.exp_year,
          bin: request.card.card_number.slice(0, 6),
          issuerCountry: null,
        },
        expiresAt: null,
      },
    };
  }

  /**
   * Charges a saved sandbox card by its token's behaviour ({@link sandboxTokenBehaviour}):
   * `ok` succeeds, `decline` fails (`card_declined`), `authentication_required` asks for 3-D Secure on its
   * hosted page when the payer is absent (off-session) and succeeds when present. A token that is not the
   * sandbox's is refused, as a processor refuses another's token.
   * @throws ConnectorRequestError `invalid_token` for a token the sandbox did not issue
   */
  private chargeSaved(request: AuthorizeRequest, id: string): PaymentResult {
    const behaviour = sandboxTokenBehaviour(request.savedMethod?.token ?? '');
    if (!behaviour) throw new ConnectorRequestError(this.name, 'invalid_token', 'The sandbox did not issue this payment method token.');
    if (behaviour === 'decline') {
      return {
        status: 'Failed',
        connectorTransactionId: id,
        amountCaptured: 0,
        errorCode: 'card_declined',
        errorMessage: 'The card was declined by the issuer.',
      };
    }
    if (behaviour === 'authentication_required' && request.offSession) {
      return {
        status: 'RequiresAction',
        connectorTransactionId: id,
        amountCaptured: 0,
        nextAction: hostedPage(request, '3ds'),
        errorCode: 'authentication_required',
        errorMessage: 'The issuer requires the payer to authenticate this charge: bring them back to complete 3-D Secure.',
      };
    }
    return request.captureMethod === 'manual'
      ? { status: 'RequiresCapture', connectorTransactionId: id, amountCaptured: 0 }
      : { status: 'Succeeded', connectorTransactionId: id, amountCaptured: request.amount };
  }

  /**
   * Answers a step of a test card or a Telecel voucher payment (values in `SANDBOX_STEP_VALUES`):
   * a wrong PIN fails the payment (`incorrect_pin`); a wrong OTP keeps the step open
   * (`incorrect_otp`); a right answer leads to the next step (`SANDBOX_NEXT_STEP`) or completes the
   * payment (Succeeded, or RequiresCapture for manual capture). A card-required step refuses a
   * request without the card (`ConnectorRequestError`-free: the operation checks it first).
   */
  async authenticate(request: AuthenticateRequest): Promise<PaymentResult> {
    const id = request.connectorTransactionId ?? transactionId();
    const open = (
      step: AuthenticateRequest['step'],
      errorCode: string | null = null,
      errorMessage: string | null = null,
    ): PaymentResult => ({
      status: 'RequiresAction',
      connectorTransactionId: id,
      amountCaptured: 0,
      nextAction: authenticationAction(
        step,
        request.publicBaseUrl,
        request.paymentId,
        id.startsWith(VOUCHER_PREFIX) ? TELECEL_VOUCHER_PROMPT : null,
      ),
      errorCode,
      errorMessage,
    });
    if (request.step === 'submit_pin' && request.pin !== SANDBOX_STEP_VALUES.pin) {
      return {
        status: 'Failed',
        connectorTransactionId: id,
        amountCaptured: 0,
        errorCode: 'incorrect_pin',
        errorMessage: 'The PIN is incorrect; the issuer declined the payment.',
      };
    }
    if (request.step === 'submit_otp' && request.otp !== SANDBOX_STEP_VALUES.otp) {
      return open('submit_otp', 'incorrect_otp', 'The code is incorrect. Check it and try again.');
    }
    const next = SANDBOX_NEXT_STEP[request.step];
    if (next) return open(next);
    return request.captureMethod === 'manual'
      ? { status: 'RequiresCapture', connectorTransactionId: id, amountCaptured: 0 }
      : { status: 'Succeeded', connectorTransactionId: id, amountCaptured: request.amount };
  }

  async capture(request: { connectorTransactionId: string; amount: number }): Promise<PaymentResult> {
    return { status: 'Succeeded', connectorTransactionId: request.connectorTransactionId, amountCaptured: request.amount };
  }

  /**
   * Voids at once, unless the payer's decision on the hosted page came first: the void and a page
   * decision are ordered by the sandbox's own record (`SandboxLedger.decide`, one conditional
   * write, so across containers too). An approval that came first is answered as the processor would:
   * the payment is not voided but succeeded (or authorized, for manual capture); a decline, failed.
   * Waits first for a page decision still running in this process.
   */
  async void(request: { paymentId: string; connectorTransactionId: string }): Promise<PaymentResult> {
    await sandboxPageDecisionsSettled(request.paymentId);
    const standing = await this.ledger.decide(request.paymentId, { decision: 'voided', amount: 0, captureMethod: 'automatic' });
    return decidedResult(standing, request.connectorTransactionId);
  }

  /**
   * The sandbox's view of a pending payment: the decision it recorded, if any (`SandboxLedger.decision`);
   * else deterministic from what we know of it, so
   * that it answers the same in every Lambda instance of a deployed stage:
   * - a card payment left `Processing` (its authorize timed out) went through;
   * - a mobile-money payment is approved once {@link mobileMoneyApprovalSeconds} have passed
   *   since creation; a bank transfer or USSD payment is paid once {@link sandboxWebhookDelayMs}
   *   have — the same payer the local stack's delayed webhook plays, so on a deployed stage
   *   (where no timer outlives the request) the reconciler completes them;
   * - a card waiting on its 3DS or checkout page, or on a PIN/OTP step, and a Telecel voucher
   *   payment (`sbxv_…`) are unchanged (the payer has not acted; the step stays as it was).
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    const reference = request.connectorTransactionId ?? `sbx_${request.paymentId.replace(/^pay_/, '')}`;
    // A decision the sandbox recorded (the payer on its page, or a void) is its answer from then on.
    const decided = await this.ledger.decision(request.paymentId);
    if (decided) return decidedResult(decided, reference);
    const settled: PaymentResult =
      request.captureMethod === 'manual'
        ? { status: 'RequiresCapture', connectorTransactionId: reference, amountCaptured: 0 }
        : { status: 'Succeeded', connectorTransactionId: reference, amountCaptured: request.amount };
    if (request.paymentMethod === 'card' && request.connectorTransactionId === null) return settled;
    const ageMs = Date.now() - Date.parse(request.createdAt);
    if (request.paymentMethod === 'mobile_money' && !reference.startsWith(VOUCHER_PREFIX)) {
      if (ageMs >= mobileMoneyApprovalSeconds() * 1000) return settled;
      return { status: 'Processing', connectorTransactionId: reference, amountCaptured: 0 };
    }
    if (request.paymentMethod === 'bank_transfer' || request.paymentMethod === 'ussd') {
      if (ageMs >= sandboxWebhookDelayMs()) return settled;
    }
    return { status: 'RequiresAction', connectorTransactionId: reference, amountCaptured: 0 };
  }

  /** Refunds at once; the sandbox refund id is derived from ours (so {@link findRefund} finds the same one). */
  async refund(request: { refundId: string }): Promise<RefundResult> {
    return { status: 'Succeeded', connectorRefundId: `sbx_re_${request.refundId.replace(/^ref_/, '')}` };
  }

  /**
   * Sandbox refunds settle at once: a refund recorded under our id is found succeeded
   * (its sandbox id derived from ours, the same in every instance).
   */
  async findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    return { status: 'Succeeded', connectorRefundId: `sbx_re_${request.refundId.replace(/^ref_/, '')}` };
  }

  /** Sandbox refunds settle at once, so a refund sync always finds it succeeded. */
  async syncRefund(request: { connectorRefundId: string }): Promise<RefundResult> {
    return { status: 'Succeeded', connectorRefundId: request.connectorRefundId };
  }

  /**
   * Verifies `x-sandbox-signature` (HMAC-SHA256 under the stage's keyed-hash key)
   * and maps `payment.succeeded` / `payment.failed` (the only events the sandbox sends,
   * {@link SandboxWebhookBody}).
   * @throws WebhookSignatureError when the signature is missing or wrong
   * @throws WebhookPayloadError when the signed body is not such an event (not JSON, another
   *   `type`, a `data` field missing or of another type)
   */
  /** See shared/connectors/sandbox/sandbox-disputes.ts. */
  fetchDispute(request: DisputeRef): Promise<ConnectorDispute> {
    return fetchSandboxDispute(this.ledger, request);
  }

  /** The sandbox's disputes changed since `since` (polled by the scheduled worker). */
  listDisputes(since: string): Promise<ConnectorDispute[]> {
    return listSandboxDisputes(this.ledger, since);
  }

  /** Closes the dispute (`lost`). */
  acceptDispute(request: DisputeRef): Promise<ConnectorDispute> {
    return acceptSandboxDispute(this.ledger, request);
  }

  /** Keeps the evidence; submitted, decided by Stripe's test values. */
  submitDisputeEvidence(
    request: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
  ): Promise<ConnectorDispute> {
    return submitSandboxDisputeEvidence(this.ledger, request);
  }

  async parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    if (!(await verifySandboxWebhook(webhook.rawBody, webhook.headers[SANDBOX_SIGNATURE_HEADER]))) {
      throw new WebhookSignatureError(this.name, 'The x-sandbox-signature header does not match the body.');
    }
    const body = readWebhookJson(this.name, webhook.rawBody);
    if (isSandboxPayoutWebhook(body)) return sandboxPayoutEvent(body);
    const id = requiredString(this.name, body, 'id');
    const type = requiredEnum<SandboxWebhookBody['type']>(this.name, body, 'type', ['payment.succeeded', 'payment.failed']);
    const data = requiredObject(this.name, body, 'data');
    const d: SandboxWebhookBody['data'] = {
      payment_id: requiredString(this.name, data, 'payment_id', 'data'),
      transaction_id: requiredString(this.name, data, 'transaction_id', 'data'),
      amount: requiredInteger(this.name, data, 'amount', 'data'),
      capture_method: requiredEnum(this.name, data, 'capture_method', ['automatic', 'manual'], 'data'),
    };
    const errorCode = optionalString(this.name, data, 'error_code', 'data', MAX_WEBHOOK_ID_LENGTH);
    const errorMessage = optionalString(this.name, data, 'error_message', 'data');
    const result: PaymentResult =
      type === 'payment.succeeded'
        ? d.capture_method === 'manual'
          ? { status: 'RequiresCapture', connectorTransactionId: d.transaction_id, amountCaptured: 0 }
          : { status: 'Succeeded', connectorTransactionId: d.transaction_id, amountCaptured: d.amount }
        : {
            status: 'Failed',
            connectorTransactionId: d.transaction_id,
            amountCaptured: 0,
            errorCode: errorCode ?? 'payment_declined',
            errorMessage: errorMessage ?? 'The payer declined the payment.',
          };
    return { kind: 'payment', eventId: id, paymentId: d.payment_id, connectorTransactionId: d.transaction_id, result };
  }
}
