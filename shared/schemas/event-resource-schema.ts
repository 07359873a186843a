/**
 * The event resource as `GET /events`, `GET /events/{id}` answer it and webhooks deliver it, and
 * its `data` union: the one definition of their shape. shared/domain/events.ts derives `ApiEvent`
 * and `EventData` from it (`import type`). docs/api.md "Events".
 *
 * `Event` is a union discriminated by `type` (JSON Schema 2020-12 `oneOf` of four families): `payment.*`
 * events carry a `Payment`, `refund.*` a `Refund`, `customer.created`/`customer.updated` a `Customer`,
 * `customer.deleted` a `DeletedCustomer`; so a client can narrow `data` by `type`.
 */
import * as z from 'zod';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../domain/events';
import { ConnectorAccountResource } from './connector-account-resource-schema';
import { CustomerResource, DeletedCustomerResource } from './customer-resource-schema';
import { DisputeResource } from './dispute-resource-schema';
import { PaymentMethodResource } from './payment-method-resource-schema';
import { PaymentResource } from './payment-resource-schema';
import { PayoutResource } from './payout-resource-schema';
import { RefundResource } from './refund-resource-schema';
import { idField, timestampField } from './resource-fields';
import { RoutingActivationResource } from './routing-activation-schema';
import { InvoiceResource, SubscriptionResource } from './subscription-resource-schema';

/** The catalogue's types of one family, as a non-empty tuple for `z.enum`. */
function typesOf<T extends EventType>(keep: (type: EventType) => type is T): [T, ...T[]] {
  return EVENT_TYPES.filter(keep) as [T, ...T[]];
}

/** `payment.*` event types. */
export type PaymentEventType = Extract<EventType, `payment.${string}`>;
/** `refund.*` event types. */
export type RefundEventType = Extract<EventType, `refund.${string}`>;
/** `customer.created` and `customer.updated`. */
export type CustomerEventType = Exclude<Extract<EventType, `customer.${string}`>, 'customer.deleted'>;
/** `connector_account.*` event types. */
export type ConnectorAccountEventType = Extract<EventType, `connector_account.${string}`>;

/** Every `payment.*` type, in catalogue order. */
export const PAYMENT_EVENT_TYPES = typesOf((t): t is PaymentEventType => t.startsWith('payment.'));
/** Every `refund.*` type, in catalogue order. */
export const REFUND_EVENT_TYPES = typesOf((t): t is RefundEventType => t.startsWith('refund.'));
/** `customer.created`, `customer.updated`. */
export const CUSTOMER_EVENT_TYPES = typesOf((t): t is CustomerEventType => t.startsWith('customer.') && t !== 'customer.deleted');
/** Every `connector_account.*` type, in catalogue order. */
export const CONNECTOR_ACCOUNT_EVENT_TYPES = typesOf((t): t is ConnectorAccountEventType => t.startsWith('connector_account.'));

/** A catalogue's table of its types, for a description. */
function listed(types: readonly EventType[]): string {
  return types.map((t) => `\`${t}\`: ${EVENT_CATALOGUE[t]}`).join(' ');
}

const eventFields = {
  event_id: idField('evt', 'The event (time-ordered; the `webhook-id` of its deliveries: dedupe on it)'),
  created_at: timestampField('When the change happened.'),
};

/**
 * One family of the `Event` union: the fields every event has, with this family's `type` and `data`.
 * @param id the component name (`PaymentEvent`, …) and `description` its text, for the OpenAPI document
 */
function eventFamily<T extends z.ZodType, D extends z.ZodType>(type: T, data: D, id: string, description: string) {
  return z.strictObject({ event_id: eventFields.event_id, type, created_at: eventFields.created_at, data }).meta({ id, description });
}

/** Component `PaymentEvent`: a `payment.*` event; `data` is the payment after the change. */
export const PaymentEventResource = eventFamily(
  z.enum(PAYMENT_EVENT_TYPES).describe(listed(PAYMENT_EVENT_TYPES)),
  PaymentResource.describe('The payment after the change, exactly as `GET /payments/{payment_id}` answered then.'),
  'PaymentEvent',
  'A change of a payment.',
);

