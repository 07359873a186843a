/**
 * The SDK's resource types, each looked up in the types generated from `docs/openapi.json`
 * (`src/generated/schema.ts`, openapi-typescript) by path and method — never written by hand, so
 * they change when the spec does. Type-only module: nothing here exists at run time.
 */
import type { Client, ClientPathsWithMethod, MethodResponse } from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

/** The HTTP methods the SDK calls, as openapi-typescript keys them (lower case). */
export type Method = 'get' | 'post' | 'put' | 'delete';

/** Every path of the API, as written in the spec (`/payments/{payment_id}`). */
export type ApiPath = keyof paths;

/** The operation object generated for `METHOD path`. */
export type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;

/**
 * The JSON request body of `METHOD path` (what the handler's zod schema accepts), or `never`
 * when the operation takes none.
 */
export type RequestBody<P extends ApiPath, M extends Method> = Operation<P, M> extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: { 'application/json': infer J } }
    ? J
    : never
  : never;

/** The openapi-fetch client typed by the generated `paths`. */
export type ApiClient = Client<paths>;

/**
 * The JSON body of the `2xx` answer of `METHOD path`, as openapi-fetch types the `data` it returns
 * (its `Readable` view of the generated type: e.g. a one-item tuple `["*"]` reads as `"*"[]`).
 */
export type ResponseBody<P extends ClientPathsWithMethod<ApiClient, M>, M extends Method> = MethodResponse<ApiClient, M, P>;

/** The query parameters of `METHOD path` (`limit`, `starting_after`, `created[gte]`, filters…). */
export type QueryParams<P extends ApiPath, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

/**
 * The API versions the spec accepts in `Switchyard-Version` (its parameter's `enum`): before 1.0,
 * one date. The SDK's `API_VERSION` must be one of them, or the package does not compile.
 */
export type ApiVersion = components['parameters']['SwitchyardVersion'];

/** A payment intent, as `GET /payments/{payment_id}` answers it. */
export type Payment = ResponseBody<'/payments/{payment_id}', 'get'>;
/** A payment's status (`RequiresConfirmation`, `Processing`, `Succeeded`, …). */
export type PaymentStatus = Payment['status'];
/** Body of `POST /payments`: `amount` (minor units) and `currency` required. */
export type PaymentCreateParams = RequestBody<'/payments', 'post'>;
/** Query of `GET /payments/{payment_id}` (`force_sync`). */
export type PaymentRetrieveParams = QueryParams<'/payments/{payment_id}', 'get'>;
/** Query of `GET /payments` (`limit`, `offset`, `starting_after`, `created`, `status`). */
export type PaymentListParams = QueryParams<'/payments', 'get'>;
/** A page of payments: `{ data, has_more }`, newest first. */
export type PaymentList = ResponseBody<'/payments', 'get'>;
/** Body of `POST /payments/{payment_id}/confirm`. */
export type PaymentConfirmParams = RequestBody<'/payments/{payment_id}/confirm', 'post'>;
/** Body of `POST /payments/{payment_id}/authenticate`: exactly one of `pin`, `otp`, `phone`, `birthday`, `address`. */
export type PaymentAuthenticateParams = RequestBody<'/payments/{payment_id}/authenticate', 'post'>;
/** Body of `POST /payments/{payment_id}/capture` (`amount_to_capture`, minor units). */
export type PaymentCaptureParams = RequestBody<'/payments/{payment_id}/capture', 'post'>;
/** Body of `POST /payments/{payment_id}/cancel` (`cancellation_reason`). */
export type PaymentCancelParams = RequestBody<'/payments/{payment_id}/cancel', 'post'>;
/** Body of `POST /payments/{payment_id}/refund` (`amount` in minor units, default all that is left; `reason`). */
export type RefundCreateParams = RequestBody<'/payments/{payment_id}/refund', 'post'>;
/** Query of `GET /payments/{payment_id}/refunds`. */
export type RefundListParams = QueryParams<'/payments/{payment_id}/refunds', 'get'>;
/** A page of a payment's refunds. */
export type RefundList = ResponseBody<'/payments/{payment_id}/refunds', 'get'>;

/** A refund, as `GET /refunds/{refund_id}` answers it. */
export type Refund = ResponseBody<'/refunds/{refund_id}', 'get'>;
/** Query of `GET /refunds/{refund_id}` (`force_sync`). */
export type RefundRetrieveParams = QueryParams<'/refunds/{refund_id}', 'get'>;

