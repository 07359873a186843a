import { z } from 'zod';
import { emailSchema, metadataSchema, phoneSchema, text } from './common';

/** Body of `POST /customers` and `PUT /customers/{id}`: every field optional. */
export const customerBodySchema = z.strictObject({
  email: emailSchema.optional(),
  name: text(256).optional(),
  phone: phoneSchema.optional(),
  description: text(1000).optional(),
  metadata: metadataSchema.optional(),
});

/** Parsed customer body. */
export type CustomerBody = z.infer<typeof customerBodySchema>;
