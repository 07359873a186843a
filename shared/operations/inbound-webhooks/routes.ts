/**
 * The processors' inbound webhook routes (`/webhooks/{connector}…`, `connectorWebhook`): the stage's own
 * accounts', and one per connector account. Data read by shared/api/routes.ts: schemas, the domain and
 * shared/api's route types only.
 */
import * as z from 'zod';
import { CONCURRENT_WRITE, JSON_ROUTE, mergeErrors } from '../../api/operation-errors';
import { CONNECTOR_ACCOUNT_ID, json, type RequestHeaderDoc } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { WebhookReceiptResource } from '../../schemas/webhook-receipt-schema';

/** The signature headers processors send on their webhooks (`POST /webhooks/{connector}[/{merchant_connector_id}]`). */
const PROCESSOR_SIGNATURE_HEADERS: readonly RequestHeaderDoc[] = [
  { name: 'x-paystack-signature', description: 'Paystack: HMAC-SHA512 of the raw body with the secret key.' },
  { name: 'verif-hash', description: "Flutterwave: the dashboard's secret hash." },
  { name: 'stripe-signature', description: 'Stripe: `t=…,v1=…` over the raw body.' },
  { name: 'x-sandbox-signature', description: 'The sandbox: hex HMAC-SHA256 of `sandbox-webhook:` + the raw body.' },
];

/** What a processor's webhook can be answered (shared/operations/inbound-webhooks/receive-connector-webhook.ts `receiveConnectorWebhook`). */
const PROCESSOR_WEBHOOK_ERRORS = mergeErrors(
  JSON_ROUTE,
  { 400: ['invalid_json', 'parameter_missing', 'parameter_invalid_type', 'parameter_invalid'] },
  { 401: ['invalid_signature'] },
  { 404: ['resource_missing'] },
  { 409: ['payment_busy'] },
  CONCURRENT_WRITE,
  { 503: ['connector_unreachable', 'service_unavailable', 'outcome_unknown'] },
);

/** The stage's own inbound webhook route. */
export const PROCESSOR_WEBHOOK_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/webhooks/{connector}',
    entry: 'functions/webhooks/receive-webhook.ts',
    name: 'ReceiveWebhook',
    access: 'write',
    auth: false,
    connectors: true,
    connectorWebhook: true,
    openapi: {
      operationId: 'receiveWebhook',
      tag: 'Processor webhooks',
      summary: "Receive a processor's webhook",
      description:
        "The processors' inbound route (no api-key: the connector's own signature authenticates it, verified over the raw body before it is parsed). Applied once: a redelivered event changes nothing, a terminal payment never changes. 409 `payment_busy` asks the processor to deliver again. Not for merchants.",
      pathParams: { connector: 'The connector that sends the event: `sandbox`, `paystack`, `flutterwave` or `stripe`.' },
      body: {
        schema: z.record(z.string(), z.unknown()).describe("The processor's event, as it sends it."),
        required: true,
        mediaType: 'application/json',
        description: "The processor's event JSON, signed by the processor.",
      },
      requestHeaders: PROCESSOR_SIGNATURE_HEADERS,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(WebhookReceiptResource, 'The event was verified and taken (applied or not).') },
      errors: PROCESSOR_WEBHOOK_ERRORS,
    },
  },
];

/** A connector account's own inbound webhook route (its `webhook_url`). */
export const ACCOUNT_WEBHOOK_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/webhooks/{connector}/{merchant_connector_id}',
    entry: 'functions/webhooks/receive-account-webhook.ts',
    name: 'ReceiveAccountWebhook',
    access: 'write',
    auth: false,
    connectors: true,
    connectorWebhook: true,
    openapi: {
      operationId: 'receiveAccountWebhook',
      tag: 'Processor webhooks',
      summary: "Receive a processor's webhook for one of your connector accounts",
      description:
        "A connector account's own inbound route, its `webhook_url` (no api-key): verified with that account's secret only (Stripe: its `connector_webhook_details.merchant_secret`; Flutterwave: its secret hash; Paystack: its secret key), then applied once to that account's payment or refund, as `POST /webhooks/{connector}` applies the stage's. An event signed with another account's secret is 401 and changes nothing; an unknown (or deleted) account, or a `connector` that is not the account's, is 404. Point the processor's dashboard here. Not for merchants' code.",
      pathParams: {
        connector: "The account's connector: `paystack`, `flutterwave`, `stripe` or `sandbox`.",
        ...CONNECTOR_ACCOUNT_ID,
      },
      body: {
        schema: z.record(z.string(), z.unknown()).describe("The processor's event, as it sends it."),
        required: true,
        mediaType: 'application/json',
        description: "The processor's event JSON, signed with the account's secret.",
      },
      requestHeaders: PROCESSOR_SIGNATURE_HEADERS,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(WebhookReceiptResource, 'The event was verified and taken (applied or not).') },
      errors: PROCESSOR_WEBHOOK_ERRORS,
    },
  },
];
