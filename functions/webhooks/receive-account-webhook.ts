// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { webhookRawBody } from '../../shared/http/webhook-body';
import { receiveConnectorWebhook } from '../../shared/operations/inbound-webhooks/receive-connector-webhook';

/**
 * `POST /webhooks/{connector}/{merchant_connector_id}` (no api-key): a processor's webhook for one of a
 * merchant's connector accounts (its `webhook_url`), verified with that account's secret only (Stripe's
 * signing secret, Flutterwave's secret hash, Paystack's secret key), then applied once to that account's
 * payment or refund. 404 for an unknown account; 401 when another account's (or no) secret signed it;
 * the rest as `POST /webhooks/{connector}`.
 */
export const handler = apiHandler({ auth: false }, async (req) => ({
  body: await receiveConnectorWebhook(
    req.path.connector ?? '',
    { rawBody: webhookRawBody(req.event), headers: req.event.headers ?? {} },
    req.path.merchant_connector_id ?? '',
  ),
}));
