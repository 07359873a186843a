/**
 * The `pending_operation` object of payments and refunds, as the API answers it
 * (shared/domain/pending-operation.ts `viewPendingOperation`; docs/api.md "Unknown outcomes").
 * Response schema only (see shared/schemas/resource-fields.ts on bundles).
 */
import * as z from 'zod';
import { PENDING_OPERATION_KINDS } from '../domain/pending-operation';
import { connectorField, merchantConnectorIdField, minorUnitsField, timestampField } from './resource-fields';

/** `in_progress` while the call's lease runs, `outcome_unknown` after it. */
export const PENDING_OPERATION_STATES = ['in_progress', 'outcome_unknown'] as const;

/**
 * A processor call sent (or about to be sent) whose answer is not recorded yet: the record written
 * before every call that moves money. Component `PendingOperation`. Its output type is
 * structurally `PendingOperationView` of shared/domain/pending-operation.ts (a unit test checks it).
 */
export const PendingOperationResource = z
  .strictObject({
    operation: z
      .enum(PENDING_OPERATION_KINDS)
      .describe(
        'The processor call: `authorize`, `capture`, `void` (on payments), `refund` (on refunds) or `payout` (on payouts: the send or its OTP).',
      ),
    connector: connectorField('The processor called.'),
    merchant_connector_id: merchantConnectorIdField('The connector account called'),
    reference: z.string().describe('Our id sent to the processor as its reference (the payment, refund or payout id).'),
    amount: minorUnitsField('What the call moves.'),
    started_at: timestampField('When the call was recorded, just before it was sent.'),
    lease_expires_at: timestampField(
      'Until when the request that made the call may still act (its own end, at most 29 s after it began, plus 3 s); after it the reconciler settles the operation.',
    ),
    state: z
      .enum(PENDING_OPERATION_STATES)
      .describe(
        '`in_progress` while the lease runs; `outcome_unknown` once it ended without the answer being recorded (the reconciler asks the processor within minutes).',
      ),
  })
  .meta({
    id: 'PendingOperation',
    description:
      'A processor call that moves money whose answer is not recorded yet (docs/api.md, "Unknown outcomes"). It disappears (`null`) once the answer is recorded. While it is `in_progress`, confirm, capture and cancel answer 409.',
  });