/** Component `RefundEvent`: a `refund.*` event; `data` is the refund after the change. */
export const RefundEventResource = eventFamily(
  z.enum(REFUND_EVENT_TYPES).describe(listed(REFUND_EVENT_TYPES)),
  RefundResource.describe('The refund after the change, exactly as `GET /refunds/{refund_id}` answered then.'),
  'RefundEvent',
  'A change of a refund.',
);

/** Component `CustomerEvent`: `customer.created` / `customer.updated`; `data` is the customer. */
export const CustomerEventResource = eventFamily(
  z.enum(CUSTOMER_EVENT_TYPES).describe(listed(CUSTOMER_EVENT_TYPES)),
  CustomerResource.describe('The customer after the change, exactly as `GET /customers/{customer_id}` answered then.'),
  'CustomerEvent',
  'A customer was created or updated.',
);

/** Component `CustomerDeletedEvent`: `customer.deleted`; `data` is `{customer_id, deleted: true}`. */
export const CustomerDeletedEventResource = eventFamily(
  z.literal('customer.deleted').describe(`\`customer.deleted\`: ${EVENT_CATALOGUE['customer.deleted']}`),
  DeletedCustomerResource,
  'CustomerDeletedEvent',
  'A customer was deleted.',
);

/** Component `ConnectorAccountEvent`: a `connector_account.*` event; `data` is the account (credentials masked). */
export const ConnectorAccountEventResource = eventFamily(
  z.enum(CONNECTOR_ACCOUNT_EVENT_TYPES).describe(listed(CONNECTOR_ACCOUNT_EVENT_TYPES)),
  ConnectorAccountResource.describe(
    'The connector account after the change, exactly as `GET /connector_accounts/{merchant_connector_id}` answered then (credentials masked).',
  ),
  'ConnectorAccountEvent',
  'A change of a connector account.',
);

/** Component `RoutingEvent`: `routing.activated`; `data` says which algorithm is active now. */
export const RoutingEventResource = eventFamily(
  z.literal('routing.activated').describe(`\`routing.activated\`: ${EVENT_CATALOGUE['routing.activated']}`),
  RoutingActivationResource,
  'RoutingEvent',
  'The active routing algorithm changed.',
);

/** `payment_method.*` event types. */
export type PaymentMethodEventType = Extract<EventType, `payment_method.${string}`>;
const PAYMENT_METHOD_EVENT_TYPES = typesOf((t): t is PaymentMethodEventType => t.startsWith('payment_method.'));

/** Component `PaymentMethodEvent`: a `payment_method.*` event; `data` is the saved method (never its token). */
export const PaymentMethodEventResource = eventFamily(
  z.enum(PAYMENT_METHOD_EVENT_TYPES).describe(listed(PAYMENT_METHOD_EVENT_TYPES)),
  PaymentMethodResource,
  'PaymentMethodEvent',
  'A saved payment method was attached or detached.',
);

/** `subscription.*` event types. */
export type SubscriptionEventType = Extract<EventType, `subscription.${string}`>;
const SUBSCRIPTION_EVENT_TYPES = typesOf((t): t is SubscriptionEventType => t.startsWith('subscription.'));
/** `invoice.*` event types. */
export type InvoiceEventType = Extract<EventType, `invoice.${string}`>;
const INVOICE_EVENT_TYPES = typesOf((t): t is InvoiceEventType => t.startsWith('invoice.'));

/** Component `SubscriptionEvent`: a `subscription.*` event; `data` is the subscription after the change. */
export const SubscriptionEventResource = eventFamily(
  z.enum(SUBSCRIPTION_EVENT_TYPES).describe(listed(SUBSCRIPTION_EVENT_TYPES)),
  SubscriptionResource.describe('The subscription after the change, exactly as `GET /subscriptions/{subscription_id}` answered then.'),
  'SubscriptionEvent',
  'A change of a subscription.',
);

