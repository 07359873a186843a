/** `POST /payments/{payment_id}/confirm` (apart from ./create-payment.ts's create, which loads the processor call on first use). */
import { ApiError, invalidRequest, unexpectedState } from '../../domain/errors';
import type { Payment } from '../../domain/payment';
import { methodOfData } from '../../domain/payment-method-data';
import { ALLOWED_FROM, canApply } from '../../domain/payment-status';
import { startPendingOperation } from '../../domain/pending-operation';
import type { ConfirmPaymentBody } from '../../schemas/payment-schemas';
import { type StoredPayment, updatePayment } from '../../storage/payments-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import { routePayment } from '../routing/route-payment';
import { cardBinOf } from '../routing/success-rate-segment';
import { customerContactFor } from './customer-contact';
import { loadPayment } from './load-payment';
import { authorizeClaimed } from './payment-authorization';
import {
  acceptanceOf,
  authorizationInput,
  methodSummary,
  routingFacts,
  savedMethodCandidates,
  savedMethodSummary,
  ussdBankOf,
} from './payment-method-facts';
import { settledFirst } from './payment-settled-first';
import { claimHolderOf, claimInFlight, conflict, requestToken } from './payment-state';

/**
 * Confirms a payment created with `confirm: false`: claims it (`Processing`, with its
 * `pending_operation`) with a conditional write, calls the connector, records the outcome.
 * A retry with the same `Idempotency-Key` of a confirm that ended without its answer (503 `outcome_unknown`)
 * reconciles the payment first once the claim is free, and answers it (200) when that confirm was its own
 * first attempt (`last_request`, {@link requestToken}).
 * @throws ApiError 404 unknown payment; 409 `payment_unexpected_state` unless `RequiresConfirmation`
 *   (also when a concurrent confirm won the race, or while a claim is in flight); 400 when no payment method is known
 * @throws OutcomeUnknownError when a processor was called and its answer could not be recorded
 * @param payer.payerPhone (E.164) the phone a mobile-money payment is collected from, typed by the payer on a
 *   checkout page, in place of the linked customer's (never stored: it reaches the processor only)
 * @param payer.payerEmail the payer's e-mail a checkout page asked (or its customer's) for a payment without one: set
 *   as the payment's `email` in the confirm's claim, so the processor gets it (Paystack and Flutterwave need one)
 * @param payer.onSingleUseLink the confirm comes from the payment's single-use link's page: its claim (the conditional
 *   write that starts the confirm) also requires the link unexpired at the claim's time (`Date.now()`), so a form
 *   drawn before `expires_at` and posted after it confirms nothing
 * @throws ApiError 410 `payment_link_expired` (with `payer.onSingleUseLink`) when the link had expired at the claim:
 *   nothing was claimed, changed or sent
 */
