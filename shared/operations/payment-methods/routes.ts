/**
 * The saved payment method routes (a customer's list, `/payment_methods…`). Data read by shared/api/routes.ts:
 * schemas, the domain and shared/api's route types only.
 */
import { AUTHENTICATED, CONCURRENT_WRITE, JSON_ROUTE, LIST, mergeErrors, NOT_FOUND } from '../../api/operation-errors';
import { CUSTOMER_ID, json, LIST_QUERY_DOCS, PAYMENT_METHOD_ID } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { PaymentMethodListResource, PaymentMethodResource } from '../../schemas/payment-method-resource-schema';
import { listPaymentMethodsQuerySchema } from '../../schemas/payment-method-schemas';

/** The saved payment method routes, in the route table's order. */
export const PAYMENT_METHOD_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/customers/{customer_id}/payment_methods',
    entry: 'functions/payment-methods/list-customer-payment-methods.ts',
    name: 'ListCustomerPaymentMethods',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listCustomerPaymentMethods',
      tag: 'Payment methods',
      summary: "List a customer's payment methods",
      description:
        "The customer's attached payment methods, newest first (detached ones are not listed). A DynamoDB Query on an index, never a scan; no total count. 404 for a customer that is not yours or was deleted.",
      pathParams: CUSTOMER_ID,
      query: listPaymentMethodsQuerySchema,
      queryDocs: LIST_QUERY_DOCS,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(PaymentMethodListResource, 'One page of payment methods.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, NOT_FOUND),
    },
  },
  {
    method: 'GET',
    path: '/payment_methods/{payment_method_id}',
    entry: 'functions/payment-methods/get-payment-method.ts',
    name: 'GetPaymentMethod',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getPaymentMethod',
      tag: 'Payment methods',
      summary: 'Retrieve a payment method',
      description: "The saved payment method, attached (`status: active`) or detached; never its processor's token.",
      pathParams: PAYMENT_METHOD_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(PaymentMethodResource, 'The payment method.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'DELETE',
    path: '/payment_methods/{payment_method_id}',
    entry: 'functions/payment-methods/delete-payment-method.ts',
    name: 'DeletePaymentMethod',
    access: 'write',
    auth: true,
    // Detaches the method at its processor: the account's credentials and the token decrypted (KMS).
    connectors: true,
    openapi: {
      operationId: 'deletePaymentMethod',
      tag: 'Payment methods',
      summary: 'Detach a payment method',
      description:
        "Detaches the method: first at its processor, through the connector account that issued it (Paystack `POST /customer/deactivate_authorization`, Stripe `POST /v1/payment_methods/{id}/detach`; Flutterwave has no such call: the token is forgotten here only), then here: `status: detached`, out of the customer's list, its token destroyed, `payment_method.detached` emitted. It can no longer be charged. A processor answering that it is already detached (or unknown) there does not stop the detach here. A processor that cannot be reached → 503 `connector_unreachable` and the method is still attached: retry. Already detached → 409 `payment_method_unexpected_state`. Like the other DELETEs, no `Idempotency-Key` is stored for replay: a retry after a lost answer gets the 409, and `GET` shows `status: detached`.",
      pathParams: PAYMENT_METHOD_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(PaymentMethodResource, 'The payment method, `status: detached`.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, { 409: ['payment_method_unexpected_state'] }, CONCURRENT_WRITE, {
        502: ['connector_unavailable'],
        503: ['connector_unreachable'],
      }),
    },
  },
];