/** A customer. */
export type Customer = ResponseBody<'/customers/{customer_id}', 'get'>;
/** Body of `POST /customers` (every field optional). */
export type CustomerCreateParams = RequestBody<'/customers', 'post'>;
/** Body of `PUT /customers/{customer_id}` (the fields to set). */
export type CustomerUpdateParams = RequestBody<'/customers/{customer_id}', 'put'>;
/** Query of `GET /customers` (paging, `created`, `email`). */
export type CustomerListParams = QueryParams<'/customers', 'get'>;
/** A page of customers. */
export type CustomerList = ResponseBody<'/customers', 'get'>;
/** The answer of `DELETE /customers/{customer_id}`: `{ customer_id, deleted: true }`. */
export type DeletedCustomer = ResponseBody<'/customers/{customer_id}', 'delete'>;

/** A payment link (a hosted checkout page), as `GET /payment_links/{payment_link_id}` answers it. */
export type PaymentLink = ResponseBody<'/payment_links/{payment_link_id}', 'get'>;
/** Body of `POST /payment_links`: `amount`, or `amount_min` and `amount_max`; `currency`; the rest optional. */
export type PaymentLinkCreateParams = RequestBody<'/payment_links', 'post'>;
/** Query of `GET /payment_links` (paging, `created`, `active`). */
export type PaymentLinkListParams = QueryParams<'/payment_links', 'get'>;
/** A page of payment links. */
export type PaymentLinkList = ResponseBody<'/payment_links', 'get'>;
/** The merchant profile: the checkout display (name, logo, colour, framing origins) and the return signing secret. */
export type MerchantProfile = ResponseBody<'/merchant_profile', 'get'>;
/** Body of `PUT /merchant_profile`: the whole checkout display (a field left out is cleared). */
export type MerchantProfileUpdateParams = RequestBody<'/merchant_profile', 'put'>;

/** A payment method saved on a customer (never its processor token), as `GET /payment_methods/{payment_method_id}` answers it. */
export type PaymentMethod = ResponseBody<'/payment_methods/{payment_method_id}', 'get'>;
/** Query of `GET /customers/{customer_id}/payment_methods` (paging, `created`). */
export type PaymentMethodListParams = QueryParams<'/customers/{customer_id}/payment_methods', 'get'>;
/** A page of a customer's attached payment methods. */
export type PaymentMethodList = ResponseBody<'/customers/{customer_id}/payment_methods', 'get'>;
/** The answer of `DELETE /payment_methods/{payment_method_id}`: the method, `status: detached`. */
export type DetachedPaymentMethod = ResponseBody<'/payment_methods/{payment_method_id}', 'delete'>;

/** A subscription, as `GET /subscriptions/{subscription_id}` answers it. */
export type Subscription = ResponseBody<'/subscriptions/{subscription_id}', 'get'>;
/** Body of `POST /subscriptions`. */
export type SubscriptionCreateParams = RequestBody<'/subscriptions', 'post'>;
/** Body of `PUT /subscriptions/{subscription_id}` (the fields to set). */
export type SubscriptionUpdateParams = RequestBody<'/subscriptions/{subscription_id}', 'put'>;
/** Query of `GET /subscriptions` (paging, `created`, `customer_id` or `status`). */
export type SubscriptionListParams = QueryParams<'/subscriptions', 'get'>;
/** A page of subscriptions. */
export type SubscriptionList = ResponseBody<'/subscriptions', 'get'>;
/** An invoice of a subscription's period, as `GET /invoices/{invoice_id}` answers it. */
export type Invoice = ResponseBody<'/invoices/{invoice_id}', 'get'>;
/** Query of `GET /invoices` (`subscription_id`, paging, `created`). */
export type InvoiceListParams = QueryParams<'/invoices', 'get'>;
/** A page of a subscription's invoices. */
export type InvoiceList = ResponseBody<'/invoices', 'get'>;

