/**
 * The payout use cases that change a payout: create (and send at once with `confirm: true`), confirm (send),
 * authenticate (the merchant's OTP), cancel. The money-safety pattern of payments and refunds
 * (docs/api.md "Sent once, reconciled by reference"):
 * - the send is recorded before the processor call: one conditional write moves the payout from
 *   `RequiresConfirmation` to `Processing` with its pending `payout` operation (a claim with a lease) and reserves its
 *   amount in the merchant's daily total — so of racing confirms and cancels exactly one wins, and only the winner
 *   calls the processor, under our payout id as the processor's reference;
 * - a refusal with nothing done (4xx) fails the payout and releases the reservation; a technical failure (timeout,
 *   5xx, the request's budget) leaves the payout `Processing` with its claim: the outcome is unknown, and once the
 *   lease ends the reconciler finds the transfer by our reference (payout-sync.ts). Nothing here ever sends a payout
 *   whose status is not `RequiresConfirmation`: a payout is sent at most once;
 * - the answer is written conditionally on the claim's version; when that write fails, a keyed request hands its
 *   claim over (so its retry reconciles at once) and answers 503 `outcome_unknown`.
 */
import { ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import type { PayoutLookup, PayoutResult } from '../../connectors/payout-connector';
import { maskCardNumbers } from '../../domain/card-mask';
import { ApiError, idempotencyKeyReused, invalidRequest, OutcomeUnknownError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import {
  MAX_PAYOUT_OTP_ATTEMPTS,
  PAYOUT_ALLOWED_FROM,
  type Payout,
  type PayoutMethodData,
  type PayoutOperation,
  type PayoutStatus,
  viewPayoutMethod,
} from '../../domain/payout';
import { CLAIM_LEASE_MARGIN_MS, leaseActive, startPendingOperation } from '../../domain/pending-operation';
import { logger } from '../../observability/logger';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { RoutedConnector } from '../../processor-call/connector-target';
import type { CreatePayoutBody } from '../../schemas/payout-schemas';
import { idempotentId, keyedHash } from '../../security/keyed-hash';
import { payoutDailyLimit } from '../../settings/payout-settings';
import {
  createPayout as createStoredPayout,
  getStoredPayout,
  handOverPayoutClaim,
  PayoutDailyLimitError,
  PayoutReferenceTakenError,
  type StoredPayout,
  updatePayout,
} from '../../storage/payouts-repository';
import { ConditionFailedError, ItemExistsError, isStorageUnavailable } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { requestEndMs, storageRetryDeadline, untilStorageAnswers } from '../storage-retry';
import { loadPayout } from './payout-reads';
import { routePayout } from './payout-routing';
import { changeOfResult, countOutcome, otpNextAction, payoutConnectorOf, reconcilePayout } from './payout-sync';

type PayoutConnector = RoutedConnector & { payouts: NonNullable<RoutedConnector['payouts']> };

/** 409 `payout_unexpected_state`: the operation is not allowed in the payout's status. */
export function payoutUnexpectedState(operation: PayoutOperation, status: PayoutStatus): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'payout_unexpected_state',
    `This payout has status ${status}; ${operation} is only allowed when the status is ${PAYOUT_ALLOWED_FROM[operation].join(', ')}.`,
  );
}

/** 409 `payout_busy`: a request is calling the processor for this payout right now. */
function payoutBusy(): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'payout_busy',
    'A request is calling the processor for this payout right now. Retry in a few seconds, or GET the payout.',
  ).asTransient();
}

/** The keyed hash naming a keyed request's send of a payout (never shown). */
async function sendToken(ctx: Pick<RequestContext, 'merchantId' | 'idempotencyKey'>, payoutId: string): Promise<string | undefined> {
  return ctx.idempotencyKey === undefined ? undefined : keyedHash(`payout-send:${ctx.merchantId}:${payoutId}:${ctx.idempotencyKey}`);
}

