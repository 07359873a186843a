import type * as z from 'zod';
import type { RefundResource } from '../schemas/refund-resource-schema';

/** Refund statuses: `Pending` while the connector works, then `Succeeded` or `Failed`. */
export const REFUND_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;

/** One of {@link REFUND_STATUSES}. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * A refund as the API returns it. `amount` in minor units; timestamps ISO 8601 UTC;
 * `pending_operation` is the refund call whose answer is not recorded yet (null once it is).
 * Derived from `RefundResource` (shared/schemas/refund-resource-schema.ts, component `Refund`).
 */
export type Refund = z.output<typeof RefundResource>;

/** The fields of a {@link Refund}, in the order responses list them. */
export const REFUND_FIELDS: readonly (keyof Refund)[] = [
  'refund_id',
  'payment_id',
  'amount',
  'currency',
  'status',
  'pending_operation',
  'reason',
  'connector',
  'merchant_connector_id',
  'connector_refund_id',
  'error_code',
  'error_message',
  'created_at',
  'updated_at',
];
