/**
 * The inputs of the saved payment method routes (docs/api.md "Saved payment methods"); the list envelope
 * `GET /customers/{customer_id}/payment_methods` answers is in ./payment-method-resource-schema.ts. The handlers in
 * functions/payment-methods/ validate with these schemas and the OpenAPI generator documents the same
 * objects (scripts/openapi/openapi-operations.ts), so validation and contract cannot drift.
 */
import { listQuerySchema } from './list-query-schema';

/**
 * Query of `GET /customers/{customer_id}/payment_methods`: the list parameters every list shares
 * (`limit`, `offset`, `starting_after`, `created[…]`; docs/api.md "Lists"), no filter of its own.
 */
export const listPaymentMethodsQuerySchema = listQuerySchema({}, { endingBefore: false });
