import { createHash } from 'node:crypto';
import type { BillingInterval } from './billing-period';
import type { INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from './billing-statuses';
import { ID_PREFIXES } from './ids';
import type { Currency } from './money';
import type { Metadata } from './payment';

/**
 * Why a subscription was canceled: `cancellation_requested` (through the API), `customer_deleted` (its customer was
 * deleted), `payment_failed` (a renewal could not be collected after every retry).
 */
export const CANCELLATION_REASONS = ['cancellation_requested', 'customer_deleted', 'payment_failed'] as const;

/** One of {@link CANCELLATION_REASONS}. */
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/**
 * A subscription as the API returns it (component `Subscription`, shared/schemas/subscription-resource-schema.ts):
 * amounts in minor units, timestamps ISO 8601 UTC.
 */
export interface Subscription {
  /** `sub_…` */
  subscription_id: string;
  customer_id: string | null;
  payment_method_id: string;
  amount: number;
  currency: Currency;
  interval: BillingInterval;
  interval_count: number;
  trial_period_days: number | null;
  status: SubscriptionStatus;
  billing_cycle_anchor: string;
  current_period_start: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  cancellation_details: { reason: CancellationReason } | null;
  latest_invoice_id: string | null;
  test_clock: string | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

/** An invoice as the API returns it (component `Invoice`): amounts in minor units, timestamps ISO 8601 UTC. */
export interface Invoice {
  /** `in_…` */
  invoice_id: string;
  subscription_id: string;
  customer_id: string;
  amount_due: number;
  amount_paid: number;
  currency: Currency;
  period_start: string;
  period_end: string;
  status: InvoiceStatus;
  attempt_count: number;
  next_payment_attempt: string | null;
  payment_ids: string[];
  created_at: string;
  updated_at: string;
}

/** A subscription's status. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** An invoice's status. */
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

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
