/**
 * Compile-time proof (checked by `tsc --noEmit`, never run) that each resource type the domain declares is exactly
 * the output of its wire schema: the domain owns the types and value lists, the schemas are built from them and
 * document them, and neither may drift from the other. A field added, removed, renamed or retyped on one side only
 * makes `tsc` fail here.
 */
import type * as z from 'zod';
import type { ConnectorAccountView } from '../../shared/domain/connector-account';
import type { Customer, DeletedCustomer } from '../../shared/domain/customer';
import type { Dispute, PaymentDispute } from '../../shared/domain/dispute';
import type { ApiErrorBody, ApiErrorType } from '../../shared/domain/errors';
import type { EventData, TypedApiEvent } from '../../shared/domain/events';
import type { FileObject } from '../../shared/domain/file';
import type {
  Attempt,
  AuthenticationAction,
  Billing,
  Metadata,
  NextAction,
  Payment,
  PaymentMethodSummary,
  UssdBankSummary,
} from '../../shared/domain/payment';
import type { PaymentMethodResource as SavedMethod } from '../../shared/domain/payment-method';
import type { Payout } from '../../shared/domain/payout';
import type { Refund } from '../../shared/domain/refund';
import type { RoutingActivation } from '../../shared/domain/routing-profile';
import type { Invoice, Subscription } from '../../shared/domain/subscription';
import type { TestClock } from '../../shared/domain/test-clock';
import type { DeletedWebhookEndpoint, WebhookEndpoint, WebhookEndpointWithSecret } from '../../shared/domain/webhook-endpoint';
import type { ConnectorAccountResource } from '../../shared/schemas/connector-account-resource-schema';
import type { CustomerResource, DeletedCustomerResource } from '../../shared/schemas/customer-resource-schema';
import type { DisputeResource, PaymentDisputeResource } from '../../shared/schemas/dispute-resource-schema';
import type { ApiErrorResource, ApiErrorTypeResource } from '../../shared/schemas/error-schema';
import type { EventDataResource, EventResource } from '../../shared/schemas/event-resource-schema';
import type { FileResource } from '../../shared/schemas/file-schemas';
import type { PaymentMethodResource } from '../../shared/schemas/payment-method-resource-schema';
import type {
  AttemptResource,
  AuthenticationActionResource,
  BillingResource,
  NextActionResource,
  PaymentMethodSummaryResource,
  PaymentResource,
  UssdBankSummaryResource,
} from '../../shared/schemas/payment-resource-schema';
import type { PayoutResource } from '../../shared/schemas/payout-resource-schema';
import type { RefundResource } from '../../shared/schemas/refund-resource-schema';
import type { MetadataResource } from '../../shared/schemas/resource-fields';
import type { RoutingActivationResource } from '../../shared/schemas/routing-activation-schema';
import type { InvoiceResource, SubscriptionResource } from '../../shared/schemas/subscription-resource-schema';
import type { TestClockResource } from '../../shared/schemas/test-clock-resource-schema';
import type {
  DeletedWebhookEndpointResource,
  WebhookEndpointResource,
  WebhookEndpointWithSecretResource,
} from '../../shared/schemas/webhook-endpoint-resource-schema';

/** True only when A and B are the same type (TypeScript's identity check, stricter than mutual assignability). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Each entry must be `true`; a `false` names the pair that drifted. */
type AllTrue<T extends Record<string, true>> = T;

export type ResourceShapes = AllTrue<{
  Customer: Same<Customer, z.output<typeof CustomerResource>>;
  DeletedCustomer: Same<DeletedCustomer, z.output<typeof DeletedCustomerResource>>;
  Dispute: Same<Dispute, z.output<typeof DisputeResource>>;
  PaymentDispute: Same<PaymentDispute, z.output<typeof PaymentDisputeResource>>;
  ApiErrorType: Same<ApiErrorType, z.output<typeof ApiErrorTypeResource>>;
  ApiErrorBody: Same<ApiErrorBody, z.output<typeof ApiErrorResource>>;
  EventData: Same<EventData, z.output<typeof EventDataResource>>;
  TypedApiEvent: Same<TypedApiEvent, z.output<typeof EventResource>>;
  FileObject: Same<FileObject, z.output<typeof FileResource>>;
  Metadata: Same<Metadata, z.output<typeof MetadataResource>>;
  Billing: Same<Billing, z.output<typeof BillingResource>>;
  AuthenticationAction: Same<AuthenticationAction, z.output<typeof AuthenticationActionResource>>;
  NextAction: Same<NextAction, z.output<typeof NextActionResource>>;
  UssdBankSummary: Same<UssdBankSummary, z.output<typeof UssdBankSummaryResource>>;
  PaymentMethodSummary: Same<PaymentMethodSummary, z.output<typeof PaymentMethodSummaryResource>>;
  Attempt: Same<Attempt, z.output<typeof AttemptResource>>;
  Payment: Same<Payment, z.output<typeof PaymentResource>>;
  SavedPaymentMethod: Same<SavedMethod, z.output<typeof PaymentMethodResource>>;
  Refund: Same<Refund, z.output<typeof RefundResource>>;
  Payout: Same<Payout, z.output<typeof PayoutResource>>;
  Subscription: Same<Subscription, z.output<typeof SubscriptionResource>>;
  Invoice: Same<Invoice, z.output<typeof InvoiceResource>>;
  TestClock: Same<TestClock, z.output<typeof TestClockResource>>;
  WebhookEndpoint: Same<WebhookEndpoint, z.output<typeof WebhookEndpointResource>>;
  WebhookEndpointWithSecret: Same<WebhookEndpointWithSecret, z.output<typeof WebhookEndpointWithSecretResource>>;
  DeletedWebhookEndpoint: Same<DeletedWebhookEndpoint, z.output<typeof DeletedWebhookEndpointResource>>;
  ConnectorAccountView: Same<ConnectorAccountView, z.output<typeof ConnectorAccountResource>>;
  RoutingActivation: Same<RoutingActivation, z.output<typeof RoutingActivationResource>>;
}>;
