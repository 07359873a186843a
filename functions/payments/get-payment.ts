// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { loadPayment } from '../../shared/operations/payments/load-payment';
import { forceSyncQuerySchema } from '../../shared/schemas/force-sync-schema';

/**
 * `GET /payments/{payment_id}`: the payment (card reduced to last4, brand, expiry); 404 when unknown.
 * `?force_sync=true` first reconciles a Processing or RequiresAction payment with its connector.
 */
export const handler = apiHandler({ query: forceSyncQuerySchema }, async (req) => ({
  body:
    req.query.force_sync === 'true'
      ? // The processor sync (routing, connectors) is loaded on the first force_sync only, so a plain read's cold start carries none of it.
        await (await import('../../shared/operations/payments/payment-sync')).syncPayment(req.operation, req.path.payment_id ?? '')
      : (await loadPayment(req.merchantId, req.path.payment_id ?? '')).payment,
}));
