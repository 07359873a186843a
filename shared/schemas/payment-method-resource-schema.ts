/**
 * The saved payment method resource: the one definition of its shape, as
 * `GET /payment_methods/{id}`, the customer's list and the `payment_method.*` events answer it.
 * The processor's token is never part of it. docs/api.md "Saved payment methods".
 */
import * as z from 'zod';
import { SAVED_METHOD_STATUSES } from '../domain/payment-method';
import { listEnvelope } from './list-envelope-schema';
import { connectorField, idField, merchantConnectorIdField, timestampField } from './resource-fields';

/** The saved card: never the PAN. */
const PaymentMethodCardResource = z.strictObject({
  brand: z.string().describe('Lower-case brand: `visa`, `mastercard`, `verve`, `amex`, …'),
  last4: z.string().describe('The last four digits.'),
  exp_month: z.number().int().min(1).max(12).describe('Expiry month, 1–12.'),
  exp_year: z.number().int().describe('Expiry year, four digits.'),
  fingerprint: z
    .string()
    .describe(
      "The card's identity among the merchant's saved methods of one connector account: the same card saved twice has the same fingerprint (and is saved once per customer).",
    ),
  bin: z.string().nullable().describe('The first six digits, when the processor gave them; else null.'),
  issuer_country: z.string().nullable().describe('ISO 3166-1 alpha-2 country of the issuer, when the processor gave it; else null.'),
});

/**
 * Component `SavedPaymentMethod` (not `PaymentMethod`: that id is the payment's method enum, `card`,
 * `bank_transfer`, … in shared/schemas/payment-resource-schema.ts; one id per component).
 */
export const PaymentMethodResource = z
  .strictObject({
    payment_method_id: idField('pm', 'The saved payment method'),
    customer_id: z.string().nullable().describe('The customer it is (or, once detached, was) saved on (`cus_…`).'),
    type: z.literal('card').describe('`card`.'),
    card: PaymentMethodCardResource,
    connector: connectorField('The connector whose token it holds.'),
    merchant_connector_id: merchantConnectorIdField(
      "The merchant's connector account that issued the token (charges go through it); null for the stage's own account.",
    ),
    recurring_enabled: z
      .boolean()
      .describe('Whether it may be charged without the payer (`off_session`): saved with `setup_future_usage: off_session`.'),
    status: z.enum(SAVED_METHOD_STATUSES).describe('`active`; `detached` once deleted (it can no longer be charged).'),
    default: z.boolean().describe("Whether it is the customer's default payment method."),
    payment_id: idField('pay', 'The payment that saved it'),
    created_at: timestampField('When it was saved.'),
    last_used_at: timestampField('When a payment last charged it.').nullable(),
    expires_at: timestampField('When it stops working: the card’s expiry, or the processor’s token lifetime when shorter.').nullable(),
  })
  .meta({
    id: 'SavedPaymentMethod',
    description:
      "A payment method saved on a customer by a payment with `setup_future_usage`, charged again with `payment_method_id` (and `off_session: true` without the payer). The processor's token is kept encrypted and never shown.",
  });

/** Component `SavedPaymentMethodList`: one page of a customer's attached payment methods, newest first. */
export const PaymentMethodListResource = listEnvelope(PaymentMethodResource, 'SavedPaymentMethodList', 'saved payment methods');
