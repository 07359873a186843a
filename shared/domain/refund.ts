import type { Currency } from './money';
import type { PendingOperationView } from './pending-operation';

/** Refund statuses: `Pending` while the connector works, then `Succeeded` or `Failed`. */
export const REFUND_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;

/** One of {@link REFUND_STATUSES}. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * A refund as the API returns it (component `Refund`, shared/schemas/refund-resource-schema.ts). `amount` in minor
 * units; timestamps ISO 8601 UTC; `pending_operation` is the refund call whose answer is not recorded yet (null once
 * it is).
 */
export interface Refund {
  /** `ref_…` */
  refund_id: string;
  payment_id: string;
  amount: number;
  currency: Currency;
  status: RefundStatus;
  pending_operation: PendingOperationView | null;
  reason: string | null;
  connector: string;
  /** The merchant connector account (`mca_…`); null for the stage's own account. */
  merchant_connector_id: string | null;
  connector_refund_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

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
