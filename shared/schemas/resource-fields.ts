/**
 * Field builders shared by the response (resource) schemas: ids, timestamps, amounts, free text.
 * Each returns a fresh zod schema carrying its description, which `z.toJSONSchema` writes into
 * the OpenAPI document (scripts/openapi.ts). Response schemas only: the request schemas, with
 * their validation rules and messages, are in shared/schemas/common.ts.
 *
 * Imported by the resource schemas, the OpenAPI generator and tests only; Lambda code refers to
 * the resource types with `import type` (erased), so none of this reaches a bundle.
 */
import * as z from 'zod';
import { CURRENCIES } from '../domain/money';

/**
 * An id this API hands out: `<prefix>_` then letters and digits (shared/domain/ids.ts; ids derived
 * from an Idempotency-Key have the same shape). Opaque: clients must not parse them.
 * @param prefix e.g. `pay`, `cus`, `ref`, `evt`, `we`, `att`
 * @param description what the id names
 */
export function idField(prefix: string, description: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`))
    .describe(`${description} (\`${prefix}_…\`; opaque, do not parse).`);
}

/**
 * A point in time: ISO 8601 in UTC with `Z`, as `Date.prototype.toISOString` writes it
 * (`2026-11-21T17:22:09.123Z`; JSON Schema 2020-12 `format: date-time`, RFC 3339 §5.6).
 * @param description what the instant is
 */
export function timestampField(description: string) {
  return z.iso.datetime().describe(`${description} ISO 8601 UTC with milliseconds and \`Z\`, e.g. \`2026-11-21T17:22:09.123Z\`.`);
}

/**
 * A money amount: a non-negative integer in minor units (kobo, cents, pesewas; `150000` NGN is
 * ₦1,500.00). Never a float.
 * @param description what the amount is
 * @param min smallest value the field takes (0 for running totals, 1 for amounts a client chose)
 */
export function minorUnitsField(description: string, min = 0) {
  return z.int().min(min).describe(`${description} Integer in minor units (kobo, cents, pesewas): 150000 NGN is ₦1,500.00.`);
}

/** The supported currencies: upper-case ISO 4217 codes (shared/domain/money.ts). Component `Currency`. */
export const CurrencyResource = z.enum(CURRENCIES).meta({
  id: 'Currency',
  description: 'Three-letter ISO 4217 currency code, upper case. Every supported currency has 2 decimal places (minor units).',
});

/**
 * Text that is either a string or `null` (the field is always present; `null` when unset).
 * @param description what the text is
 */
export function nullableText(description: string) {
  return z.string().nullable().describe(description);
}

/**
 * A connector (downstream processor) name: `sandbox`, `paystack`, `flutterwave` or `stripe`
 * (shared/processor-call/connector-registry.ts). A string rather than an enum: a stage may register others.
 * @param description what the connector did
 */
export function connectorField(description: string) {
  return z.string().describe(`${description} One of \`sandbox\`, \`paystack\`, \`flutterwave\`, \`stripe\`.`);
}

/**
 * The merchant connector account (`mca_…`) a payment, attempt, refund or claim is on, or null when it is
 * on the stage's own account of its connector (merchants without accounts of their own).
 * @param description what the account did
 */
export function merchantConnectorIdField(description: string) {
  return z
    .string()
    .regex(/^mca_[0-9A-Za-z]+$/)
    .nullable()
    .describe(`${description} (\`mca_…\`), or null when the stage's own account of the connector was used.`);
}

/** Free-form string map echoed from the request (`{}` when none): at most 50 keys of 1–40 characters, values of at most 500 characters. */
export const MetadataResource = z.record(z.string(), z.string()).meta({
  id: 'Metadata',
  description:
    'Free-form string key/value pairs you attached, echoed as given (`{}` when none): at most 50 keys of 1–40 characters, values of at most 500 characters. Never put card data here (it is refused).',
});

/** The `{"<id field>": "…", "deleted": true}` answer of a DELETE, as Stripe answers deletions. */
export function deletedAnswer<K extends string>(idKey: K, prefix: string, what: string, id: string) {
  return z
    .strictObject({ [idKey]: idField(prefix, `The deleted ${what}'s id`), deleted: z.literal(true).describe('Always `true`.') } as {
      [P in K]: ReturnType<typeof idField>;
    } & { deleted: z.ZodLiteral<true> })
    .meta({ id, description: `The answer of deleting a ${what}: its id and \`deleted: true\`.` });
}
