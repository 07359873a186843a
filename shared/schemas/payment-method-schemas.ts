/**
 * The inputs of the saved payment method routes (issue 24; docs/api.md "Saved payment methods") and the
 * list envelope `GET /customers/{customer_id}/payment_methods` answers. The handlers in
 * functions/payment-methods/ validate with these schemas and the OpenAPI generator documents the same
 * objects (shared/api/openapi-operations.ts), so validation and contract cannot drift.
 */
import { listEnvelope } from './list-envelope-schema';
import { listQuerySchema } from './list-query-schema';
import { PaymentMethodResource } from './payment-method-resource-schema';

/**
 * Query of `GET /customers/{customer_id}/payment_methods`: the list parameters every list shares
 * (`limit`, `offset`, `starting_after`, `created[…]`; docs/api.md "Lists"), no filter of its own.
 */
export const listPaymentMethodsQuerySchema = listQuerySchema({}, { endingBefore: false });

/** Component `SavedPaymentMethodList`: one page of a customer's attached payment methods, newest first. */
export const PaymentMethodListResource = listEnvelope(PaymentMethodResource, 'SavedPaymentMethodList', 'saved payment methods');
