import type * as z from 'zod';
import type { CustomerResource, DeletedCustomerResource } from '../schemas/customer-resource-schema';
import type { Metadata } from './payment';

/**
 * A customer as the API returns it; timestamps ISO 8601 UTC, absent values `null`, metadata `{}`.
 * Derived from `CustomerResource` (shared/schemas/customer-resource-schema.ts, component `Customer`).
 */
export type Customer = z.output<typeof CustomerResource>;

/** The answer of `DELETE /customers/{customer_id}` and the `data` of `customer.deleted`: `{customer_id, deleted: true}`. */
export type DeletedCustomer = z.output<typeof DeletedCustomerResource>;

/** Fields a client may set on create or update (all optional). */
export interface CustomerFields {
  email?: string;
  name?: string;
  phone?: string;
  description?: string;
  metadata?: Metadata;
  /** On create only (non-prod stages): the test clock the customer lives on. */
  test_clock?: string;
}

/** The fields of a {@link Customer}, in the order responses list them. */
export const CUSTOMER_FIELDS: readonly (keyof Customer)[] = [
  'customer_id',
  'email',
  'name',
  'phone',
  'description',
  'test_clock',
  'metadata',
  'created_at',
  'updated_at',
];
