// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { webhookRawBody } from '../../shared/http/webhook-body';
import { receiveConnectorWebhook } from '../../shared/operations/inbound-webhooks/receive-connector-webhook';

/**
 * `POST /webhooks/{connector}` (no api-key; the connector's signature
 * authenticates it): the raw body (base64-decoded when API Gateway encoded it) is
 * verified before it is parsed, then applied once. 200 `{received, event_id, applied,
 * reason?, unmatched?}`; 401 on a bad signature; 400 for a signed but malformed event;
 * 409 `payment_busy` when the processor should deliver it again (docs/connectors.md "Webhooks").
 */
export const handler = apiHandler({ auth: false }, async (req) => {
  return {
    body: await receiveConnectorWebhook(req.path.connector ?? '', { rawBody: webhookRawBody(req.event), headers: req.event.headers ?? {} }),
  };
});
