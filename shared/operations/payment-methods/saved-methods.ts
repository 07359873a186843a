/**
 * Saving a payment's card on its customer, and charging a saved one: the payment flow's
 * side of saved payment methods (the routes' side is payment-method-operations.ts).
 *
 * Saving: when a payment with `setup_future_usage` reaches `Succeeded` or `RequiresCapture` and its
 * processor returned a reusable token (`PaymentResult.savedMethod`), the token is encrypted (token
 * vault) and the method attached to the payment's customer with its `payment_method.attached` event;
 * the payment then names it in `payment_method_id`. The method's id is derived from the payment's, so
 * saving again (a retried request, a sync that sees the token again) finds it instead of adding one;
 * the same card saved by another payment of the customer (same processor fingerprint, same account)
 * refreshes that method's token.
 *
 * Charging: `payment_method_id` names a method of the merchant's; it is charged through the account
 * that issued it (a token works nowhere else), with the token decrypted in memory only.
 */
import type { SavedMethodCharge, SavedMethodToken } from '../../connectors/connector';
import { invalidRequest } from '../../domain/errors';
import { ID_PREFIXES, isIdOf } from '../../domain/ids';
import type { Payment } from '../../domain/payment';
import { cardExpiryEnd, type PaymentMethodResource } from '../../domain/payment-method';
import { logger } from '../../observability/logger';
import { keyedHash } from '../../security/keyed-hash';
import { getCustomer } from '../../storage/customers-repository';
import {
  attachPaymentMethod,
  customerHasPaymentMethods,
  getStoredPaymentMethod,
  type StoredPaymentMethod,
} from '../../storage/payment-methods-repository';
import { openToken, sealToken } from './token-vault';

/** The id of the method a payment saves: `pm_` + the payment id's random part (so saving twice finds it). */
export const paymentMethodIdFor = (paymentId: string) => `${ID_PREFIXES.paymentMethod}_${paymentId.replace(/^pay_/, '')}`;

/** Statuses after which a payment's card is saved: the money is authorized or taken. */
const SAVED_AFTER: ReadonlySet<Payment['status']> = new Set(['Succeeded', 'RequiresCapture']);

/**
 * Saves the card of a payment that asked for it (see the module comment). Does nothing when the payment
 * did not ask (`setup_future_usage` null), has no customer, is not `Succeeded`/`RequiresCapture`, already
 * names a method, or the processor returned no reusable token.
 * @returns the saved (or existing) method, or undefined when nothing was to be saved
 * @throws storage and encryption errors (the payment itself is recorded already: the caller decides)
 */
export async function saveMethodOfPayment(
  merchantId: string,
  payment: Payment,
  saved: SavedMethodToken | null | undefined,
): Promise<PaymentMethodResource | undefined> {
  if (!saved || !payment.setup_future_usage || !payment.customer_id || !SAVED_AFTER.has(payment.status)) return undefined;
  if (payment.payment_method_id) return undefined;
  const card = saved.card;
  if (!card) return undefined;
  const owner = { merchantId, merchantConnectorId: payment.merchant_connector_id, connector: payment.connector };
  // The processor's card identity when it gives one (scoped to its account by the guard); else a keyed hash of ours.
  const fingerprint = saved.fingerprint
    ? `${payment.connector}:${saved.fingerprint}`
    : `sy:${(await keyedHash(`token:${saved.token}`)).slice(0, 32)}`;
  const cardEnd = cardExpiryEnd(card.expMonth, card.expYear);
  const expiresAt = saved.expiresAt && saved.expiresAt < cardEnd ? saved.expiresAt : cardEnd;
  const hasOthers = await customerHasPaymentMethods(merchantId, payment.customer_id);
  // A customer living on a test clock: the method's expiry notice is due by that clock.
  const testClock = (await getCustomer(merchantId, payment.customer_id))?.test_clock ?? null;
  const now = new Date().toISOString();
  const method: PaymentMethodResource & { customer_id: string } = {
    payment_method_id: paymentMethodIdFor(payment.payment_id),
    customer_id: payment.customer_id,
    type: 'card',
    card: {
      brand: card.brand.toLowerCase(),
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint,
      bin: card.bin ?? null,
      issuer_country: card.issuerCountry ?? null,
    },
    connector: payment.connector,
    merchant_connector_id: payment.merchant_connector_id,
    recurring_enabled: payment.setup_future_usage === 'off_session',
    status: 'active',
    default: !hasOthers,
    payment_id: payment.payment_id,
    created_at: now,
    last_used_at: null,
    expires_at: expiresAt,
  };
  const { method: attached } = await attachPaymentMethod(merchantId, {
    method,
    tokenCiphertext: await sealToken(saved.token, owner),
    processorCustomerId: saved.processorCustomerId ?? null,
    tokenEmail: saved.email ?? payment.email ?? null,
    testClock,
  });
  return attached;
}