/** Component `InvoiceEvent`: an `invoice.*` event; `data` is the invoice after the change. */
export const InvoiceEventResource = eventFamily(
  z.enum(INVOICE_EVENT_TYPES).describe(listed(INVOICE_EVENT_TYPES)),
  InvoiceResource.describe('The invoice after the change, exactly as `GET /invoices/{invoice_id}` answered then.'),
  'InvoiceEvent',
  'A change of an invoice.',
);

/** `dispute.*` event types (docs/api.md "Disputes"). */
export type DisputeEventType = Extract<EventType, `dispute.${string}`>;
const DISPUTE_EVENT_TYPES = typesOf((t): t is DisputeEventType => t.startsWith('dispute.'));

/** Component `DisputeEvent`: a `dispute.*` event; `data` is the dispute after the change. */
export const DisputeEventResource = eventFamily(
  z.enum(DISPUTE_EVENT_TYPES).describe(listed(DISPUTE_EVENT_TYPES)),
  DisputeResource.describe('The dispute after the change, exactly as `GET /disputes/{dispute_id}` answered then.'),
  'DisputeEvent',
  'A change of a dispute.',
);

/** `payout.*` event types. */
export type PayoutEventType = Extract<EventType, `payout.${string}`>;
const PAYOUT_EVENT_TYPES = typesOf((t): t is PayoutEventType => t.startsWith('payout.'));

/** Component `PayoutEvent`: a `payout.*` event; `data` is the payout after the change. */
export const PayoutEventResource = eventFamily(
  z.enum(PAYOUT_EVENT_TYPES).describe(listed(PAYOUT_EVENT_TYPES)),
  PayoutResource.describe('The payout after the change, exactly as `GET /payouts/{payout_id}` answered then.'),
  'PayoutEvent',
  'A change of a payout.',
);

/** The event schema of each catalogue type (the OpenAPI `webhooks` use it). */
export function eventResourceOf(type: EventType) {
  if (type === 'routing.activated') return RoutingEventResource;
  if (type.startsWith('payment_method.')) return PaymentMethodEventResource;
  if (type.startsWith('subscription.')) return SubscriptionEventResource;
  if (type.startsWith('invoice.')) return InvoiceEventResource;
  if (type.startsWith('dispute.')) return DisputeEventResource;
  if (type.startsWith('payout.')) return PayoutEventResource;
  if (type.startsWith('connector_account.')) return ConnectorAccountEventResource;
  if (type === 'customer.deleted') return CustomerDeletedEventResource;
  if (type.startsWith('payment.')) return PaymentEventResource;
  if (type.startsWith('refund.')) return RefundEventResource;
  return CustomerEventResource;
}

/** Component `Event`: any event, discriminated by `type`. */
export const EventResource = z
  .discriminatedUnion('type', [
    PaymentEventResource,
    RefundEventResource,
    CustomerEventResource,
    CustomerDeletedEventResource,
    ConnectorAccountEventResource,
    RoutingEventResource,
    PaymentMethodEventResource,
    SubscriptionEventResource,
    InvoiceEventResource,
    DisputeEventResource,
    PayoutEventResource,
  ])
  .meta({
    id: 'Event',
    description:
      'A change of a payment, refund, customer, connector account, routing, saved payment method, subscription, invoice, dispute or payout, written in the same transaction as the change (an outbox). `data` is the resource after the change, exactly as its GET answers (cards only as their summary). Kept 30 days. Webhook deliveries carry this JSON byte for byte: verify the raw body.',
  });

/** What an event's `data` holds: a payment, a refund, a customer, or a deleted customer's id. */
export const EventDataResource = z.union([
  PaymentResource,
  RefundResource,
  CustomerResource,
  DeletedCustomerResource,
  ConnectorAccountResource,
  RoutingActivationResource,
  PaymentMethodResource,
  SubscriptionResource,
  InvoiceResource,
  DisputeResource,
  PayoutResource,
]);
