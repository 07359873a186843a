/**
 * The status vocabularies of billing, apart from the resource schemas built from them
 * (shared/schemas/subscription-resource-schema.ts), so a request schema can name them without building those.
 */

/** The statuses of a subscription (Stripe's). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'canceled'] as const;
/** The statuses of an invoice (Stripe's). */
export const INVOICE_STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const;
