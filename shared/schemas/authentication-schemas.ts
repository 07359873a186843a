/**
 * The body of `POST /payments/{id}/authenticate` (and of the payer's hosted step page), apart from the create and
 * confirm bodies of shared/schemas/payment-schemas.ts, so the authentication handlers and pages build only this one
 * at import.
 */
import * as z from 'zod';
import { noCardNumber } from './card-number-refinement';
import { cardSchema, countrySchema } from './common';
import { secret } from './secret-field';
import { text } from './text-schemas';

/** A 4-digit card PIN, as Paystack (`/charge/submit_pin`) and Flutterwave (`authorization.pin`) take it. */
const pinSchema = secret(z.string().regex(/^\d{4}$/, { error: 'must be the 4 digits of the card PIN' }));

/** A one-time password or voucher code: 4 to 12 letters or digits (bank OTPs are 4–8 digits; mobile-money vouchers 6). */
const otpSchema = secret(z.string().regex(/^[0-9A-Za-z]{4,12}$/, { error: 'must be the 4 to 12 letters or digits of the one-time code' }));

/**
 * The payer's birthday (`submit_birthday`), `YYYY-MM-DD`, a real date in the past. Built on the first request that
 * carries one (`z.lazy`: each step request carries one answer, so the others' schemas are never built).
 */
const birthdaySchema = z.lazy(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written YYYY-MM-DD' })
    .refine(
      (d) => {
        const t = Date.parse(`${d}T00:00:00Z`);
        return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d && t < Date.now();
      },
      { error: 'must be a real date in the past, written YYYY-MM-DD' },
    ),
);

/** The billing address (`submit_address`): line1, city, state, zip, country. Built on the first request that carries one (`z.lazy`). */
const addressSchema = z.lazy(() =>
  z.strictObject({
    line1: text(200).pipe(z.string().min(1, { error: 'is required' })),
    city: text(100).pipe(z.string().min(1, { error: 'is required' })),
    state: text(100).pipe(z.string().min(1, { error: 'is required' })),
    zip: text(20).pipe(z.string().min(1, { error: 'is required' })),
    country: countrySchema,
  }),
);

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
      .refine(noCardNumber, {
        error: 'must be a telephone number, not a card number: card data is only accepted in payment_method_data.card',
      })
      .optional(),
    birthday: birthdaySchema.optional(),
    address: addressSchema.optional(),
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
