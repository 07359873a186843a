/**
 * Request bodies of merchant connector accounts (`POST`/`PUT /connector_accounts`; the list query is in
 * ./connector-account-list-schema.ts, the resource in ./connector-account-resource-schema.ts), built from the
 * vocabulary in shared/domain/connector-account.ts. Names follow Hyperswitch's merchant connector
 * account (https://api-reference.hyperswitch.io/api-reference/merchant-connector-account/merchant-connector--create).
 */
import * as z from 'zod';
import { CURRENCIES } from '../domain/money';
import { PAYMENT_METHODS } from '../domain/payment';
import { NO_CARD_NUMBERS, noCardNumber } from './card-number-refinement';
import { connectorNameSchema } from './connector-name-schema';
import { currencySchema, metadataSchema, paymentMethodSchema } from './scalar-schemas';
import { secret } from './secret-field';

/** Longest `connector_label`: 64 characters. */
export const MAX_CONNECTOR_LABEL_LENGTH = 64;

/** Longest credential value accepted: 512 characters (processors' keys are under 200). */
const MAX_CREDENTIAL_LENGTH = 512;

/** A secret credential value: 1–512 printable ASCII characters, no spaces (never echoed in errors; marked secret: never logged). */
const credentialValue = secret(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(MAX_CREDENTIAL_LENGTH, { error: `must be at most ${MAX_CREDENTIAL_LENGTH} characters` })
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces (copy the key exactly as the processor shows it)' }),
);

/**
 * `connector_label`: 1–64 characters of letters, digits, spaces, `-`, `_`, `.`; unique per merchant (case-insensitive);
 * no card number (it is stored, answered and sent in events).
 */
const labelSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(MAX_CONNECTOR_LABEL_LENGTH, { error: `must be at most ${MAX_CONNECTOR_LABEL_LENGTH} characters` })
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, {
    error: 'must start with a letter or digit and hold only letters, digits, spaces, ".", "_" and "-"',
  })
  .refine(noCardNumber, { error: NO_CARD_NUMBERS });

/** `connector_account_details`: `api_key` (required on create) and `key1` (Flutterwave's encryption key). */
const accountDetailsSchema = z.strictObject({
  auth_type: z.enum(['HeaderKey', 'BodyKey'], { error: 'must be HeaderKey or BodyKey' }).optional(),
  api_key: credentialValue,
  key1: credentialValue.optional(),
});

/** `connector_webhook_details`: `merchant_secret` (Stripe's signing secret, Flutterwave's secret hash). */
const webhookDetailsSchema = z.strictObject({ merchant_secret: credentialValue });

/** One `payment_methods_enabled` entry: a method, its currencies and optional amount bounds (minor units). */
const enabledMethodSchema = z
  .strictObject({
    payment_method: paymentMethodSchema,
    currencies: z.array(currencySchema).min(1, { error: 'must list at least one currency' }).max(CURRENCIES.length),
    minimum_amount: z.int({ error: 'must be an integer in minor units' }).min(0).nullable().optional(),
    maximum_amount: z.int({ error: 'must be an integer in minor units' }).min(1).nullable().optional(),
  })
  .superRefine((m, ctx) => {
    if (m.minimum_amount != null && m.maximum_amount != null && m.minimum_amount > m.maximum_amount) {
      ctx.addIssue({ code: 'custom', path: ['maximum_amount'], message: 'must not be below minimum_amount' });
    }
  })
  .transform((m) => ({ ...m, currencies: [...new Set(m.currencies)] }));

/** `payment_methods_enabled`: 1–4 entries, one per payment method. */
const enabledMethodsSchema = z
  .array(enabledMethodSchema)
  .min(1, { error: 'must list at least one payment method (omit the field for everything the connector supports)' })
  .max(PAYMENT_METHODS.length)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((m, i) => {
      if (seen.has(m.payment_method)) ctx.addIssue({ code: 'custom', path: [i, 'payment_method'], message: 'is listed twice' });
      seen.add(m.payment_method);
    });
  });

/** Body of `POST /connector_accounts`. */
export const createConnectorAccountSchema = z.strictObject({
  connector_name: connectorNameSchema,
  connector_label: labelSchema.optional(),
  connector_account_details: accountDetailsSchema.optional(),
  connector_webhook_details: webhookDetailsSchema.optional(),
  payment_methods_enabled: enabledMethodsSchema.optional(),
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
  metadata: metadataSchema.optional(),
});

/** Body of `PUT /connector_accounts/{merchant_connector_id}`: every field optional; `connector_name` cannot change. */
export const updateConnectorAccountSchema = z.strictObject({
  connector_label: labelSchema.optional(),
  connector_account_details: accountDetailsSchema.optional(),
  connector_webhook_details: webhookDetailsSchema.optional(),
  payment_methods_enabled: enabledMethodsSchema.optional(),
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
  metadata: metadataSchema.optional(),
});

/** Parsed create body. */
export type CreateConnectorAccountBody = z.infer<typeof createConnectorAccountSchema>;
/** Parsed update body. */
export type UpdateConnectorAccountBody = z.infer<typeof updateConnectorAccountSchema>;
