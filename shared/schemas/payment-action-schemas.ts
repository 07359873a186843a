/** The bodies of the payment actions that carry only scalars: cancel, capture, refund (each may be absent). */
import * as z from 'zod';
import { amountSchema } from './scalar-schemas';
import { text } from './text-schemas';

/** Body of `POST /payments/{id}/cancel` (may be absent). */
export const cancelPaymentBodySchema = z.strictObject({ cancellation_reason: text(500).optional() });

/** Body of `POST /payments/{id}/capture` (may be absent). */
export const capturePaymentBodySchema = z.strictObject({ amount_to_capture: amountSchema.optional() });

/** Body of `POST /payments/{id}/refund` (may be absent: refunds what is left). */
export const refundPaymentBodySchema = z.strictObject({ amount: amountSchema.optional(), reason: text(500).optional() });