/**
 * The payout a retry finds: reconciled first when its send's outcome is unknown and the claim is free (its lease
 * ended or was handed over), so the retry answers what the processor did. Never sends.
 */
async function payoutForRetry(ctx: RequestContext, stored: StoredPayout): Promise<Payout> {
  if (!stored.pendingOperation || leaseActive(stored.pendingOperation)) return stored.payout;
  try {
    return (await reconcilePayout(ctx, stored)).payout;
  } catch (err) {
    if (err instanceof ApiError) return stored.payout;
    throw err;
  }
}

/** The lookup of a stored payout at its processor. */
function lookupOf(stored: StoredPayout): PayoutLookup {
  const p = stored.payout;
  return {
    reference: p.payout_id,
    connectorPayoutId: p.connector_payout_id,
    amount: p.amount,
    currency: p.currency,
    destination: stored.method,
    sentAt: stored.sentAt ?? p.created_at,
  };
}

/** `payout_method_data` as stored: the one destination given, `account_name` only when given. */
function methodOf(body: CreatePayoutBody): PayoutMethodData {
  const { bank, mobile_money } = body.payout_method_data;
  if (bank) {
    return {
      bank: {
        account_number: bank.account_number,
        bank_code: bank.bank_code,
        country: bank.country,
        ...(bank.account_name !== undefined ? { account_name: bank.account_name } : {}),
      },
    };
  }
  return { mobile_money: { phone: mobile_money!.phone, network: mobile_money!.network } };
}

/** Whether a payout found under a keyed request's id is that request's (same amount, currency, reference). */
function sameCreate(existing: Payout, body: CreatePayoutBody): boolean {
  return existing.amount === body.amount && existing.currency === body.currency && existing.reference === (body.reference ?? null);
}

/**
 * `POST /payouts`: creates a payout (`RequiresConfirmation`, event `payout.created`) on the account routing chooses
 * (payout-routing.ts), and with `confirm: true` sends it at once ({@link confirmPayout}). With an
 * `Idempotency-Key` its id is derived from the key: a retry finds the first attempt's payout (reconciled when its
 * send's outcome is unknown) and never sends it again.
 * @returns the payout
 * @throws ApiError 400 (routing: `no_payout_connector`, `payout_not_supported`, `resource_missing`); 409
 *   `payout_reference_taken` when another payout of the merchant has this `reference`; 422 `idempotency_key_reused`;
 *   and what {@link confirmPayout} throws
 */
