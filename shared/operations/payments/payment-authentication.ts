import { type AuthenticateRequest, ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import { maskCardNumbers } from '../../domain/card-mask';
import { ApiError, invalidRequest, OutcomeUnknownError, unexpectedState } from '../../domain/errors';
import {
  AUTHENTICATION_STEPS,
  type AuthenticationAction,
  type AuthenticationStep,
  type NextAction,
  type Payment,
  processorReturnUrl,
} from '../../domain/payment';
import { ALLOWED_FROM } from '../../domain/payment-status';
import { startPendingOperation } from '../../domain/pending-operation';
import { recordAuthorization, recordPaymentOutcome } from '../../observability/metrics';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { AuthenticatePaymentBody } from '../../schemas/authentication-schemas';
import { cardFingerprint } from '../../security/keyed-hash';
import { type AuthAnswers, type StoredPayment, updatePayment } from '../../storage/payments-repository';
import { ConditionFailedError, isStorageUnavailable } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { loadPayment } from './load-payment';
import { afterAuthorization, authorizationOutcomeOf } from './payment-authorization';
import { attemptOf, claimHolderOf, conflict, resultFields } from './payment-state';

/** The body field that answers each step. */
export const STEP_FIELD: Readonly<Record<AuthenticationStep, 'pin' | 'otp' | 'phone' | 'birthday' | 'address'>> = {
  submit_pin: 'pin',
  submit_otp: 'otp',
  submit_phone: 'phone',
  submit_birthday: 'birthday',
  submit_address: 'address',
};

/**
 * Wrong answers a payment step takes at most (docs/api.md "Next actions"): the third answer to the same step that the
 * processor does not accept fails the payment with `error_code: authentication_failed`. A processor
 * that stops earlier (an issuer blocking after one wrong PIN) fails the payment itself, and its outcome
 * is recorded as it comes.
 */
export const MAX_WRONG_ANSWERS_PER_STEP = 3;

/**
 * Lower limits some processors document for a step, by connector name (none known yet: the adapters'
 * processors fail the payment themselves when they stop taking answers). The limit used is the lowest.
 */
const PROCESSOR_WRONG_ANSWER_LIMITS: Readonly<Partial<Record<string, number>>> = {};

/** The wrong answers a step of a payment on `connector` may take: {@link MAX_WRONG_ANSWERS_PER_STEP} or the processor's own limit if lower. */
export function wrongAnswerLimit(connector: string): number {
  return Math.min(MAX_WRONG_ANSWERS_PER_STEP, PROCESSOR_WRONG_ANSWER_LIMITS[connector] ?? MAX_WRONG_ANSWERS_PER_STEP);
}

/** Answers already counted against `step` (stored `auth_answers`, which counts one step at a time). */
function answersCounted(stored: StoredPayment, step: string): number {
  return stored.authAnswers?.step === step ? stored.authAnswers.count : 0;
}

/** The payment's error once its step took its last wrong answer (never naming or echoing a value). */
function tooManyAnswers(step: AuthenticationStep, limit: number): { error_code: string; error_message: string } {
  return {
    error_code: 'authentication_failed',
    error_message: `Too many wrong answers to the ${step} step (${limit}): the payment has failed. Start a new payment to try again.`,
  };
}

/** The connector-result form of the payment's error fields. */
function toErrorFields(e: { error_code: string; error_message: string }) {
  return { nextAction: null, errorCode: e.error_code, errorMessage: e.error_message };
}

/** Whether a `next_action` is an authentication step (`submit_*`). */
export function isAuthenticationAction(action: NextAction | null): action is AuthenticationAction {
  return action !== null && (AUTHENTICATION_STEPS as readonly string[]).includes(action.type);
}

/**
 * Checks that the body answers the step the payment asks for, with the card exactly when the step
 * needs it (and then the card the payment was confirmed with).
 * @throws ApiError 400 `parameter_missing` / `parameter_invalid` naming the field to send or fix
 */
async function checkAnswer(p: Payment, action: AuthenticationAction, body: AuthenticatePaymentBody): Promise<void> {
  const field = STEP_FIELD[action.type];
  if (body[field] === undefined) {
    throw invalidRequest(
      'parameter_missing',
      `This payment's next step is ${action.type}: send ${field} (and no other step field).`,
      field,
    );
  }
  const card = body.payment_method_data?.card;
  if (action.card_required && !card) {
    throw invalidRequest(
      'parameter_missing',
      `${p.connector} needs the card details again with this step (next_action.card_required is true): send payment_method_data.card with ${field}.`,
      'payment_method_data',
    );
  }
  if (!action.card_required && card) {
    throw invalidRequest(
      'parameter_invalid',
      'payment_method_data is only sent with a step whose next_action.card_required is true; send the step field alone.',
      'payment_method_data',
    );
  }
  if (card) {
    const stored = p.payment_method_data && 'card' in p.payment_method_data ? p.payment_method_data.card : undefined;
    if (!stored || stored.fingerprint !== (await cardFingerprint(card.card_number))) {
      throw invalidRequest(
        'parameter_invalid',
        'payment_method_data.card must be the card this payment was confirmed with.',
        'payment_method_data.card.card_number',
      );
    }
  }
}

/**
 * Relays the payer's answer to an authentication step — PIN, OTP, phone, birthday or address —
 * to the payment's processor and records its answer, which may be the next step (PIN, then OTP),
 * the outcome, or the same step again with the processor's error (a wrong OTP, when the
 * processor allows another try).
 *
 * Money safety (docs/money-safety.md): the call runs under a claim (`pending_operation`
 * authorize, leased until the request's end plus `CLAIM_LEASE_MARGIN_MS`) written with a conditional write before the processor
 * is called, so two submissions never race and a crash leaves a trace; the outcome is written
 * conditionally on the claimed version. A technical failure keeps the claim (the processor may
 * have completed the charge) and answers 503 `outcome_unknown`; the reconciler then asks the
 * processor (by our reference) and either settles the payment or reopens the step. The values
 * are held in memory only: never stored, logged, echoed nor put in an idempotency record (the
 * route takes no `Idempotency-Key`; a retry of an accepted step answers 400/409 naming the
 * payment's current step).
 *
 * Wrong answers: each answer sent is counted against its step in the claim write
 * (`auth_answers`, the step and the count — never the value); the processor asking for the same step
 * again, or refusing the answer, leaves it counted, any other answer clears it. The answer that reaches
 * {@link wrongAnswerLimit} and is not accepted fails the payment (`error_code: authentication_failed`);
 * no processor call cancels anything: a step still open there holds no money and can only be answered
 * through Switchyard, so the charge lapses at the processor. A count left at the limit by a result that was
 * never recorded fails the payment on the next answer, without a processor call.
 * @returns the payment after the processor's answer
 * @throws ApiError 404 unknown payment; 409 `payment_unexpected_state` unless the payment asks for
 *   an authentication step (or while another call on it is in flight); 400 when the body does not
 *   answer that step (see {@link checkAnswer}); 402 `authentication_failed` when the processor
 *   refused the submission (nothing changed there; the step stays open, or the payment failed when that
 *   was the step's last allowed answer); 503 `connector_unreachable` when
 *   the processor could not be reached at all (connection refused: nothing was sent, the step stays open)
 * @throws OutcomeUnknownError when the processor was called and its answer is not recorded
 *
 * Metrics: each submission that reaches the processor counts one `Authorizations` (its answer: the
 * next step is `requires_action`, a wrong value the processor answers as a result is that result's
 * outcome, a refusal `declined`; a timeout `unknown`; not sent `technical_failure`).
 */
export async function authenticatePayment(ctx: RequestContext, paymentId: string, body: AuthenticatePaymentBody): Promise<Payment> {
  const stored = await loadPayment(ctx.merchantId, paymentId);
  const p = stored.payment;
  if (stored.pendingOperation) throw conflict('authenticate', new ConditionFailedError(stored));
  const action = p.next_action;
  if (p.status !== 'RequiresAction' || !isAuthenticationAction(action)) {
    if (p.status === 'RequiresAction') {
      throw new ApiError(
        409,
        'invalid_request_error',
        'payment_unexpected_state',
        `This payment waits for the payer on next_action (${action?.type ?? 'none'}), not for a PIN, OTP, phone, birthday or address step.`,
      );
    }
    throw unexpectedState('authenticate', p.status, ALLOWED_FROM.authenticate);
  }
  await checkAnswer(p, action, body);
  const connector = await connectorForTarget(ctx.merchantId, p.connector, p.merchant_connector_id ?? null);
  if (!connector.authenticate) {
    throw new ApiError(502, 'connector_error', 'connector_unavailable', `Connector ${p.connector} cannot take authentication steps.`);
  }
  const limit = wrongAnswerLimit(p.connector);
  const counted = answersCounted(stored, action.type);
  if (counted >= limit) {
    // The step's last answer was counted but its result never recorded (the reconciler reopened the
    // step): no further answer goes to the processor; the payment fails now.
    let failed: StoredPayment;
    try {
      failed = await updatePayment(
        ctx.merchantId,
        stored,
        { expectedStatuses: ['RequiresAction'], requireNoPendingOperation: true },
        { status: 'Failed', next_action: null, ...tooManyAnswers(action.type, limit) },
        undefined,
        null,
      );
    } catch (err) {
      if (err instanceof ConditionFailedError) throw conflict('authenticate', err);
      throw err;
    }
    recordPaymentOutcome(failed.payment);
    return failed.payment;
  }
  // The answer is counted in the claim itself (one conditional write, before the processor sees it), so
  // a result that is never recorded still counts, and no step ever reaches the processor more than
  // `limit` times. A right answer clears the count; a provably unsent one gives it back.
  const before: AuthAnswers | null = counted > 0 ? { step: action.type, count: counted } : null;
  const sent: AuthAnswers = { step: action.type, count: counted + 1 };
  const lastTry = sent.count >= limit;
  let claimed: Awaited<ReturnType<typeof updatePayment>>;
  try {
    claimed = await updatePayment(
      ctx.merchantId,
      stored,
      { expectedStatuses: ALLOWED_FROM.authenticate, requireNoPendingOperation: true },
      {},
      startPendingOperation('authorize', connector, p.payment_id, p.amount, Date.now(), claimHolderOf(ctx)),
      sent,
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('authenticate', err);
    throw err;
  }
  const request: AuthenticateRequest = {
    paymentId: p.payment_id,
    connectorTransactionId: p.connector_transaction_id,
    amount: p.amount,
    currency: p.currency,
    paymentMethod: p.payment_method ?? 'card',
    captureMethod: p.capture_method,
    step: action.type,
    ...(body.pin !== undefined ? { pin: body.pin } : {}),
    ...(body.otp !== undefined ? { otp: body.otp } : {}),
    ...(body.phone !== undefined ? { phone: body.phone } : {}),
    ...(body.birthday !== undefined ? { birthday: body.birthday } : {}),
    ...(body.address !== undefined ? { address: body.address } : {}),
    ...(body.payment_method_data?.card ? { card: body.payment_method_data.card } : {}),
    email: p.email,
    publicBaseUrl: ctx.publicBaseUrl,
    returnUrl: processorReturnUrl(ctx.publicBaseUrl, p.payment_id),
  };
  const unknown = (cause: unknown) => new OutcomeUnknownError('payment', p.payment_id, p.connector, `/payments/${p.payment_id}`, { cause });
  const count = (outcome: Parameters<typeof recordAuthorization>[3]) =>
    recordAuthorization(p.connector, p.currency, request.paymentMethod, outcome, p.merchant_connector_id ?? null);
  let result: Awaited<ReturnType<NonNullable<typeof connector.authenticate>>>;
  const startedAt = new Date().toISOString();
  try {
    result = await callWithinBudget(ctx, connector, 'authenticate', () => connector.authenticate!(request));
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      count('declined');
      // Refused: nothing happened at the processor; the step stays open, with the processor's reason —
      // unless that was the step's last allowed answer: then the payment fails (nothing is held there).
      try {
        const failed = await updatePayment(
          ctx.merchantId,
          claimed,
          {},
          lastTry
            ? { status: 'Failed', next_action: null, ...tooManyAnswers(action.type, limit) }
            : { status: 'RequiresAction', error_code: maskCardNumbers(err.code), error_message: maskCardNumbers(err.message) },
          null,
        );
        if (lastTry) recordPaymentOutcome(failed.payment);
      } catch (releaseErr) {
        // The claim stays until its lease ends; the reconciler then asks the processor and reopens the step
        // (whose count, written with the claim, then fails the payment on its next answer).
        if (!isStorageUnavailable(releaseErr) && !(releaseErr instanceof ConditionFailedError)) throw releaseErr;
      }
      if (lastTry) {
        throw new ApiError(
          402,
          'connector_error',
          'authentication_failed',
          `${p.connector} refused the ${action.type} step. ${tooManyAnswers(action.type, limit).error_message}`,
        );
      }
      throw new ApiError(
        402,
        'connector_error',
        'authentication_failed',
        `${p.connector} refused the ${action.type} step: ${maskCardNumbers(err.message)} The payment still asks for it.`,
      );
    }
    if (!(err instanceof ConnectorTechnicalError)) throw err;
    count(err.notSent ? 'technical_failure' : 'unknown');
    if (err.notSent) {
      // The request provably never left (connection refused): nothing can have happened there.
      try {
        // Nothing was sent: the answer is not counted.
        await updatePayment(ctx.merchantId, claimed, {}, { status: 'RequiresAction' }, null, before);
      } catch (releaseErr) {
        if (!isStorageUnavailable(releaseErr) && !(releaseErr instanceof ConditionFailedError)) throw releaseErr;
        // The claim stays until its lease ends; the reconciler then reopens the step.
        throw unknown(err);
      }
      throw new ApiError(
        503,
        'connector_error',
        'connector_unreachable',
        `${p.connector} could not be reached. Nothing was sent; the payment still asks for ${action.type}. Retry shortly.`,
      );
    }
    throw unknown(err);
  }
  // The processor's answer to the step: the next step (requires_action), or the outcome.
  count(authorizationOutcomeOf(result));
  try {
    // The same step asked again (restated, or not restated: still waiting on it) is a wrong answer (it stays
    // counted); any other answer moves on (cleared).
    const wrong = result.status === 'RequiresAction' && (result.nextAction?.type ?? action.type) === action.type;
    const outcome =
      wrong && lastTry ? { ...result, status: 'Failed' as const, ...toErrorFields(tooManyAnswers(action.type, limit)) } : result;
    const fields = resultFields(outcome, p);
    // An outcome (not another step) is recorded in attempts, as a sync's or a webhook's is.
    if (outcome.status !== p.status) fields.attempts = [...p.attempts, attemptOf(connector, startedAt, outcome)];
    const done = await updatePayment(ctx.merchantId, claimed, {}, fields, null, wrong ? undefined : null);
    recordPaymentOutcome(done.payment);
    return await afterAuthorization(ctx, done.payment, outcome);
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('authenticate', err);
    throw unknown(err);
  }
}
