/**
 * The payment link resource as the API answers it: the one definition of its wire shape (shared/domain/payment-link.ts
 * declares the type; test/types/resource-shapes.ts proves they agree). Fields in the order the API lists them.
 * docs/api.md "Payment links".
 */
import * as z from 'zod';
import { CUSTOMER_FIELDS, MAX_PAYMENTS_LIMIT, PAYMENT_LINK_STATUSES } from '../domain/payment-link';
import { listEnvelope } from './list-envelope-schema';
import { PaymentMethodResource } from './payment-resource-schema';
import { CurrencyResource, idField, MetadataResource, minorUnitsField, nullableText, timestampField } from './resource-fields';

/** Component `PaymentLinkStatus`. */
export const PaymentLinkStatusResource = z.enum(PAYMENT_LINK_STATUSES).meta({
  id: 'PaymentLinkStatus',
  description:
    '`active`: its page takes payments; `inactive`: deactivated; `expired`: `expires_at` has passed; `completed`: `payments_count` reached `max_payments`. Every status but `active` makes the page answer 410 and create nothing.',
});

/** Component `PaymentLink`. */
export const PaymentLinkResource = z
  .strictObject({
    payment_link_id: idField('plink', 'The payment link'),
    url: z.string().describe('The hosted checkout page (`<API base>/checkout/plink_…`): the link to share with payers.'),
    active: z.boolean().describe('False once deactivated (`POST /payment_links/{payment_link_id}/deactivate`); never true again.'),
    status: PaymentLinkStatusResource,
    amount: minorUnitsField('The fixed amount each payment collects, or null when the payer chooses it.', 1).nullable(),
    amount_min: minorUnitsField('With `amount` null: the smallest amount the payer may choose.', 1).nullable(),
    amount_max: minorUnitsField('With `amount` null: the largest amount the payer may choose.', 1).nullable(),
    currency: CurrencyResource,
    description: nullableText('What is paid for, shown on the page, or null.'),
    payment_methods: z
      .array(PaymentMethodResource)
      .nullable()
      .describe('The methods the page offers (those routing can serve for the currency among them), or null for every such method.'),
    expires_at: timestampField('When the link stops taking payments.').nullable(),
    max_payments: z.int().min(1).max(MAX_PAYMENTS_LIMIT).nullable().describe('How many payments the link may take, or null for no limit.'),
    payments_count: z
      .int()
      .min(0)
      .describe(
        'Payments created on the page that hold a place under `max_payments`: a payment that fails on the page gives its place back.',
      ),
    return_url: nullableText(
      'Where the payer is sent after paying (303, with `payment_id`, `payment_link_id`, `status` and `signature` in the query), or null for a status page.',
    ),
    customer_fields: z
      .array(z.enum(CUSTOMER_FIELDS))
      .describe('What the page asks of the payer besides the payment (`email`, `name`, `phone`), copied to the payment.'),
    metadata: MetadataResource,
    created_at: timestampField('When the link was created.'),
    updated_at: timestampField('When the link last changed.'),
  })
  .meta({
    id: 'PaymentLink',
    description:
      'A reusable payment link: a hosted checkout page that creates one payment (carrying `payment_link_id`) per payer who pays. Amounts in minor units.',
  });

/** Component `PaymentLinkList`. */
export const PaymentLinkListResource = listEnvelope(PaymentLinkResource, 'PaymentLinkList', 'payment links');