export async function createPayout(ctx: RequestContext, body: CreatePayoutBody): Promise<Payout> {
  const payoutId = ctx.idempotencyKey ? await idempotentId('po', ctx.merchantId, 'payouts', ctx.idempotencyKey) : newId('payout');
  const found = async () => {
    const existing = await getStoredPayout(ctx.merchantId, payoutId);
    if (!existing) return undefined;
    if (!sameCreate(existing.payout, body)) throw idempotencyKeyReused();
    return payoutForRetry(ctx, existing);
  };
  if (ctx.idempotencyKey) {
    const earlier = await found();
    if (earlier) return earlier;
  }
  // Routed before anything is written: a payout nothing can send is refused with nothing left behind.
  const connector = await routePayout(ctx.merchantId, body.currency, body.payout_type, body.merchant_connector_id);
  const now = new Date().toISOString();
  const method = methodOf(body);
  const payout: Payout = {
    payout_id: payoutId,
    amount: body.amount,
    currency: body.currency,
    status: 'RequiresConfirmation',
    payout_type: body.payout_type,
    payout_method: viewPayoutMethod(method),
    description: body.description,
    reference: body.reference ?? null,
    customer_id: body.customer_id ?? null,
    connector: connector.name,
    merchant_connector_id: connector.merchantConnectorId,
    connector_payout_id: null,
    fee: null,
    error_code: null,
    error_message: null,
    next_action: null,
    pending_operation: null,
    metadata: body.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  let stored: StoredPayout;
  try {
    stored = await createStoredPayout(ctx.merchantId, payout, method, ctx.listShards?.write);
  } catch (err) {
    if (err instanceof ItemExistsError) {
      const earlier = await found();
      if (earlier) return earlier;
    }
    if (err instanceof PayoutReferenceTakenError) {
      throw new ApiError(
        409,
        'invalid_request_error',
        'payout_reference_taken',
        `Another of your payouts${err.payoutId ? ` (${err.payoutId})` : ''} already has this reference; nothing was created. A reference names one payout: use a new one, or GET that payout. To retry a request safely, send the same Idempotency-Key.`,
        'reference',
      );
    }
    throw err;
  }
  if (!body.confirm) return stored.payout;
  return sendPayout(ctx, stored, connector);
}

/**
 * `POST /payouts/{id}/confirm`: sends a `RequiresConfirmation` payout (see the module comment).
 * @returns the payout: `Processing` (sent; outcome by webhook or reconciliation, or unknown with its
 *   `pending_operation`), `RequiresAction` (OTP wanted), `Succeeded` or `Failed`
 * @throws ApiError 404; 409 `payout_unexpected_state` unless `RequiresConfirmation` (a keyed retry of the request
 *   that sent it gets the payout instead); 400 `payout_limit_exceeded` when the day's payouts in its currency would
 *   pass the daily limit (nothing sent, it stays `RequiresConfirmation`); 502 `connector_unavailable`
 * @throws OutcomeUnknownError (503) when the processor answered and the answer could not be recorded
 */
export async function confirmPayout(ctx: RequestContext, payoutId: string): Promise<Payout> {
  const stored = await loadPayout(ctx.merchantId, payoutId);
  if (stored.payout.status !== 'RequiresConfirmation') {
    const token = await sendToken(ctx, payoutId);
    if (token && stored.confirmRequest === token) return payoutForRetry(ctx, stored);
    throw payoutUnexpectedState('confirm', stored.payout.status);
  }
  return sendPayout(ctx, stored, await payoutConnectorOf(ctx.merchantId, stored.payout));
}

/** The UTC day (`YYYY-MM-DD`) of epoch ms. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sends a `RequiresConfirmation` payout once (the module comment). */
async function sendPayout(ctx: RequestContext, stored: StoredPayout, connector: PayoutConnector): Promise<Payout> {
  const p = stored.payout;
  const nowMs = Date.now();
  const token = await sendToken(ctx, p.payout_id);
  const claim = startPendingOperation('payout', connector, p.payout_id, p.amount, nowMs, {
    holderEndMs: requestEndMs(ctx),
    ...(token ? { request: token } : {}),
  });
  let claimed: StoredPayout;
  try {
    claimed = await updatePayout(
      stored,
      {
        status: 'Processing',
        pending_operation: claim,
        sent_at: new Date(nowMs).toISOString(),
        reserveLimit: { day: utcDay(nowMs), max: payoutDailyLimit(p.currency) },
        ...(token ? { confirm_request: token } : {}),
      },
      nowMs,
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      const current = (err.current as StoredPayout | undefined) ?? (await getStoredPayout(ctx.merchantId, p.payout_id));
      if (current && token && current.confirmRequest === token) return payoutForRetry(ctx, current);
      throw payoutUnexpectedState('confirm', current?.payout.status ?? p.status);
    }
    if (err instanceof PayoutDailyLimitError) {
      throw invalidRequest(
        'payout_limit_exceeded',
        `This payout would take your ${p.currency} payouts today (UTC) past the daily payout limit. It was not sent and stays RequiresConfirmation: confirm it tomorrow, or cancel it.`,
        'amount',
      );
    }
    // Storage failed before the processor call: nothing was sent (a claim written whose answer was lost is
    // found by the reconciler: no transfer at the processor, so the payout fails with nothing sent).
    throw err;
  }
  let result: PayoutResult;
  try {
    result = await callWithinBudget(ctx, connector, 'payout', () =>
      connector.payouts.sendPayout({
        reference: p.payout_id,
        amount: p.amount,
        currency: p.currency,
        destination: stored.method,
        description: p.description,
        publicBaseUrl: ctx.publicBaseUrl,
      }),
    );
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      // Refused with nothing done: failed, the reservation released.
      result = {
        status: 'Failed',
        connectorPayoutId: null,
        errorCode: maskCardNumbers(err.code),
        errorMessage: `${p.connector} refused the payout: ${maskCardNumbers(err.message)} Nothing was sent.`,
      };
    } else if (err instanceof ConnectorTechnicalError) {
      // Outcome unknown: Processing with its claim; the reconciler finds it by our reference once the lease ends.
      logger.warn('payout send outcome unknown; left to the reconciler', { payout_id: p.payout_id, connector: p.connector });
      return claimed.payout;
    } else {
      throw err;
    }
  }
  return recordAnswer(ctx, claimed, result);
}