export async function confirmPayment(
  ctx: RequestContext,
  paymentId: string,
  body: ConfirmPaymentBody,
  payer: { payerPhone?: string; payerEmail?: string; onSingleUseLink?: boolean } = {},
): Promise<Payment> {
  const token = await requestToken(ctx, paymentId, 'confirm');
  let stored = await loadPayment(ctx.merchantId, paymentId);
  if (!canApply('confirm', stored.payment.status)) {
    // A claim whose lease has ended (its request is over) is settled with the processor first.
    stored = await settledFirst(ctx, stored);
    // This request's own first attempt confirmed it (its answer was lost): the payment as it is now.
    if (token !== undefined && stored.lastRequest === token && !claimInFlight(stored)) return stored.payment;
    // Its authorization is not settled yet (a retried confirm): a transient 409, never a stored one.
    if (stored.pendingOperation) throw conflict('confirm', new ConditionFailedError(stored));
    throw unexpectedState('confirm', stored.payment.status, ALLOWED_FROM.confirm);
  }
  const p = stored.payment;
  if (body.setup_future_usage && !p.customer_id) {
    throw invalidRequest(
      'parameter_missing',
      'setup_future_usage needs a customer: create the payment with customer_id.',
      'setup_future_usage',
    );
  }
  // A saved method: named now, or at create.
  const savedMethodId = body.payment_method_id ?? (body.payment_method_data ? undefined : (p.payment_method_id ?? undefined));
  // Saved-method code is loaded by the first confirm that charges one, not at cold start.
  const saved = savedMethodId
    ? await (await import('../payment-methods/saved-methods')).savedMethodToCharge(
        ctx.merchantId,
        savedMethodId,
        p.customer_id,
        body.off_session ?? false,
      )
    : undefined;
  if (saved && p.setup_future_usage && body.setup_future_usage === undefined) {
    throw invalidRequest(
      'parameter_invalid',
      'This payment saves its card (setup_future_usage): it cannot charge a saved method too.',
      'payment_method_id',
    );
  }
  const paymentMethod = saved
    ? 'card'
    : (body.payment_method ?? (body.payment_method_data ? methodOfData(body.payment_method_data) : p.payment_method));
  if (!paymentMethod) {
    throw invalidRequest(
      'parameter_missing',
      'Missing required parameter: payment_method (the payment was created without one).',
      'payment_method',
    );
  }
  if (body.payment_method_data && paymentMethod !== methodOfData(body.payment_method_data)) {
    throw invalidRequest(
      'parameter_invalid',
      `payment_method_data holds ${methodOfData(body.payment_method_data)} data, but the payment method is ${paymentMethod}.`,
      'payment_method_data',
    );
  }
  // Details sent now replace those given at create; a card is never carried over to another method.
  const keptSummary =
    !saved && p.payment_method_data && paymentMethod === ('card' in p.payment_method_data ? 'card' : 'ussd') ? p.payment_method_data : null;
  // A saved method's charge shows its card, as a card payment does.
  const summary = body.payment_method_data
    ? await methodSummary(body.payment_method_data)
    : saved
      ? savedMethodSummary(saved)
      : keptSummary;
  const ussdBankCode = ussdBankOf(summary, paymentMethod);
  // Routed again with what is known now (the method and card given at confirm decide rules the create
  // could not), unless the create pinned its account: a pin holds until the confirm names another. A saved
  // method goes to the account that issued it.
  const pinned = body.merchant_connector_id ?? (stored.routingPinned ? (p.merchant_connector_id ?? undefined) : undefined);
  const candidates = saved
    ? await savedMethodCandidates(ctx.merchantId, saved)
    : await routePayment(
        ctx.merchantId,
        // The card's BIN (6 digits, never more) for a success-rate segment on card_bin; the PAN is not kept.
        { ...routingFacts(p, paymentMethod, summary), card_bin: cardBinOf(body.payment_method_data?.card?.card_number) },
        {
          ussdBankCode,
          pinned,
          preferred: { name: p.connector, merchantConnectorId: p.merchant_connector_id ?? null },
        },
      );
  const contact = await customerContactFor(ctx.merchantId, {
    customerId: p.customer_id,
    paymentMethod,
    ...(payer.payerPhone ? { payerPhone: payer.payerPhone } : {}),
    hasEmail: Boolean(p.email || payer.payerEmail),
    candidates,
  });
  const phone = contact.phone;
  const email = p.email ? undefined : (payer.payerEmail ?? contact.email ?? undefined);
  let claimed: StoredPayment;
  // The single-use link's expiry is judged in the claim itself, at the time of the claim.
  const linkOpenAt = payer.onSingleUseLink ? new Date(Date.now()).toISOString() : undefined;
  try {
    claimed = await updatePayment(
      ctx.merchantId,
      stored,
      { expectedStatuses: ['RequiresConfirmation'], requireNoPendingOperation: true, ...(linkOpenAt ? { linkOpenAt } : {}) },
      {
        status: 'Processing',
        connector: candidates[0].name,
        merchant_connector_id: candidates[0].merchantConnectorId,
        payment_method: paymentMethod,
        payment_method_data: summary,
        payment_method_id: saved ? saved.stored.method.payment_method_id : null,
        ...(body.setup_future_usage !== undefined
          ? { setup_future_usage: body.setup_future_usage, customer_acceptance: acceptanceOf(body.customer_acceptance) }
          : {}),
        ...(body.return_url !== undefined ? { return_url: body.return_url } : {}),
        ...(email ? { email } : {}),
      },
      startPendingOperation('authorize', candidates[0], p.payment_id, p.amount, Date.now(), claimHolderOf(ctx, token)),
    );
  } catch (err) {
    if (err instanceof ConditionFailedError && linkOpenAt && linkExpiredAt((err.current as StoredPayment | undefined)?.payment, linkOpenAt))
      throw linkExpired();
    if (err instanceof ConditionFailedError) throw conflict('confirm', err);
    throw err;
  }
  return authorizeClaimed(ctx, claimed, authorizationInput(body, { paymentMethod, phone, ussdBankCode, candidates, saved }));
}

/**
 * Whether a claim refused by its condition was refused for its single-use link's expiry: the payment as found still
 * awaits its confirm, unclaimed, and its link expires at or before `at` (ISO 8601 UTC).
 */
function linkExpiredAt(current: Payment | undefined, at: string): boolean {
  if (!current || current.status !== 'RequiresConfirmation' || current.pending_operation) return false;
  return !current.payment_link || current.payment_link.expires_at <= at;
}

/** 410 `payment_link_expired`: the single-use link expired before the confirm's claim; nothing was changed or sent. */
function linkExpired(): ApiError {
  return new ApiError(
    410,
    'invalid_request_error',
    'payment_link_expired',
    "This payment's link expired before the payment was confirmed. Nothing was charged or changed.",
  );
}
