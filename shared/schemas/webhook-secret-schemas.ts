/**
 * Where the processors' webhook bodies carry secrets, as zod schemas whose secret fields are marked
 * ({@link secret}, ./secret-field.ts). The adapters read these bodies field by field
 * (shared/connectors/webhook-payload.ts), not with these schemas: they exist so that the marks of inbound
 * bodies sit with the request schemas' marks, and `npm run secret-fields` collects both into the names the
 * redaction of every log path reads (shared/observability/secret-field-names.ts). Build-time only: no
 * Lambda imports this module. Loose objects: only the secret-bearing paths are described.
 *
 * - Stripe (https://docs.stripe.com/api/events/object, `data.object` a PaymentIntent, Charge, SetupIntent or
 *   Customer): `payment_method` (a `pm_…` token that charges the card with the account's key),
 *   `invoice_settings.default_payment_method` and `default_payment_method`.
 * - Paystack (https://paystack.com/docs/payments/webhooks/, `charge.success`): `data.authorization.authorization_code`
 *   (`AUTH_…`, charges the card again with the account's secret key).
 * - Flutterwave (https://developer.flutterwave.com/docs/webhooks, `charge.completed`): `data.card.token`
 *   (`flw-t1nf-…`, tokenized charges). Flutterwave's `verif-hash` header is the dashboard's secret hash: a header,
 *   redacted by name in shared/observability/redaction.ts.
 */
import * as z from 'zod';
import { secret } from './secret-field';

const token = () => secret(z.string());

/** A Stripe event's body: the token fields of its `data.object`. */
export const stripeWebhookSecrets = z.looseObject({
  data: z.looseObject({
    object: z.looseObject({
      payment_method: token().optional(),
      default_payment_method: token().optional(),
      invoice_settings: z.looseObject({ default_payment_method: token().optional() }).optional(),
    }),
  }),
});

/** A Paystack event's body: the reusable authorization of a card charge. */
export const paystackWebhookSecrets = z.looseObject({
  data: z.looseObject({ authorization: z.looseObject({ authorization_code: token().optional() }).optional() }),
});

/** A Flutterwave event's body: the card token of a card charge. */
export const flutterwaveWebhookSecrets = z.looseObject({
  data: z.looseObject({ card: z.looseObject({ token: token().optional() }).optional() }),
});

/** Every inbound webhook body schema, by connector. */
export const WEBHOOK_SECRET_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  stripe: stripeWebhookSecrets,
  paystack: paystackWebhookSecrets,
  flutterwave: flutterwaveWebhookSecrets,
};
