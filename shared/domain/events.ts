import type { ConnectorAccountView } from './connector-account';
import type { Customer, DeletedCustomer } from './customer';
import type { Dispute } from './dispute';
import type { Payment } from './payment';
import type { PaymentMethodResource } from './payment-method';
import type { PaymentStatus } from './payment-status';
import type { Payout, PayoutStatus } from './payout';
import type { Refund, RefundStatus } from './refund';
import type { RoutingActivation } from './routing-profile';
import type { Invoice, Subscription } from './subscription';

/**
 * The event catalogue: the one list of event types. It is the source for the
 * outbox (which change emits which type), the docs, and the validation of a
 * webhook endpoint's `enabled_events`.
 */
export const EVENT_CATALOGUE = {
  'payment.created': 'A payment intent was created (status RequiresConfirmation, or Processing with confirm: true).',
  'payment.processing': 'A payment is being authorized, or its processor reported it processing.',
  'payment.requires_action':
    'A payment waits on its payer (3DS, hosted page, PIN/OTP or other authentication step, bank transfer, USSD, voucher).',
  'payment.requires_capture': 'A manual-capture payment is authorized and waits for capture.',
  'payment.succeeded': 'A payment succeeded (captured).',
  'payment.failed': 'A payment failed (declined, refused, or unknown at its processor).',
  'payment.cancelled': 'A payment was cancelled (voided).',
  'refund.created': 'A refund was created (status Pending).',
  'refund.succeeded': 'A refund succeeded.',
  'refund.failed': 'A refund failed; its amount is refundable again.',
  'customer.created': 'A customer was created.',
  'customer.updated': 'A customer was updated.',
  'customer.deleted': 'A customer was deleted.',
  'connector_account.created': 'A connector account was connected (its credentials verified at the processor).',
  'connector_account.updated': 'A connector account was changed (label, credentials, enabled payment methods, metadata, or enabled again).',
  'connector_account.disabled': 'A connector account was disabled or deleted: it takes no new payments.',
  'routing.activated': 'A routing algorithm was activated (or the active one deactivated: `data.active` false).',
  'payment_method.attached': 'A payment method was saved on a customer (a payment with setup_future_usage succeeded).',
  'payment_method.detached': 'A saved payment method was detached (deleted, or its customer deleted): it can no longer be charged.',
  'payment_method.expiring':
    'A saved payment method stops working within 30 days (its card expires, or the processor token’s lifetime ends): ask the customer for a new one.',
  'subscription.created': 'A subscription was created (status incomplete, trialing or active).',
  'subscription.updated':
    'A subscription changed (its payment method, cancel_at_period_end, metadata, a new period, or its status to active or unpaid).',
  'subscription.past_due': 'A renewal of a subscription could not be collected: it is past due, and retried on the dunning schedule.',
  'subscription.canceled': 'A subscription was canceled: it bills no more.',
  'invoice.created': 'An invoice was created for a period of a subscription (status open, or paid for a trial).',
  'invoice.paid': 'An invoice was paid.',
  'invoice.payment_failed':
    'A payment for an invoice failed (or waits on the absent payer); `next_payment_attempt` says when it is tried again, null for never.',
  'dispute.opened': 'A cardholder disputed a payment (an inquiry or a chargeback): answer it by `challenge_required_by`.',
  'dispute.updated':
    'A dispute changed (its stage, the processor’s status, its deadline, evidence saved, or it was withdrawn: `dispute_cancelled`).',
  'dispute.reminder': 'A dispute still waits for an answer and its deadline (`challenge_required_by`) is near.',
  'dispute.challenged': 'Evidence was submitted for a dispute: the issuer decides.',
  'dispute.won': 'A dispute was decided for the merchant: the money withheld comes back.',
  'dispute.lost': 'A dispute was decided for the cardholder: the money stays withdrawn.',
  'dispute.accepted': 'A dispute was accepted: the money stays with the cardholder.',
  'dispute.expired': 'A dispute was not answered by its deadline: the money stays with the cardholder.',
  'payout.created':
    'A payout was created; `data` shows it RequiresConfirmation, before it is sent (with confirm: true, sending follows at once).',
  'payout.requires_action':
    "A payout waits on the merchant's OTP (`next_action.type` `submit_otp`): answer it with POST /payouts/{id}/authenticate.",
  'payout.succeeded': 'A payout was paid out by its processor.',
  'payout.failed': "A payout failed (the processor's reason in `error_code` and `error_message`); no money left the balance.",
  'payout.reversed': 'A payout that had succeeded was returned by the receiving bank: the money is back in the balance.',
} as const;

