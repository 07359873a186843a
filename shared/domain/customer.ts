import type { Metadata } from './payment';

/**
 * A customer as the API returns it (component `Customer`, shared/schemas/customer-resource-schema.ts); timestamps
 * ISO 8601 UTC, absent values `null`, metadata `{}`.
 */
export interface Customer {
  /** `cus_…` */
  customer_id: string;
  email: string | null;
  name: string | null;
  /** E.164 (`+2348012345678`). */
  phone: string | null;
  description: string | null;
  /** The test clock it lives on (`clock_…`, non-prod stages), or null. */
  test_clock: string | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

/** The answer of `DELETE /customers/{customer_id}` and the `data` of `customer.deleted`: `{customer_id, deleted: true}`. */
export interface DeletedCustomer {
  customer_id: string;
  deleted: true;
}

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
