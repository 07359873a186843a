import * as z from 'zod';
import { emailSchema, metadataSchema, phoneSchema, text } from './common';

/**
 * Body of `POST /customers` and `PUT /customers/{id}`: every field optional. Every field is
 * stored, so none may hold a card number (`email`, `name`, `phone`, `description`, metadata
 * keys and values; shared/schemas/common.ts): such a body is refused with a 400 whose `param`
 * names the field and whose message never repeats the value.
 */
export const customerBodySchema = z.strictObject({
  email: emailSchema.optional(),
  name: text(256).optional(),
  phone: phoneSchema.optional(),
  description: text(1000).optional(),
  metadata: metadataSchema.optional(),
});

/** Parsed customer body. */
export type CustomerBody = z.infer<typeof customerBodySchema>;
