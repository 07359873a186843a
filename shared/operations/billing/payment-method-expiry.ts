/**
 * `payment_method.expiring` (docs/api.md "`payment_method.expiring`"): 30 days before a saved method stops working (its card's expiry, or a
 * processor token's lifetime such as Flutterwave's one year), the merchant is told once, so it can ask the
 * customer for a new one before a renewal fails. The notice is a due entry on the method's item
 * (shared/storage/payment-methods-repository.ts), worked by the renewal worker, or by a test clock's advance for
 * a customer living on one.
 */
import { instantOf } from '../../domain/billing-period';
import { expiringNoticeEntry, getStoredPaymentMethod, sendExpiringNotice } from '../../storage/payment-methods-repository';

/**
 * Sends a method's expiry notice if it is due at `now` and not sent (once: a conditional transaction).
 * @param now ISO 8601 UTC (real, or the test clock's)
 * @returns whether the notice was sent by this call
 * @throws storage errors
 */
export async function workDueExpiry(merchantId: string, paymentMethodId: string, now: string): Promise<boolean> {
  const entry = await expiringNoticeEntry(merchantId, paymentMethodId);
  if (!entry) return false;
  // Compared as instants, never as text (shared/domain/billing-period.ts); an entry that names no time is not due.
  const dueMs = Date.parse(entry.split('#')[0] ?? '');
  if (Number.isNaN(dueMs) || dueMs > instantOf(now)) return false;
  const stored = await getStoredPaymentMethod(merchantId, paymentMethodId);
  if (!stored || stored.method.status !== 'active') return false;
  return sendExpiringNotice(merchantId, stored.method, entry, now);
}