/** A webhook endpoint (never with its secret). */
export type WebhookEndpoint = ResponseBody<'/webhook_endpoints/{webhook_endpoint_id}', 'get'>;
/** The answer of `POST /webhook_endpoints`: the endpoint and its signing `secret` (`whsec_…`), shown only here and on rotation. */
export type WebhookEndpointWithSecret = ResponseBody<'/webhook_endpoints', 'post'>;
/** Body of `POST /webhook_endpoints`: `url`, `enabled_events` (default `["*"]`), `description`. */
export type WebhookEndpointCreateParams = RequestBody<'/webhook_endpoints', 'post'>;
/** Body of `PUT /webhook_endpoints/{webhook_endpoint_id}`: the fields to set. */
export type WebhookEndpointUpdateParams = RequestBody<'/webhook_endpoints/{webhook_endpoint_id}', 'put'>;
/** Query of `GET /webhook_endpoints`. */
export type WebhookEndpointListParams = QueryParams<'/webhook_endpoints', 'get'>;
/** A page of webhook endpoints. */
export type WebhookEndpointList = ResponseBody<'/webhook_endpoints', 'get'>;
/** The answer of `DELETE /webhook_endpoints/{webhook_endpoint_id}`. */
export type DeletedWebhookEndpoint = ResponseBody<'/webhook_endpoints/{webhook_endpoint_id}', 'delete'>;
/** The answer of `POST /webhook_endpoints/{webhook_endpoint_id}/rotate_secret`: the endpoint with its new `secret`. */
export type WebhookEndpointRotated = ResponseBody<'/webhook_endpoints/{webhook_endpoint_id}/rotate_secret', 'post'>;

/** An event (`payment.succeeded`, …), as `GET /events/{event_id}` answers it and as a webhook delivers it, byte for byte. */
export type Event = ResponseBody<'/events/{event_id}', 'get'>;
/** An event's type (`payment.created`, `refund.succeeded`, …). */
export type EventType = Event['type'];
/** Query of `GET /events` (paging, `created`, `type`). */
export type EventListParams = QueryParams<'/events', 'get'>;
/** A page of events. */
export type EventList = ResponseBody<'/events', 'get'>;
/** The answer of `GET /events/{event_id}/deliveries`: the event's deliveries and their attempts. */
export type EventDeliveryList = ResponseBody<'/events/{event_id}/deliveries', 'get'>;
/** Body of `POST /events/{event_id}/redeliver` (`webhook_endpoint_id`, optional). */
export type EventRedeliverParams = RequestBody<'/events/{event_id}/redeliver', 'post'>;
/** The answer of `POST /events/{event_id}/redeliver`: the deliveries attempted. */
export type EventRedeliverResult = ResponseBody<'/events/{event_id}/redeliver', 'post'>;

/** A connector account of the merchant (credentials masked), as `GET /connector_accounts/{merchant_connector_id}` answers it. */
export type ConnectorAccount = ResponseBody<'/connector_accounts/{merchant_connector_id}', 'get'>;
/** A connector's name: `paystack`, `flutterwave`, `stripe` or `sandbox`. */
export type ConnectorName = ConnectorAccount['connector_name'];
/**
 * Body of `POST /connector_accounts`: `connector_name`, and `connector_account_details` (write-only
 * credentials) for every connector but the sandbox; a union by `connector_name`, so a piece the
 * connector does not take (`key1` for Stripe) does not type-check.
 */
export type ConnectorAccountCreateParams = RequestBody<'/connector_accounts', 'post'>;
/** Body of `PUT /connector_accounts/{merchant_connector_id}`: the fields to set. */
export type ConnectorAccountUpdateParams = RequestBody<'/connector_accounts/{merchant_connector_id}', 'put'>;
/** Query of `GET /connector_accounts` (paging, `created`, `connector_name`, `disabled`). */
export type ConnectorAccountListParams = QueryParams<'/connector_accounts', 'get'>;
/** A page of connector accounts. */
export type ConnectorAccountList = ResponseBody<'/connector_accounts', 'get'>;
/** The answer of `DELETE /connector_accounts/{merchant_connector_id}`: `{ merchant_connector_id, deleted: true }`. */
export type DeletedConnectorAccount = ResponseBody<'/connector_accounts/{merchant_connector_id}', 'delete'>;

