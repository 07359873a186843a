import { summarizeCard } from '../domain/card';
import type { RoutingFacts } from '../domain/connector-account';
import { idempotencyKeyInUse, idempotencyKeyReused, invalidRequest, unexpectedState } from '../domain/errors';
import { isIdOf, newId } from '../domain/ids';
import type { Payment, PaymentMethod, PaymentMethodSummary } from '../domain/payment';
import { methodOfData } from '../domain/payment-method-data';
import { ALLOWED_FROM, canApply } from '../domain/payment-status';
import { startPendingOperation } from '../domain/pending-operation';
import { DEFAULT_USSD_BANK_CODE, USSD_BANKS } from '../domain/ussd-banks';
import { recordPaymentCreated } from '../observability/metrics';
import type { RoutedCandidates } from '../routing/routing';
import type { PaymentMethodData } from '../schemas/common';
import type { ConfirmPaymentBody, CreatePaymentBody } from '../schemas/payment-schemas';
import { cardFingerprint, idempotentId } from '../security/keyed-hash';
import { getCustomer } from '../storage/customers-repository';
import {
  getPayment as readPayment,
  type StoredPayment,
  createPayment as storeNewPayment,
  updatePayment,
} from '../storage/payments-repository';
import { ConditionFailedError, ItemExistsError, LinkedCustomerMissingError } from '../storage/storage-errors';
import { connectorForTarget } from './accounts/account-connectors';
import { authorizeClaimed } from './payment-authorization';
import { type SavedMethodToCharge, savedMethodToCharge } from './payment-methods/saved-methods';
import { settledFirst } from './payment-settled-first';
import { claimHolderOf, claimInFlight, conflict, requestToken } from './payment-state';
import { reconcilePayment } from './payment-sync';
import { loadPayment } from './payments/load-payment';
import type { RequestContext } from './request-context';
import { routePayment } from './routing/route-payment';

export type { RequestContext } from './request-context';

/**
 * The storable summary of a method's details: a card's last4, brand, expiry and keyed
 * fingerprint (never the PAN or CVC), or the USSD bank's code and name.
 */
export async function methodSummary(data: PaymentMethodData): Promise<PaymentMethodSummary> {
  if (data.card) return { card: summarizeCard(data.card, await cardFingerprint(data.card.card_number)) };
  const code = data.ussd!.bank_code;
  return { ussd: { bank_code: code, bank_name: USSD_BANKS[code] ?? code } };
}

/** What routing decides on for a payment (docs/api.md "Routing": `lhs` values of advanced rules). */
function routingFacts(
  p: Pick<Payment, 'payment_id' | 'amount' | 'currency' | 'metadata' | 'billing'>,
  paymentMethod: PaymentMethod | undefined,
  summary: PaymentMethodSummary | null,
): RoutingFacts {
  return {
    payment_id: p.payment_id,
    amount: p.amount,
    currency: p.currency,
    payment_method: paymentMethod,
    card_network: summary && 'card' in summary ? summary.card.brand : null,
    billing_country: p.billing?.address?.country ?? null,
    metadata: p.metadata ?? null,
  };
}

/** The USSD bank chosen for a payment (its stored summary), else the default bank {@link DEFAULT_USSD_BANK_CODE}. */
function ussdBankOf(summary: PaymentMethodSummary | null, paymentMethod: PaymentMethod | undefined): string | undefined {
  if (paymentMethod !== 'ussd') return undefined;
  return summary && 'ussd' in summary ? summary.ussd.bank_code : DEFAULT_USSD_BANK_CODE;
}

/**
 * A retried create (same `Idempotency-Key`) whose first attempt already wrote
 * the payment: answers that payment instead of creating and charging again.
 * A first attempt that died after its connector call is reconciled first.
 * @throws ApiError 422 when the retry asks for another amount or currency; 409 while the first still runs
 */
async function existingForRetry(ctx: RequestContext, wanted: Pick<Payment, 'payment_id' | 'amount' | 'currency'>): Promise<Payment> {
  const existing = await loadPayment(ctx.merchantId, wanted.payment_id);
  const p = existing.payment;
  if (p.amount !== wanted.amount || p.currency !== wanted.currency) {
    throw idempotencyKeyReused();
  }
  if (claimInFlight(existing)) throw idempotencyKeyInUse().asTransient();
  // Processing / RequiresAction or an unsettled claim: the first attempt may have reached the connector.
  if (existing.pendingOperation || canApply('connector_update', p.status)) return (await reconcilePayment(ctx, existing)).payment;
  return p;
}

