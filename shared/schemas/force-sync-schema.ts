/** The `force_sync` query parameter of the two retrieve handlers that can reconcile with the processor first. */
import * as z from 'zod';

/** `force_sync`: `true` or `false` as a query string spells them (documented as a boolean: scripts/openapi.ts). */
export const forceSyncParamSchema = z.enum(['true', 'false'], { error: 'must be true or false' });

/** `GET /payments/{payment_id}` and `GET /refunds/{refund_id}`: `force_sync` (functions/payments/get-payment.ts, functions/refunds/get-refund.ts). */
export const forceSyncQuerySchema = z.strictObject({
  force_sync: forceSyncParamSchema.optional(),
});