/**
 * {@link saveMethodOfPayment} for a payment already recorded: a failure is logged (never the token) and
 * answered undefined — the payment's outcome stands and it keeps `payment_method_id: null` (the card is not
 * saved; a later payment with `setup_future_usage` saves it).
 */
export async function trySaveMethodOfPayment(
  merchantId: string,
  payment: Payment,
  saved: SavedMethodToken | null | undefined,
): Promise<PaymentMethodResource | undefined> {
  try {
    return await saveMethodOfPayment(merchantId, payment, saved);
  } catch (err) {
    logger.error('saving the payment method of a succeeded payment failed; the payment keeps payment_method_id null', {
      payment_id: payment.payment_id,
      error: (err as Error).name,
    });
    return undefined;
  }
}

/** A saved method ready to charge: the stored method, its decrypted token and where it was issued. */
export interface SavedMethodToCharge {
  stored: StoredPaymentMethod;
  charge: SavedMethodCharge;
}

/**
 * Loads a saved method for a payment to charge it (create or confirm with `payment_method_id`).
 * @param customerId the payment's customer when it has one (it must be the method's)
 * @param offSession whether the payer is absent (the method must have been saved with `off_session`)
 * @throws ApiError 400 `resource_missing` (param `payment_method_id`) when it does not exist for this merchant or is
 *   detached; 400 `payment_method_unusable` when it belongs to another customer (param `payment_method_id`), or is
 *   charged off-session without having been saved for that (param `off_session`); encryption errors when its token does not open
 */
export async function savedMethodToCharge(
  merchantId: string,
  paymentMethodId: string,
  customerId: string | null | undefined,
  offSession: boolean,
): Promise<SavedMethodToCharge> {
  const stored = isIdOf('paymentMethod', paymentMethodId) ? await getStoredPaymentMethod(merchantId, paymentMethodId) : undefined;
  if (!stored || stored.method.status !== 'active' || !stored.tokenCiphertext) {
    throw invalidRequest(
      'resource_missing',
      'No such saved payment method (check payment_method_id; a detached one cannot be charged).',
      'payment_method_id',
    );
  }
  const m = stored.method;
  if (customerId && m.customer_id !== customerId) {
    throw invalidRequest(
      'payment_method_unusable',
      "This payment method is saved on another customer than the payment's.",
      'payment_method_id',
    );
  }
  if (offSession && !m.recurring_enabled) {
    throw invalidRequest(
      'payment_method_unusable',
      'This payment method was saved for on-session use only: charge it with the payer present (off_session false), or save it with setup_future_usage off_session.',
      'off_session',
    );
  }
  const token = await openToken(stored.tokenCiphertext, {
    merchantId,
    merchantConnectorId: m.merchant_connector_id,
    connector: m.connector,
  });
  return { stored, charge: { token, processorCustomerId: stored.processorCustomerId, email: stored.tokenEmail } };
}