/**
 * Creates a payment intent; with `confirm: true` also confirms it before returning.
 * With confirm, the payment is written already claimed for its authorization
 * (`pending_operation`: connector, amount, lease) before any processor is called.
 * @returns the payment (status `RequiresConfirmation`, or the confirm outcome)
 * @throws ApiError 400 `resource_missing` (param `customer_id`) when the customer does not exist;
 *   400 `parameter_missing` (param `payment_method`) for `confirm: true` without a method
 * @throws OutcomeUnknownError when a processor was called and its answer could not be recorded
 */
export async function createPayment(ctx: RequestContext, body: CreatePaymentBody): Promise<Payment> {
  // A saved method (issue 24) is read first: it decides the customer, the method and the account.
  const saved = body.payment_method_id
    ? await savedMethodToCharge(ctx.merchantId, body.payment_method_id, body.customer_id, body.off_session ?? false)
    : undefined;
  const paymentMethod: PaymentMethod | undefined = saved
    ? 'card'
    : (body.payment_method ?? (body.payment_method_data ? methodOfData(body.payment_method_data) : undefined));
  const customerId = body.customer_id ?? saved?.stored.method.customer_id ?? undefined;
  if (body.confirm && !paymentMethod) {
    throw invalidRequest(
      'parameter_missing',
      'Missing required parameter: payment_method (needed when confirm is true).',
      'payment_method',
    );
  }
  if (customerId !== undefined && !isIdOf('customer', customerId)) {
    throw invalidRequest('resource_missing', 'No such customer (check customer_id).', 'customer_id');
  }
  const summary = body.payment_method_data ? await methodSummary(body.payment_method_data) : null;
  const ussdBankCode = ussdBankOf(summary, paymentMethod);
  const paymentId = ctx.idempotencyKey ? await idempotentId('pay', ctx.merchantId, 'payments', ctx.idempotencyKey) : newId('payment');
  let candidates: RoutedCandidates;
  try {
    // A saved method is charged through the account that issued its token, nowhere else.
    if (saved) candidates = await savedMethodCandidates(ctx.merchantId, saved);
    // A create without confirm calls no processor: it names a connector whatever the circuits say.
    else
      candidates = await routePayment(
        ctx.merchantId,
        routingFacts(
          {
            payment_id: paymentId,
            amount: body.amount,
            currency: body.currency,
            metadata: body.metadata ?? {},
            billing: body.billing ?? null,
          },
          paymentMethod,
          summary,
        ),
        { ussdBankCode, pinned: body.merchant_connector_id, respectCircuits: Boolean(body.confirm) },
      );
  } catch (err) {
    // A retry (same Idempotency-Key) of a create whose first attempt already wrote the payment, and
    // may have charged it (e.g. answered 503 outcome_unknown, so no idempotency record was kept), is
    // answered from that payment — never refused with "nothing was changed" because routing would now
    // answer otherwise (circuits opened, its connector account disabled or deleted since). Read only on
    // this error path: a routed create costs no read of its own.
    if (ctx.idempotencyKey && (await readPayment(ctx.merchantId, paymentId))) {
      return existingForRetry(ctx, { payment_id: paymentId, amount: body.amount, currency: body.currency });
    }
    throw err;
  }
  // Mobile money is collected from the payer's phone: the linked customer's (E.164). Read before any claim.
  const phone =
    body.confirm && paymentMethod === 'mobile_money' && customerId
      ? ((await getCustomer(ctx.merchantId, customerId))?.phone ?? null)
      : null;
  const now = new Date().toISOString();
  const payment: Payment = {
    payment_id: paymentId,
    status: body.confirm ? 'Processing' : 'RequiresConfirmation',
    pending_operation: null,
    amount: body.amount,
    currency: body.currency,
    amount_captured: 0,
    amount_refunded: 0,
    amount_disputed: 0,
    disputes: [],
    capture_method: body.capture_method,
    payment_method: paymentMethod ?? null,
    payment_method_data: summary,
    payment_method_id: body.payment_method_id ?? null,
    setup_future_usage: body.setup_future_usage ?? null,
    customer_acceptance: acceptanceOf(body.customer_acceptance),
    connector: candidates[0].name,
    merchant_connector_id: candidates[0].merchantConnectorId,
    connector_transaction_id: null,
    customer_id: customerId ?? null,
    description: body.description ?? null,
    email: body.email ?? null,
    metadata: body.metadata ?? {},
    billing: body.billing ?? null,
    next_action: null,
    return_url: body.return_url ?? null,
    cancellation_reason: null,
    error_code: null,
    error_message: null,
    attempts: [],
    created_at: now,
    updated_at: now,
  };
  let stored: StoredPayment;
  try {
    const claim = body.confirm
      ? startPendingOperation('authorize', candidates[0], payment.payment_id, payment.amount, Date.now(), claimHolderOf(ctx))
      : undefined;
    stored = await storeNewPayment(ctx.merchantId, payment, claim, ctx.listShards, {
      routingPinned: Boolean(body.merchant_connector_id || saved),
    });
  } catch (err) {
    if (err instanceof LinkedCustomerMissingError) {
      throw invalidRequest('resource_missing', 'No such customer (check customer_id).', 'customer_id');
    }
    if (err instanceof ItemExistsError) return existingForRetry(ctx, payment);
    throw err;
  }
  recordPaymentCreated(stored.payment);
  if (!body.confirm || !paymentMethod) return stored.payment;
  return authorizeClaimed(ctx, stored, {
    paymentMethod,
    card: body.payment_method_data?.card,
    phone,
    ussdBankCode,
    candidates,
    ...(saved ? { savedMethod: saved.charge, offSession: body.off_session ?? false } : {}),
  });
}

