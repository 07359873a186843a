import type { Metadata } from './payment';

/** A customer as the API returns it; timestamps ISO 8601 UTC. */
export interface Customer {
  customer_id: string;
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

/** Fields a client may set on create or update (all optional). */
export interface CustomerFields {
  email?: string;
  name?: string;
  phone?: string;
  description?: string;
  metadata?: Metadata;
}

/** The fields of a {@link Customer}, in the order responses list them. */
export const CUSTOMER_FIELDS: readonly (keyof Customer)[] = [
  'customer_id',
  'email',
  'name',
  'phone',
  'description',
  'metadata',
  'created_at',
  'updated_at',
];