/**
 * Writes a processor's answer to a claimed payout (conditional on the claim's version).
 * @throws OutcomeUnknownError when the write fails (a keyed request first hands its claim over)
 */
async function recordAnswer(
  ctx: RequestContext,
  claimed: StoredPayout,
  result: PayoutResult,
  extra: Parameters<typeof updatePayout>[1] = {},
): Promise<Payout> {
  const change = { ...(changeOfResult(claimed, result) ?? { pending_operation: null }), ...extra };
  try {
    const after = await updatePayout(claimed, change);
    countOutcome(claimed.payout, after.payout);
    return after.payout;
  } catch (err) {
    const recorded = await handOverAfterStorageFailure(ctx, claimed, err);
    if (recorded) return recorded;
    const id = claimed.payout.payout_id;
    throw new OutcomeUnknownError('payout', id, claimed.payout.connector, `/payouts/${id}`, { cause: err });
  }
}

/**
 * A keyed request whose answer could not be written hands its claim over (lease cut to now +
 * `CLAIM_LEASE_MARGIN_MS`), trying until storage answers or its time is up, so its retry reconciles at once.
 * @returns the payout when the hand-over finds it settled after all; undefined otherwise
 */
async function handOverAfterStorageFailure(ctx: RequestContext, claimed: StoredPayout, cause: unknown): Promise<Payout | undefined> {
  if (ctx.idempotencyKey === undefined || !isStorageUnavailable(cause)) return undefined;
  try {
    const result = await untilStorageAnswers(storageRetryDeadline(ctx), () =>
      handOverPayoutClaim(claimed, new Date(Date.now() + CLAIM_LEASE_MARGIN_MS).toISOString()),
    );
    if (result.handedOver) return undefined;
    return result.current && !result.current.pendingOperation ? result.current.payout : undefined;
  } catch (err) {
    logger.warn('payout claim could not be handed over; it is taken over when its lease ends', {
      payout_id: claimed.payout.payout_id,
      error: (err as Error).name,
    });
    return undefined;
  }
}

/**
 * `POST /payouts/{id}/authenticate {otp}`: relays the merchant's OTP to the processor for a payout in
 * `RequiresAction`. The OTP is held in memory only (never logged, stored or echoed). A wrong OTP answers the payout
 * still `RequiresAction` with `error_code` `invalid_otp` and one attempt less in `next_action.attempts_remaining`; the
 * {@link MAX_PAYOUT_OTP_ATTEMPTS}th wrong one fails it (`otp_attempts_exceeded`: the transfer is never finalized, so
 * nothing is sent, and the daily-limit reservation is released).
 * @throws ApiError 404; 409 `payout_unexpected_state` unless `RequiresAction`; 409 `payout_busy` while another
 *   request calls the processor for it; 400 `payout_not_supported` when its processor takes no OTP; 502
 *   `connector_error` when the processor refuses the call
 * @throws OutcomeUnknownError (503) when the answer could not be recorded
 */