/** The one connector a saved method is charged through: the account that issued its token. */
async function savedMethodCandidates(merchantId: string, saved: SavedMethodToCharge): Promise<RoutedCandidates> {
  const m = saved.stored.method;
  const only = await connectorForTarget(merchantId, m.connector, m.merchant_connector_id);
  return Object.assign([only] as [typeof only], { skipped: [] });
}

/** The stored form of `customer_acceptance` (`online` null when not given). */
function acceptanceOf(a: CreatePaymentBody['customer_acceptance']): Payment['customer_acceptance'] {
  return a ? { acceptance_type: a.acceptance_type, accepted_at: a.accepted_at, online: a.online ?? null } : null;
}

/**
 * Confirms a payment created with `confirm: false`: claims it (`Processing`, with its
 * `pending_operation`) with a conditional write, calls the connector, records the outcome.
 * A retry with the same `Idempotency-Key` of a confirm that ended without its answer (503 `outcome_unknown`)
 * reconciles the payment first once the claim is free, and answers it (200) when that confirm was its own
 * first attempt (`last_request`, {@link requestToken}).
 * @throws ApiError 404 unknown payment; 409 `payment_unexpected_state` unless `RequiresConfirmation`
 *   (also when a concurrent confirm won the race, or while a claim is in flight); 400 when no payment method is known
 * @throws OutcomeUnknownError when a processor was called and its answer could not be recorded
 */
export async function confirmPayment(ctx: RequestContext, paymentId: string, body: ConfirmPaymentBody): Promise<Payment> {
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
  // A saved method (issue 24): named now, or at create.
  const savedMethodId = body.payment_method_id ?? (body.payment_method_data ? undefined : (p.payment_method_id ?? undefined));
  const saved = savedMethodId
    ? await savedMethodToCharge(ctx.merchantId, savedMethodId, p.customer_id, body.off_session ?? false)
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
  const summary = body.payment_method_data ? await methodSummary(body.payment_method_data) : keptSummary;
  const ussdBankCode = ussdBankOf(summary, paymentMethod);
  // Routed again with what is known now (the method and card given at confirm decide rules the create
  // could not), unless the create pinned its account: a pin holds until the confirm names another. A saved
  // method goes to the account that issued it.
  const pinned = body.merchant_connector_id ?? (stored.routingPinned ? (p.merchant_connector_id ?? undefined) : undefined);
  const candidates = saved
    ? await savedMethodCandidates(ctx.merchantId, saved)
    : await routePayment(ctx.merchantId, routingFacts(p, paymentMethod, summary), {
        ussdBankCode,
        pinned,
        preferred: { name: p.connector, merchantConnectorId: p.merchant_connector_id ?? null },
      });
  const phone =
    paymentMethod === 'mobile_money' && p.customer_id ? ((await getCustomer(ctx.merchantId, p.customer_id))?.phone ?? null) : null;
  let claimed: StoredPayment;
  try {
    claimed = await updatePayment(
      ctx.merchantId,
      stored,
      { expectedStatuses: ['RequiresConfirmation'], requireNoPendingOperation: true },
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
      },
      startPendingOperation('authorize', candidates[0], p.payment_id, p.amount, Date.now(), claimHolderOf(ctx, token)),
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw conflict('confirm', err);
    throw err;
  }
  return authorizeClaimed(ctx, claimed, {
    paymentMethod,
    card: body.payment_method_data?.card,
    phone,
    ussdBankCode,
    candidates,
    ...(saved ? { savedMethod: saved.charge, offSession: body.off_session ?? false } : {}),
  });
}
