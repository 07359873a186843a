import * as z from 'zod';
import { CAPTURE_METHODS } from '../domain/payment';
import { MAX_SESSION_EXPIRY_SECONDS, MIN_SESSION_EXPIRY_SECONDS } from '../domain/payment-link';
import { ACCEPTANCE_TYPES, SETUP_FUTURE_USAGES } from '../domain/payment-method';
import { methodOfData } from '../domain/payment-method-data';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { billingSchema, type PaymentMethodData, paymentMethodDataSchema, returnUrlSchema } from './common';
import { emailSchema } from './contact-schemas';
import { amountSchema, currencySchema, metadataSchema, paymentMethodSchema, referenceIdSchema } from './scalar-schemas';
import { text } from './text-schemas';

/**
 * `merchant_connector_id`: pins the payment to one of the merchant's connector accounts (`mca_…`),
 * overriding routing (docs/api.md "Routing").
 */
const merchantConnectorIdSchema = z
  .string({ error: 'must be a connector account id (mca_…)' })
  .regex(/^mca_[0-9A-Za-z]{1,64}$/, { error: 'must be a connector account id (mca_…)' })
  .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });

/** `payment_method_id`: a saved payment method of the merchant's (`pm_…`). */
const paymentMethodIdSchema = z
  .string({ error: 'must be a saved payment method id (pm_…)' })
  .regex(/^pm_[0-9A-Za-z]{1,64}$/, { error: 'must be a saved payment method id (pm_…)' })
  .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });

/** An ISO 8601 UTC timestamp of a real date and time, at most a day ahead of now (clock skew). */
const acceptedAtSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp (2026-11-21T10:00:00Z) of a real date and time' })
  .refine((v) => Date.parse(v) <= Date.now() + 86_400_000, { error: 'must not be in the future' });

/** `customer_acceptance` (Hyperswitch's): the payer's agreement to later charges without them. Built on the first request that carries it (`z.lazy`: a handler's import builds none of it). */
export const customerAcceptanceSchema = z.lazy(() =>
  z
    .strictObject({
      acceptance_type: z.enum(ACCEPTANCE_TYPES, { error: 'must be online or offline' }),
      accepted_at: acceptedAtSchema,
      online: z
        .strictObject({
          ip_address: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }),
          user_agent: text(512),
        })
        .optional(),
    })
    .superRefine((a, ctx) => {
      if (a.acceptance_type === 'online' && !a.online) {
        ctx.addIssue({ code: 'custom', path: ['online'], message: 'is required with acceptance_type online (ip_address and user_agent)' });
      }
    }),
);

/**
 * The saved-method rules of create and confirm: `setup_future_usage` saves the card on a customer
 * (`off_session` needs `customer_acceptance`); `payment_method_id` charges a saved one instead of new
 * details (`off_session: true` without the payer); the two do not mix.
 */
function checkSavedMethodFields(
  body: {
    setup_future_usage?: string;
    customer_acceptance?: unknown;
    payment_method_id?: string;
    off_session?: boolean;
    payment_method?: string;
    payment_method_data?: PaymentMethodData;
  },
  ctx: z.RefinementCtx,
): void {
  if (body.setup_future_usage === 'off_session' && !body.customer_acceptance) {
    ctx.addIssue({
      code: 'custom',
      path: ['customer_acceptance'],
      message: "is required with setup_future_usage off_session: the payer's agreement to later charges without them",
    });
  }
  if (body.customer_acceptance && body.setup_future_usage !== 'off_session') {
    ctx.addIssue({ code: 'custom', path: ['customer_acceptance'], message: 'is only taken with setup_future_usage off_session' });
  }
  if (body.payment_method_id !== undefined) {
    if (body.payment_method_data) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method_data'],
        message: 'cannot be sent with payment_method_id: the saved method is charged',
      });
    }
    if (body.payment_method !== undefined && body.payment_method !== 'card') {
      ctx.addIssue({ code: 'custom', path: ['payment_method'], message: 'must be card (or absent) with payment_method_id' });
    }
    if (body.setup_future_usage) {
      ctx.addIssue({
        code: 'custom',
        path: ['setup_future_usage'],
        message: 'cannot be sent with payment_method_id: that method is saved already',
      });
    }
  }
  if (body.off_session && body.payment_method_id === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['off_session'],
      message: 'is only taken with payment_method_id (a saved method charged without the payer)',
    });
  }
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

/**
 * The single-use link rules of create: `payment_link: true` asks for a link the payer pays this payment on, so the
 * payment is not confirmed now (`confirm: true` is refused); `session_expiry` is only taken with it.
 */
function checkPaymentLinkFields(body: { payment_link?: boolean; session_expiry?: number; confirm?: boolean }, ctx: z.RefinementCtx): void {
  if (body.payment_link && body.confirm) {
    ctx.addIssue({
      code: 'custom',
      path: ['payment_link'],
      message: 'cannot be sent with confirm: true; the payer confirms the payment on the link',
    });
  }
  if (body.session_expiry !== undefined && !body.payment_link) {
    ctx.addIssue({ code: 'custom', path: ['session_expiry'], message: 'is only taken with payment_link: true' });
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
    setup_future_usage: z.enum(SETUP_FUTURE_USAGES, { error: 'must be on_session or off_session' }).optional(),
    customer_acceptance: customerAcceptanceSchema.optional(),
    payment_method_id: paymentMethodIdSchema.optional(),
    off_session: z.boolean({ error: 'must be true or false' }).optional(),
    payment_link: z.boolean({ error: 'must be true or false' }).optional(),
    session_expiry: z
      .number({ error: `must be a whole number of seconds from ${MIN_SESSION_EXPIRY_SECONDS} to ${MAX_SESSION_EXPIRY_SECONDS}` })
      .int({ error: `must be a whole number of seconds from ${MIN_SESSION_EXPIRY_SECONDS} to ${MAX_SESSION_EXPIRY_SECONDS}` })
      .min(MIN_SESSION_EXPIRY_SECONDS, { error: `must be at least ${MIN_SESSION_EXPIRY_SECONDS} seconds` })
      .max(MAX_SESSION_EXPIRY_SECONDS, { error: `must be at most ${MAX_SESSION_EXPIRY_SECONDS} seconds (about three months)` })
      .optional(),
  })
  .superRefine((body, ctx) => {
    checkSavedMethodFields(body, ctx);
    checkPaymentLinkFields(body, ctx);
    if (body.setup_future_usage && !body.customer_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['customer_id'],
        message: 'is required with setup_future_usage: the method is saved on a customer',
      });
    }
    if (body.payment_method_id !== undefined && body.merchant_connector_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['merchant_connector_id'],
        message: 'cannot be sent with payment_method_id: a saved method is charged through the account that issued it',
      });
    }
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
    setup_future_usage: z.enum(SETUP_FUTURE_USAGES, { error: 'must be on_session or off_session' }).optional(),
    customer_acceptance: customerAcceptanceSchema.optional(),
    payment_method_id: paymentMethodIdSchema.optional(),
    off_session: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((body, ctx) => {
    checkMethodData(body, ctx);
    checkSavedMethodFields(body, ctx);
    if (body.payment_method_id !== undefined && body.merchant_connector_id !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['merchant_connector_id'],
        message: 'cannot be sent with payment_method_id: a saved method is charged through the account that issued it',
      });
    }
  });

/** Parsed confirm body. */
export type ConfirmPaymentBody = z.infer<typeof confirmPaymentBodySchema>;
