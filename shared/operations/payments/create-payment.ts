import { idempotencyKeyInUse, idempotencyKeyReused, invalidRequest } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { Payment, PaymentMethod } from '../../domain/payment';
import { methodOfData } from '../../domain/payment-method-data';
import { canApply } from '../../domain/payment-status';
import { startPendingOperation } from '../../domain/pending-operation';
import { recordPaymentCreated } from '../../observability/metrics';
import type { CreatePaymentBody } from '../../schemas/payment-schemas';
import { idempotentId } from '../../security/keyed-hash';
import { singleUseLink } from '../../storage/payment-links-repository';
import {
  getPayment as readPayment,
  type StoredPayment,
  createPayment as storeNewPayment,
  type TransactionItem,
} from '../../storage/payments-repository';
import { ItemExistsError, LinkedCustomerMissingError } from '../../storage/storage-errors';
import type { RequestContext } from '../request-context';
import type { RoutedCandidates } from '../routing/route-candidates';
import { routePayment } from '../routing/route-payment';
import { customerContactFor } from './customer-contact';
import { loadPayment } from './load-payment';
import {
  acceptanceOf,
  authorizationInput,
  methodSummary,
  routingFacts,
  savedMethodCandidates,
  savedMethodSummary,
  ussdBankOf,
} from './payment-method-facts';
import { claimHolderOf, claimInFlight } from './payment-state';

export type { RequestContext } from '../request-context';

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
  if (existing.pendingOperation || canApply('connector_update', p.status)) {
    // Reconciliation is loaded by the first such retry only, not at cold start.
    const { reconcilePayment } = await import('./payment-sync');
    return (await reconcilePayment(ctx, existing)).payment;
  }
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
 * @param link a payment made on a payment link's checkout page: the link's id (kept as `payment_link_id`) and the
 *   conditional write that takes the link's place, written in the payment's create transaction
 *   With `body.payment_link`, the payment gets a single-use link (`payment.payment_link`) instead, written in the same
 *   transaction (shared/storage/payment-links-repository.ts `singleUseLink`). `payerPhone` (E.164): the phone a
 *   mobile-money payment is collected from, typed by the payer on the page, in place of the linked customer's
 *   (never stored on the payment: it reaches the processor only).
 * @throws ConditionFailedError (shared/storage/storage-errors.ts) when the link's place could not be taken: nothing
 *   was written and no processor was called
 */
export async function createPayment(
  ctx: RequestContext,
  body: CreatePaymentBody,
  link?: { paymentLinkId: string; placeReservation: TransactionItem; payerPhone?: string },
): Promise<Payment> {
  // A saved method is read first: it decides the customer, the method and the account.
  // Saved-method code is loaded by the first payment that names one, not at cold start.
  const saved = body.payment_method_id
    ? await (await import('../payment-methods/saved-methods')).savedMethodToCharge(
        ctx.merchantId,
        body.payment_method_id,
        body.customer_id,
        body.off_session ?? false,
      )
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
  // A saved method's charge shows its card, as a card payment does (the receipt's brand, last4, expiry).
  const summary = body.payment_method_data ? await methodSummary(body.payment_method_data) : saved ? savedMethodSummary(saved) : null;
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
  // Mobile money is collected from the payer's phone (the link's payer's, else the linked customer's, E.164), and a
  // connector that needs the payer's e-mail gets the customer's when the create gives none. Read before any claim.
  const contact = body.confirm
    ? await customerContactFor(ctx.merchantId, {
        customerId,
        paymentMethod,
        ...(link?.payerPhone ? { payerPhone: link.payerPhone } : {}),
        hasEmail: Boolean(body.email),
        candidates,
      })
    : { phone: null, email: null };
  const phone = contact.phone;
  const now = new Date().toISOString();
  // `payment_link: true`: the payment's single-use link, written in the payment's create transaction.
  const single = body.payment_link
    ? singleUseLink(ctx.merchantId, ctx.publicBaseUrl, paymentId, body.return_url ?? null, body.session_expiry)
    : undefined;
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
    email: body.email ?? contact.email,
    metadata: body.metadata ?? {},
    billing: body.billing ?? null,
    next_action: null,
    return_url: body.return_url ?? null,
    payment_link_id: link?.paymentLinkId ?? single?.link.payment_link_id ?? null,
    payment_link: single?.link ?? null,
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
      ...(link ? { alsoWrite: link.placeReservation } : single ? { alsoWrite: single.write } : {}),
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
  // The processor call (authorization, its outcome, a saved card, an invoice) is loaded by the first create that
  // confirms: a create without `confirm` calls no processor, so its cold start loads no processor call. `POST /payments/{id}/confirm` loads it at import.
  const { authorizeClaimed } = await import('./payment-authorization');
  return authorizeClaimed(ctx, stored, authorizationInput(body, { paymentMethod, phone, ussdBankCode, candidates, saved }));
}
