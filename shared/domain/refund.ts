import type { Currency } from './money';
import type { PendingOperationView } from './pending-operation';

/** Refund statuses: `Pending` while the connector works, then `Succeeded` or `Failed`. */
export const REFUND_STATUSES = ['Pending', 'Succeeded', 'Failed'] as const;

/** One of {@link REFUND_STATUSES}. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A refund as the API returns it. `amount` in minor units; timestamps ISO 8601 UTC. */
export interface Refund {
  refund_id: string;
  payment_id: string;
  amount: number;
  currency: Currency;
  status: RefundStatus;
  /**
   * The refund call sent to the processor whose answer is not recorded yet (`in_progress`
   * while the request runs, `outcome_unknown` after; the reconciler finds the refund at the
   * processor by our refund id). Null once the processor's answer is recorded.
   */
  pending_operation: PendingOperationView | null;
  reason: string | null;
  connector: string;
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
  'connector_refund_id',
  'error_code',
  'error_message',
  'created_at',
  'updated_at',
];