/** One of the catalogue's event types. */
export type EventType = keyof typeof EVENT_CATALOGUE;

/** Every event type, in catalogue order. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** @returns true when `value` is an event type of the catalogue. */
export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, value);
}

/**
 * The resource an event carries in `data`, exactly as its GET answers (`EventDataResource`,
 * shared/schemas/event-resource-schema.ts).
 */
export type EventData =
  | Payment
  | Refund
  | Customer
  | DeletedCustomer
  | ConnectorAccountView
  | RoutingActivation
  | PaymentMethodResource
  | Subscription
  | Invoice
  | Dispute
  | Payout;

/** One family of events: its types and the resource they carry. */
interface EventFamily<T extends EventType, D> {
  /** `evt_…`, time-ordered; the `webhook-id` of its deliveries. */
  event_id: string;
  type: T;
  /** ISO 8601 UTC: when the change happened. */
  created_at: string;
  data: D;
}

/**
 * An event as the API returns it and webhooks deliver it, with `type` and `data` left
 * independent (what the outbox writes: any type with its resource). `created_at` is ISO 8601
 * UTC; `data` is the resource after the change (card data only as the card summary). The fields
 * come from `EventResource` (component `Event`), whose precise form, a union discriminated by
 * `type`, is {@link TypedApiEvent}.
 */
export type ApiEvent = Omit<TypedApiEvent, 'type' | 'data'> & { type: EventType; data: EventData };

/** An event with `data` typed by its `type` (`payment.*` → Payment, …): component `Event` (`EventResource`). */
export type TypedApiEvent =
  | EventFamily<Extract<EventType, `payment.${string}`>, Payment>
  | EventFamily<Extract<EventType, `refund.${string}`>, Refund>
  | EventFamily<'customer.created' | 'customer.updated', Customer>
  | EventFamily<'customer.deleted', DeletedCustomer>
  | EventFamily<Extract<EventType, `connector_account.${string}`>, ConnectorAccountView>
  | EventFamily<'routing.activated', RoutingActivation>
  | EventFamily<Extract<EventType, `payment_method.${string}`>, PaymentMethodResource>
  | EventFamily<Extract<EventType, `subscription.${string}`>, Subscription>
  | EventFamily<Extract<EventType, `invoice.${string}`>, Invoice>
  | EventFamily<Extract<EventType, `dispute.${string}`>, Dispute>
  | EventFamily<Extract<EventType, `payout.${string}`>, Payout>;

const PAYMENT_STATUS_EVENT: Readonly<Record<PaymentStatus, EventType | undefined>> = {
  RequiresConfirmation: undefined,
  Processing: 'payment.processing',
  RequiresAction: 'payment.requires_action',
  RequiresCapture: 'payment.requires_capture',
  Succeeded: 'payment.succeeded',
  Failed: 'payment.failed',
  Cancelled: 'payment.cancelled',
};

const REFUND_STATUS_EVENT: Readonly<Record<RefundStatus, EventType | undefined>> = {
  Pending: undefined,
  Succeeded: 'refund.succeeded',
  Failed: 'refund.failed',
};

/**
 * The event a payment status change emits: the new status's event, or none when the
 * status did not change (a claim, a note) or for `RequiresConfirmation` (only at create,
 * where `payment.created` is emitted instead).
 */
export function paymentStatusEvent(before: PaymentStatus | undefined, after: PaymentStatus): EventType | undefined {
  return before === after ? undefined : PAYMENT_STATUS_EVENT[after];
}

/** The event a refund status change emits (`refund.succeeded`, `refund.failed`), or none. */
export function refundStatusEvent(before: RefundStatus | undefined, after: RefundStatus): EventType | undefined {
  return before === after ? undefined : REFUND_STATUS_EVENT[after];
}

const PAYOUT_STATUS_EVENT: Readonly<Record<PayoutStatus, EventType | undefined>> = {
  RequiresConfirmation: undefined,
  Processing: undefined,
  RequiresAction: 'payout.requires_action',
  Succeeded: 'payout.succeeded',
  Failed: 'payout.failed',
  Cancelled: undefined,
  Reversed: 'payout.reversed',
};

/**
 * The event a payout status change emits (`payout.requires_action`, `payout.succeeded`, `payout.failed`,
 * `payout.reversed`), or none: the same status, `Processing` and `Cancelled` emit nothing (`payout.created` is
 * written at create).
 */
export function payoutStatusEvent(before: PayoutStatus | undefined, after: PayoutStatus): EventType | undefined {
  return before === after ? undefined : PAYOUT_STATUS_EVENT[after];
}
