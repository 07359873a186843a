/**
 * The customer routes (`/customers…`). Data read by shared/api/routes.ts: schemas, the domain and shared/api's
 * route types only.
 */
import {
  AUTHENTICATED,
  CONCURRENT_WRITE,
  IDEMPOTENT,
  JSON_BODY,
  JSON_ROUTE,
  LIST,
  mergeErrors,
  NOT_FOUND,
} from '../../api/operation-errors';
import { CUSTOMER_ID, json, jsonBody, LIST_QUERY_DOCS, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { listCustomersQuerySchema } from '../../schemas/customer-list-schema';
import { CustomerResource, DeletedCustomerResource } from '../../schemas/customer-resource-schema';
import { createCustomerBodySchema, customerBodySchema } from '../../schemas/customer-schemas';
import { CustomerListResource } from '../../schemas/resource-lists-schema';

const CUSTOMER_FIELDS = {
  email: 'E-mail address, at most 254 characters.',
  name: 'At most 256 characters.',
  phone: 'E.164: `+` then 7 to 15 digits, e.g. `+2348012345678`.',
  description: 'At most 1000 characters.',
  metadata: 'Your own key/value pairs (replaces the whole map on update).',
};

const CREATE_CUSTOMER_FIELDS = {
  ...CUSTOMER_FIELDS,
  test_clock:
    'Stages with the sandbox only: a test clock (`clock_…`) the customer lives on; its subscriptions and saved methods then take their times from it. Set on create only.',
};

/** The customer routes, in the route table's order. */
export const CUSTOMER_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/customers',
    entry: 'functions/customers/create-customer.ts',
    name: 'CreateCustomer',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'createCustomer',
      tag: 'Customers',
      summary: 'Create a customer',
      description: 'Every field optional. No field may hold a card number.',
      body: jsonBody(createCustomerBodySchema, false, "The customer's fields (all optional).", CREATE_CUSTOMER_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(CustomerResource, 'The customer.')),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, CONCURRENT_WRITE),
    },
  },
  {
    method: 'GET',
    path: '/customers',
    entry: 'functions/customers/list-customers.ts',
    name: 'ListCustomers',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listCustomers',
      tag: 'Customers',
      summary: 'List customers',
      description: "The merchant's customers, newest first; `email` finds one by exact address (case-insensitive).",
      query: listCustomersQuerySchema,
      queryDocs: { ...LIST_QUERY_DOCS, email: { description: 'Only customers with this e-mail address (exact match, case-insensitive).' } },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(CustomerListResource, 'One page of customers.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/get-customer.ts',
    name: 'GetCustomer',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getCustomer',
      tag: 'Customers',
      summary: 'Retrieve a customer',
      description: 'The customer; 404 once deleted.',
      pathParams: CUSTOMER_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(CustomerResource, 'The customer.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'PUT',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/update-customer.ts',
    name: 'UpdateCustomer',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'updateCustomer',
      tag: 'Customers',
      summary: 'Update a customer',
      description:
        'Sets the fields given (`metadata` replaces the whole map). Fields cannot be cleared (`null` is refused); an empty body changes only `updated_at`.',
      pathParams: CUSTOMER_ID,
      body: jsonBody(customerBodySchema, false, 'The fields to set.', CUSTOMER_FIELDS),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(CustomerResource, 'The updated customer.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, CONCURRENT_WRITE),
    },
  },
  {
    method: 'DELETE',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/delete-customer.ts',
    name: 'DeleteCustomer',
    access: 'write',
    auth: true,
    // It detaches the customer's saved payment methods at their processors (the token decrypted for the call).
    connectors: true,
    openapi: {
      operationId: 'deleteCustomer',
      tag: 'Customers',
      summary: 'Delete a customer',
      description:
        'Deletes the customer: afterwards it answers 404 and new payments cannot name it; its payments stay and answer `customer_id: null`; its saved payment methods are detached (at their processors where they have such a call, as `DELETE /payment_methods/{payment_method_id}` does; `payment_method.detached` each). A delete interrupted before that work finished (a fault, its 10 s budget, a processor that could not detach a method) is resumed by a retried DELETE (same answer) or by the reconciler.',
      pathParams: CUSTOMER_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(DeletedCustomerResource, '`{customer_id, deleted: true}`.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, CONCURRENT_WRITE),
    },
  },
];