export async function authenticatePayout(ctx: RequestContext, payoutId: string, otp: string): Promise<Payout> {
  const stored = await loadPayout(ctx.merchantId, payoutId);
  const p = stored.payout;
  if (p.status !== 'RequiresAction') throw payoutUnexpectedState('authenticate', p.status);
  if (stored.pendingOperation && leaseActive(stored.pendingOperation)) throw payoutBusy();
  const connector = await payoutConnectorOf(ctx.merchantId, p);
  const authenticate = connector.payouts.authenticatePayout?.bind(connector.payouts);
  if (!authenticate) throw invalidRequest('payout_not_supported', `${p.connector} takes no OTP for payouts.`);
  const claim = startPendingOperation('payout', connector, p.payout_id, p.amount, Date.now(), { holderEndMs: requestEndMs(ctx) });
  let claimed: StoredPayout;
  try {
    claimed = await updatePayout(stored, { pending_operation: claim });
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      const current = err.current as StoredPayout | undefined;
      if (current && current.payout.status !== 'RequiresAction') throw payoutUnexpectedState('authenticate', current.payout.status);
      throw payoutBusy();
    }
    throw err;
  }
  let result: PayoutResult;
  try {
    result = await callWithinBudget(ctx, connector, 'authenticate_payout', () => authenticate({ ...lookupOf(claimed), otp }));
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      await updatePayout(claimed, { pending_operation: null }).catch(() => undefined);
      throw new ApiError(
        502,
        'connector_error',
        maskCardNumbers(err.code),
        `${p.connector} refused the OTP call: ${maskCardNumbers(err.message)} Nothing was sent.`,
      );
    }
    if (err instanceof ConnectorTechnicalError) return claimed.payout;
    throw err;
  }
  if (result.wrongOtp) {
    const attempts = claimed.otpAttempts + 1;
    if (attempts >= MAX_PAYOUT_OTP_ATTEMPTS) {
      return recordAnswer(
        ctx,
        claimed,
        {
          status: 'Failed',
          connectorPayoutId: result.connectorPayoutId,
          errorCode: 'otp_attempts_exceeded',
          errorMessage: `${MAX_PAYOUT_OTP_ATTEMPTS} wrong OTPs were sent for this payout: it was not sent. Create a new payout to send it.`,
        },
        { otp_attempts: attempts },
      );
    }
    return recordAnswer(
      ctx,
      { ...claimed, otpAttempts: attempts },
      { ...result, status: 'RequiresAction' },
      {
        otp_attempts: attempts,
        next_action: otpNextAction(attempts),
        error_code: 'invalid_otp',
        error_message: `The OTP is not the one ${p.connector} sent: ${MAX_PAYOUT_OTP_ATTEMPTS - attempts} attempt(s) left before the payout fails.`,
      },
    );
  }
  return recordAnswer(ctx, claimed, result, result.status === 'RequiresAction' ? {} : { error_code: null, error_message: null });
}

/**
 * `POST /payouts/{id}/cancel`: cancels a payout that was not sent (`RequiresConfirmation`): one conditional write.
 * A payout already `Cancelled` is answered as it is. A sent payout cannot be cancelled: neither Paystack nor
 * Flutterwave has a call that recalls a transfer.
 * @throws ApiError 404; 409 `payout_unexpected_state` for a payout that was sent (or is being sent)
 */
export async function cancelPayout(ctx: RequestContext, payoutId: string): Promise<Payout> {
  let stored = await loadPayout(ctx.merchantId, payoutId);
  for (;;) {
    if (stored.payout.status === 'Cancelled') return stored.payout;
    if (stored.payout.status !== 'RequiresConfirmation') throw payoutUnexpectedState('cancel', stored.payout.status);
    try {
      return (await updatePayout(stored, { status: 'Cancelled' })).payout;
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      stored = (err.current as StoredPayout | undefined) ?? (await loadPayout(ctx.merchantId, payoutId));
    }
  }
}
