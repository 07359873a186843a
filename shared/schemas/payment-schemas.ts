import * as z from 'zod';
import { CAPTURE_METHODS } from '../domain/payment';
import {
  amountSchema,
  billingSchema,
  cardSchema,
  countrySchema,
  currencySchema,
  emailSchema,
  metadataSchema,
  type PaymentMethodData,
  paymentMethodDataSchema,
  paymentMethodSchema,
  referenceIdSchema,
  returnUrlSchema,
  text,
} from './common';

/**
 * `merchant_connector_id`: pins the payment to one of the merchant's connector accounts (`mca_…`),
 * overriding routing (docs/api.md "Routing").
 */
const merchantConnectorIdSchema = z
  .string({ error: 'must be a connector account id (mca_…)' })
  .regex(/^mca_[0-9A-Za-z]{1,64}$/, { error: 'must be a connector account id (mca_…)' });

/** The method a `payment_method_data` implies: `card` or `ussd`. */
export function methodOfData(data: PaymentMethodData): 'card' | 'ussd' {
  return data.card ? 'card' : 'ussd';
}

/** Checks that `payment_method_data` and `payment_method` agree (the data's kind is the method). */
function checkMethodData(body: { payment_method?: string; payment_method_data?: PaymentMethodData }, ctx: z.RefinementCtx): void {
  if (body.payment_method_data && body.payment_method && body.payment_method !== methodOfData(body.payment_method_data)) {
    ctx.addIssue({
      code: 'custom',
      path: ['payment_method_data'],
      message: `holds ${methodOfData(body.payment_method_data)} data, but payment_method is another method`,
    });
  }
}

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
    customer_id: referenceIdSchema(100).optional(),
    metadata: metadataSchema.optional(),
    billing: billingSchema.optional(),
    return_url: returnUrlSchema.optional(),
    merchant_connector_id: merchantConnectorIdSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.payment_method_data?.card && !body.confirm) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method_data'],
        message: 'can only hold a card with confirm: true; card details are never stored, so send them on confirm instead',
      });
    }
    checkMethodData(body, ctx);
  });

/** Parsed `POST /payments` body. */
export type CreatePaymentBody = z.infer<typeof createPaymentBodySchema>;

/** Body of `POST /payments/{id}/confirm`. */
export const confirmPaymentBodySchema = z
  .strictObject({
    payment_method: paymentMethodSchema.optional(),
    payment_method_data: paymentMethodDataSchema.optional(),
    return_url: returnUrlSchema.optional(),
    merchant_connector_id: merchantConnectorIdSchema.optional(),
  })
  .superRefine(checkMethodData);

/** Parsed confirm body. */
export type ConfirmPaymentBody = z.infer<typeof confirmPaymentBodySchema>;

/** Body of `POST /payments/{id}/cancel` (may be absent). */
export const cancelPaymentBodySchema = z.strictObject({ cancellation_reason: text(500).optional() });

/** Body of `POST /payments/{id}/capture` (may be absent). */
export const capturePaymentBodySchema = z.strictObject({ amount_to_capture: amountSchema.optional() });

/** Body of `POST /payments/{id}/refund` (may be absent: refunds what is left). */
export const refundPaymentBodySchema = z.strictObject({ amount: amountSchema.optional(), reason: text(500).optional() });

/** A 4-digit card PIN, as Paystack (`/charge/submit_pin`) and Flutterwave (`authorization.pin`) take it. */
const pinSchema = z.string().regex(/^\d{4}$/, { error: 'must be the 4 digits of the card PIN' });

/** A one-time password or voucher code: 4 to 12 letters or digits (bank OTPs are 4–8 digits; mobile-money vouchers 6). */
const otpSchema = z.string().regex(/^[0-9A-Za-z]{4,12}$/, { error: 'must be the 4 to 12 letters or digits of the one-time code' });

/** The fields of an authentication step; exactly one is sent. */
const STEP_FIELDS = ['pin', 'otp', 'phone', 'birthday', 'address'] as const;

/**
 * Body of `POST /payments/{id}/authenticate`: exactly one of `pin`, `otp`, `phone`, `birthday`
 * (`YYYY-MM-DD`, a real past date) or `address` — the answer to the step in the payment's
 * `next_action` — and, only when that step has `card_required: true`, `payment_method_data.card`
 * (the same card again). Values are relayed to the processor and never stored or echoed.
 */
export const authenticatePaymentBodySchema = z
  .strictObject({
    pin: pinSchema.optional(),
    otp: otpSchema.optional(),
    phone: z
      .string()
      .regex(/^\+?\d{7,15}$/, { error: 'must be the phone number as digits, optionally starting with +' })
      .optional(),
    birthday: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written YYYY-MM-DD' })
      .refine(
        (d) => {
          const t = Date.parse(`${d}T00:00:00Z`);
          return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d && t < Date.now();
        },
        { error: 'must be a real date in the past, written YYYY-MM-DD' },
      )
      .optional(),
    address: z
      .strictObject({
        line1: text(200).pipe(z.string().min(1, { error: 'is required' })),
        city: text(100).pipe(z.string().min(1, { error: 'is required' })),
        state: text(100).pipe(z.string().min(1, { error: 'is required' })),
        zip: text(20).pipe(z.string().min(1, { error: 'is required' })),
        country: countrySchema,
      })
      .optional(),
    payment_method_data: z.strictObject({ card: cardSchema }).optional(),
  })
  .superRefine((body, ctx) => {
    const given = STEP_FIELDS.filter((f) => body[f] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `send one of ${STEP_FIELDS.join(', ')}: the answer to the step in next_action`,
        params: { apiCode: 'parameter_missing' },
      });
    } else if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given[1]!],
        message: `send only one of ${STEP_FIELDS.join(', ')}: the answer to the step in next_action`,
      });
    }
  });

/** Parsed authenticate body. */
export type AuthenticatePaymentBody = z.infer<typeof authenticatePaymentBodySchema>;
