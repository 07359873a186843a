import type { StoredPayment } from '../../storage/payments-repository';
import type { RequestContext } from '../request-context';
import { loadPayment } from './load-payment';
import { claimInFlight } from './payment-state';

/**
 * Before an operation on a payment whose last processor call has an unknown outcome
 * (an expired claim): settles it with the processor first (./payment-sync.ts `reconcilePayment`), so the
 * operation starts from the truth. A payment without an expired claim is returned as read.
 *
 * The reconciliation (and what settling an authorization brings: saving its method, settling its invoice) is
 * loaded on the first payment that needs it, not at import: capture and cancel handlers meet one only after
 * a fault, and their cold start does not pay for it.
 * @throws ApiError 502 when the processor cannot be asked; 404 when the payment is gone when read again
 */
export async function settledFirst(ctx: RequestContext, stored: StoredPayment): Promise<StoredPayment> {
  if (!stored.pendingOperation || claimInFlight(stored)) return stored;
  const { reconcilePayment } = await import('./payment-sync');
  await reconcilePayment(ctx, stored);
  return loadPayment(ctx.merchantId, stored.payment.payment_id);
}
