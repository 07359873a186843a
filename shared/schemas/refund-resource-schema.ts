/**
 * The refund resource as the API answers it (`POST /payments/{id}/refund`, `GET /refunds/{id}`,
 * `GET /payments/{id}/refunds`, `refund.*` events): the one definition of its shape.
 * shared/domain/refund.ts derives `Refund` from it (`import type`). Fields in the order of
 * `REFUND_FIELDS`, all always present. docs/api.md "Refunds".
 */
import * as z from 'zod';
import { REFUND_STATUSES } from '../domain/refund';
import { PendingOperationResource } from './pending-operation-resource-schema';
import {
  CurrencyResource,
  connectorField,
  idField,
  merchantConnectorIdField,
  minorUnitsField,
  nullableText,
  timestampField,
} from './resource-fields';

/** Component `RefundStatus`: Pending, Succeeded, Failed. */
export const RefundStatusResource = z.enum(REFUND_STATUSES).meta({
  id: 'RefundStatus',
  description:
    '`Pending` while the connector works, then `Succeeded` or `Failed` (a failed refund gives its amount back to the refundable remainder).',
});

/** Component `Refund`. */
export const RefundResource = z
  .strictObject({
    refund_id: idField('ref', 'The refund'),
    payment_id: idField('pay', 'The refunded payment'),
    amount: minorUnitsField('The amount refunded.', 1),
    currency: CurrencyResource,
    status: RefundStatusResource,
    pending_operation: PendingOperationResource.nullable().describe(
      'The refund call whose answer is not recorded yet (the reconciler finds the refund at the processor by our refund id), or null.',
    ),
    reason: nullableText('Echoed from the request, or null.'),
    connector: connectorField("The payment's connector, which makes the refund."),
    merchant_connector_id: merchantConnectorIdField("The payment's connector account, whose credentials make the refund"),
    connector_refund_id: nullableText("The connector's refund id, or null until it has one."),
    error_code: nullableText(
      'Why the connector declined it (its amount is released), or a note it left on a pending refund; null otherwise.',
    ),
    error_message: nullableText('The reason in words, or null.'),
    created_at: timestampField('When the refund was created.'),
    updated_at: timestampField('When the refund last changed.'),
  })
  .meta({
    id: 'Refund',
    description:
      'A refund of all or part of a `Succeeded` payment. Its amount is reserved on the payment in the same transaction that writes it, so refunds never exceed what was captured.',
  });
