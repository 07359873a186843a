import { z } from 'zod';
import { CAPTURE_METHODS } from '../domain/payment';
import {
  amountSchema,
  billingSchema,
  currencySchema,
  emailSchema,
  metadataSchema,
  paymentMethodDataSchema,
  paymentMethodSchema,
  text,
} from './common';

/** Body of `POST /payments`. `payment_method_data` is only accepted with `confirm: true`. */
export const createPaymentBodySchema = z
  .strictObject({
    amount: amountSchema,
    currency: currencySchema,
    confirm: z.boolean({ error: 'must be true or false' }).default(false),
    capture_method: z.enum(CAPTURE_METHODS, { error: 'must be automatic or manual' }).default('automatic'),
    payment_method: paymentMethodSchema.optional(),
    payment_method_data: paymentMethodDataSchema.optional(),
    description: text(1000).optional(),
    email: emailSchema.optional(),
    customer_id: z.string().max(100).optional(),
    metadata: metadataSchema.optional(),
    billing: billingSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.payment_method_data && !body.confirm) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method_data'],
        message: 'can only be sent with confirm: true; card details are never stored, so send them on confirm instead',
      });
    }
    if (body.payment_method_data && body.payment_method && body.payment_method !== 'card') {
      ctx.addIssue({ code: 'custom', path: ['payment_method_data'], message: 'holds a card, but payment_method is not card' });
    }
  });

/** Parsed `POST /payments` body. */
export type CreatePaymentBody = z.infer<typeof createPaymentBodySchema>;

/** Body of `POST /payments/{id}/confirm`. */
export const confirmPaymentBodySchema = z
  .strictObject({
    payment_method: paymentMethodSchema.optional(),
    payment_method_data: paymentMethodDataSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.payment_method_data && body.payment_method && body.payment_method !== 'card') {
      ctx.addIssue({ code: 'custom', path: ['payment_method_data'], message: 'holds a card, but payment_method is not card' });
    }
  });

/** Parsed confirm body. */
export type ConfirmPaymentBody = z.infer<typeof confirmPaymentBodySchema>;

/** Body of `POST /payments/{id}/cancel` (may be absent). */
export const cancelPaymentBodySchema = z.strictObject({ cancellation_reason: text(500).optional() });

/** Body of `POST /payments/{id}/capture` (may be absent). */
export const capturePaymentBodySchema = z.strictObject({ amount_to_capture: amountSchema.optional() });

/** Body of `POST /payments/{id}/refund` (may be absent: refunds what is left). */
export const refundPaymentBodySchema = z.strictObject({ amount: amountSchema.optional(), reason: text(500).optional() });
