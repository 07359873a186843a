/**
 * The subscription and invoice resources: the one definition of their shape,
 * as `GET /subscriptions/{id}`, `GET /invoices/{id}`, their lists and the `subscription.*` / `invoice.*`
 * events answer them. shared/domain/subscription.ts derives the types (`import type`).
 * docs/api.md "Subscriptions and invoices".
 */
import * as z from 'zod';
import { BILLING_INTERVALS } from '../domain/billing-period';
import { INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from '../domain/billing-statuses';
import { CANCELLATION_REASONS } from '../domain/subscription';
import { CurrencyResource, idField, MetadataResource, minorUnitsField, timestampField } from './resource-fields';

export { INVOICE_STATUSES, SUBSCRIPTION_STATUSES };

/** Component `Subscription`. */
export const SubscriptionResource = z
  .strictObject({
    subscription_id: idField('sub', 'The subscription'),
    customer_id: idField('cus', 'The customer it bills')
      .nullable()
      .describe('The customer it bills (`cus_…`); null once that customer was deleted (the subscription is then canceled).'),
    payment_method_id: idField('pm', "The customer's saved payment method it charges off-session"),
    amount: minorUnitsField('What each period costs.', 0),
    currency: CurrencyResource,
    interval: z.enum(BILLING_INTERVALS).describe('The unit of a billing period: `day`, `week`, `month` or `year`.'),
    interval_count: z
      .int()
      .min(1)
      .max(365)
      .describe('How many intervals make a period; a period is at most one year (365 days, 52 weeks, 12 months, 1 year).'),
    trial_period_days: z.int().min(1).max(730).nullable().describe('The trial it started with, in days, or null.'),
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .describe(
        '`incomplete` (its first invoice is not paid yet), `trialing`, `active`, `past_due` (a renewal failed; it is retried on the dunning schedule), `unpaid` (the retries are exhausted; it bills no more until its payment method is replaced) or `canceled` (final).',
      ),
    billing_cycle_anchor: timestampField(
      'Where its periods are counted from (the end of the trial, or its creation): every period ends on the anchor’s day of the month, or the last day of a shorter month.',
    ),
    current_period_start: timestampField('Start of the current period (of the trial while `trialing`).'),
    current_period_end: timestampField('End of the current period: when it renews.'),
    cancel_at_period_end: z.boolean().describe('Whether it will be canceled at the end of the current period instead of renewing.'),
    canceled_at: timestampField('When it was canceled.').nullable(),
    cancellation_details: z
      .strictObject({
        reason: z
          .enum(CANCELLATION_REASONS)
          .describe(
            '`cancellation_requested`: canceled through the API (now, or at the end of its period); `customer_deleted`: its customer was deleted; `payment_failed`: a renewal could not be collected after every retry.',
          ),
      })
      .nullable()
      .describe('Why it was canceled, or null.'),
    latest_invoice_id: idField('in', 'Its latest invoice').nullable(),
    test_clock: idField('clock', 'The test clock its customer lives on')
      .nullable()
      .describe('The test clock its customer lives on (`clock_…`; its times are that clock’s), or null.'),
    metadata: MetadataResource,
    created_at: timestampField('When it was created.'),
    updated_at: timestampField('When it last changed.'),
  })
  .meta({
    id: 'Subscription',
    description:
      "A customer's recurring charge of a fixed amount each period, billed by Switchyard through the customer's saved payment method (off-session), not through a processor's plans.",
  });

/** Component `Invoice`. */
export const InvoiceResource = z
  .strictObject({
    invoice_id: idField('in', 'The invoice'),
    subscription_id: idField('sub', 'The subscription it bills'),
    customer_id: idField('cus', 'The customer it bills'),
    amount_due: minorUnitsField('What the period costs (0 for a trial).'),
    amount_paid: minorUnitsField('What was collected.'),
    currency: CurrencyResource,
    period_start: timestampField('Start of the period it bills.'),
    period_end: timestampField('End of the period it bills.'),
    status: z
      .enum(INVOICE_STATUSES)
      .describe(
        '`open` (not paid yet), `paid`, `void` (its subscription was canceled before it was paid) or `uncollectible` (its retries are exhausted and its subscription canceled).',
      ),
    attempt_count: z.int().min(0).describe('How many payments were attempted for it.'),
    next_payment_attempt: timestampField('When the next payment attempt is due.')
      .nullable()
      .describe('When the next payment attempt is due (a renewal, or a retry on the dunning schedule), or null (none planned).'),
    payment_ids: z.array(idField('pay', 'A payment attempted for it')).describe('The payments attempted for it, oldest first.'),
    created_at: timestampField('When it was created.'),
    updated_at: timestampField('When it last changed.'),
  })
  .meta({
    id: 'Invoice',
    description: 'What one period of a subscription costs, and the payments attempted to collect it. One per period at most.',
  });