/** A routing algorithm, as `GET /routing/{routing_algorithm_id}` answers it (with `is_active`). */
export type RoutingAlgorithm = ResponseBody<'/routing/{routing_algorithm_id}', 'get'>;
/** An algorithm's `{ type, data }`: `single`, `priority`, `volume_split` or `advanced`. */
export type RoutingAlgorithmDefinition = components['schemas']['RoutingAlgorithmDefinition'];
/** Body of `POST /routing`: `{ name, description?, algorithm }`. */
export type RoutingAlgorithmCreateParams = RequestBody<'/routing', 'post'>;
/** Query of `GET /routing` (paging, `created`). */
export type RoutingAlgorithmListParams = QueryParams<'/routing', 'get'>;
/** A page of routing algorithms. */
export type RoutingAlgorithmList = ResponseBody<'/routing', 'get'>;
/** Which algorithm is active: the answer of `GET /routing/active`, `POST /routing/deactivate`, and the `routing.activated` event's data. */
export type RoutingActivation = ResponseBody<'/routing/active', 'get'>;
/** The merchant's ordered fallback list, as `GET /routing/default` answers it. */
export type DefaultFallback = ResponseBody<'/routing/default', 'get'>;
/** Body of `PUT /routing/default`: `{ default_fallback: [{ merchant_connector_id }, …] }`. */
export type DefaultFallbackParams = RequestBody<'/routing/default', 'put'>;
/** The answer of `GET /routing/success_rates`: per connector account and segment, the window success-rate routing scores. */
export type SuccessRates = ResponseBody<'/routing/success_rates', 'get'>;
/** Automatic retries of soft declines: `{ enabled, max_auto_retries }` (`GET`/`PUT /routing/auto_retries`). */
export type AutoRetries = ResponseBody<'/routing/auto_retries', 'get'>;
/** Body of `PUT /routing/auto_retries`: `{ enabled, max_auto_retries? }` (0–3, default 1). */
export type AutoRetriesParams = RequestBody<'/routing/auto_retries', 'put'>;

/** The answer of `GET /health`. */
export type Health = ResponseBody<'/health', 'get'>;

/** A dispute, as `GET /disputes/{dispute_id}` answers it. */
export type Dispute = ResponseBody<'/disputes/{dispute_id}', 'get'>;
/** Query of `GET /disputes`. */
export type DisputeListParams = QueryParams<'/disputes', 'get'>;
/** A page of `GET /disputes`. */
export type DisputeList = ResponseBody<'/disputes', 'get'>;
/** Body of `POST /disputes/{dispute_id}/evidence`. */
export type DisputeEvidenceParams = RequestBody<'/disputes/{dispute_id}/evidence', 'post'>;
/** A file's metadata, as `GET /files/{file_id}` answers it. */
export type FileObject = ResponseBody<'/files/{file_id}', 'get'>;
/** A test clock (stages with the sandbox only). */
export type TestClock = ResponseBody<'/test_helpers/test_clocks/{test_clock_id}', 'get'>;
/** Body of `POST /test_helpers/test_clocks`. */
export type TestClockCreateParams = RequestBody<'/test_helpers/test_clocks', 'post'>;
/** Body of `POST /test_helpers/test_clocks/{test_clock_id}/advance`. */
export type TestClockAdvanceParams = RequestBody<'/test_helpers/test_clocks/{test_clock_id}/advance', 'post'>;

/** Query of `GET /refunds`. */
export type RefundListAllParams = QueryParams<'/refunds', 'get'>;
/** A page of `GET /refunds`. */
export type RefundListAll = ResponseBody<'/refunds', 'get'>;

/** A payout, as `GET /payouts/{payout_id}` answers it. */
export type Payout = ResponseBody<'/payouts/{payout_id}', 'get'>;
/** A payout's status. */
export type PayoutStatus = Payout['status'];
/** Body of `POST /payouts`. */
export type PayoutCreateParams = RequestBody<'/payouts', 'post'>;
/** Query of `GET /payouts/{payout_id}` (`force_sync`). */
export type PayoutRetrieveParams = QueryParams<'/payouts/{payout_id}', 'get'>;
/** Query of `GET /payouts`. */
export type PayoutListParams = QueryParams<'/payouts', 'get'>;
/** A page of `GET /payouts`. */
export type PayoutList = ResponseBody<'/payouts', 'get'>;
/** Body of `POST /payouts/{payout_id}/authenticate`. */
export type PayoutAuthenticateParams = RequestBody<'/payouts/{payout_id}/authenticate', 'post'>;
/** Body of `POST /payouts/resolve_account`. */
export type PayoutResolveAccountParams = RequestBody<'/payouts/resolve_account', 'post'>;
/** The answer of `POST /payouts/resolve_account`. */
export type ResolvedAccount = ResponseBody<'/payouts/resolve_account', 'post'>;
/** The payout priority list, as `GET|PUT /routing/payouts` answer it: `{ priority: [{ merchant_connector_id, connector_name }], is_custom }`. */
export type PayoutPriority = ResponseBody<'/routing/payouts', 'get'>;
/** Body of `PUT /routing/payouts`: `{ priority: [{ merchant_connector_id }, …] }` (`[]` clears it). */
export type PayoutPriorityParams = RequestBody<'/routing/payouts', 'put'>;
