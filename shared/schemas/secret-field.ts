/**
 * The mark of a secret request field: card data (`card_number`, `card_cvc`), step secrets (`pin`, `otp`) and
 * processor credentials (`api_key`, `key1`, `merchant_secret`). A field is marked where its schema is declared,
 * with {@link secret}; the mark is zod metadata (`x-secret: true`), so it also reaches the OpenAPI document
 * (an OpenAPI 3.1 specification extension on the field's schema). `npm run secret-fields` collects the names of
 * the marked fields of every request schema (and of the processors' webhook bodies,
 * ./webhook-secret-schemas.ts) into shared/observability/secret-field-names.ts, which the redaction of every
 * log path reads (shared/observability/redaction.ts): a marked field's value never reaches a log line, at any
 * level, with or without event logging. A marked field is also never free text: the card guard does not apply
 * to it (its value is never stored in clear, answered or logged).
 */
import type * as z from 'zod';

/** The metadata key of the mark (an OpenAPI specification extension, `x-` prefixed). */
export const SECRET_META_KEY = 'x-secret';

/**
 * Marks a field's schema as secret (see the module comment).
 * @param schema the field's schema, before `.optional()` (the mark stays on the inner schema)
 * @returns the same schema, registered with `{"x-secret": true}` metadata
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [SECRET_META_KEY]: true }) as T;
}
