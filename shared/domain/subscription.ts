import { createHash } from 'node:crypto';
import type * as z from 'zod';
import type { InvoiceResource, SubscriptionResource } from '../schemas/subscription-resource-schema';
import { ID_PREFIXES } from './ids';

/** A subscription as the API returns it (component `Subscription`). */
export type Subscription = z.output<typeof SubscriptionResource>;
/** An invoice as the API returns it (component `Invoice`). */
export type Invoice = z.output<typeof InvoiceResource>;
/** A subscription's status. */
export type SubscriptionStatus = Subscription['status'];
/** An invoice's status. */
export type InvoiceStatus = Invoice['status'];

/** The fields of a {@link Subscription}, in the order responses list them. */
export const SUBSCRIPTION_FIELDS: readonly (keyof Subscription)[] = [
  'subscription_id',
  'customer_id',
  'payment_method_id',
  'amount',
  'currency',
  'interval',
  'interval_count',
  'trial_period_days',
  'status',
  'billing_cycle_anchor',
  'current_period_start',
  'current_period_end',
  'cancel_at_period_end',
  'canceled_at',
  'cancellation_details',
  'latest_invoice_id',
  'test_clock',
  'metadata',
  'created_at',
  'updated_at',
];

/** The fields of an {@link Invoice}, in the order responses list them. */
export const INVOICE_FIELDS: readonly (keyof Invoice)[] = [
  'invoice_id',
  'subscription_id',
  'customer_id',
  'amount_due',
  'amount_paid',
  'currency',
  'period_start',
  'period_end',
  'status',
  'attempt_count',
  'next_payment_attempt',
  'payment_ids',
  'created_at',
  'updated_at',
];

/**
 * The id of the invoice of one period of a subscription: `in_` and 32 hex characters of a SHA-256 of
 * (subscription_id, period_start). Derived, never random, so writing a period's invoice is a conditional
 * put that succeeds once: a period is billed at most once, whoever (a retried create, a renewal) tries again.
 */
export function invoiceIdFor(subscriptionId: string, periodStart: string): string {
  return `${ID_PREFIXES.invoice}_${createHash('sha256').update(`${subscriptionId}#${periodStart}`).digest('hex').slice(0, 32)}`;
}
