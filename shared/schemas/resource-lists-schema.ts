/**
 * The list envelopes of the list endpoints, one component per element type
 * ({@link listEnvelope}): `GET /payments`, `GET /payments/{id}/refunds`, `GET /customers`,
 * `GET /events`, `GET /webhook_endpoints`, `GET /connector_accounts`, `GET /routing`, and the
 * deliveries of `GET /events/{id}/deliveries` and `POST /events/{id}/redeliver` (always
 * `has_more: false`).
 */

import { ConnectorAccountResource } from './connector-account-resource-schema';
import { CustomerResource } from './customer-resource-schema';
import { DisputeResource } from './dispute-resource-schema';
import { WebhookDeliveryResource } from './event-delivery-resource-schema';
import { EventResource } from './event-resource-schema';
import { listEnvelope } from './list-envelope-schema';
import { PaymentResource } from './payment-resource-schema';
import { RefundResource } from './refund-resource-schema';
import { RoutingAlgorithmResource } from './routing-algorithm-resource-schema';
import { InvoiceResource, SubscriptionResource } from './subscription-resource-schema';
import { WebhookEndpointResource } from './webhook-endpoint-resource-schema';

/** Component `PaymentList`. */
export const PaymentListResource = listEnvelope(PaymentResource, 'PaymentList', 'payments');
/** Component `RefundList`. */
export const RefundListResource = listEnvelope(RefundResource, 'RefundList', 'refunds');
/** Component `CustomerList`. */
export const CustomerListResource = listEnvelope(CustomerResource, 'CustomerList', 'customers');
/** Component `EventList`. */
export const EventListResource = listEnvelope(EventResource, 'EventList', 'events');
/** Component `WebhookEndpointList`. */
export const WebhookEndpointListResource = listEnvelope(WebhookEndpointResource, 'WebhookEndpointList', 'webhook endpoints');
/** Component `WebhookDeliveryList`: every delivery of one event (one per endpoint), `has_more` always false. */
export const WebhookDeliveryListResource = listEnvelope(WebhookDeliveryResource, 'WebhookDeliveryList', 'deliveries');
/** Component `ConnectorAccountList`: the merchant's connector accounts (credentials masked). */
export const ConnectorAccountListResource = listEnvelope(ConnectorAccountResource, 'ConnectorAccountList', 'connector accounts');
/** Component `RoutingAlgorithmList`: the merchant's routing algorithms. */
export const RoutingAlgorithmListResource = listEnvelope(RoutingAlgorithmResource, 'RoutingAlgorithmList', 'routing algorithms');
/** Component `SubscriptionList`. */
export const SubscriptionListResource = listEnvelope(SubscriptionResource, 'SubscriptionList', 'subscriptions');
/** Component `InvoiceList`. */
export const InvoiceListResource = listEnvelope(InvoiceResource, 'InvoiceList', 'invoices');
/** Component `DisputeList`. */
export const DisputeListResource = listEnvelope(DisputeResource, 'DisputeList', 'disputes');
