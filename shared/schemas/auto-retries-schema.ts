/** `PUT /routing/auto_retries` body and the setting as answered (docs/routing.md "Automatic retries"). */
import * as z from 'zod';
import { DEFAULT_AUTO_RETRIES, MAX_AUTO_RETRIES } from '../domain/routing-profile';

/** Component `AutoRetries`: the setting as stored and answered. */
export const AutoRetriesResource = z
  .strictObject({
    enabled: z.boolean().describe('Whether a soft decline is retried on your next eligible account (off by default).'),
    max_auto_retries: z
      .int()
      .min(0)
      .max(MAX_AUTO_RETRIES)
      .describe(`Most other accounts tried after soft declines, 0 to ${MAX_AUTO_RETRIES}.`),
  })
  .meta({ id: 'AutoRetries', description: 'Automatic retries of soft declines on your other connector accounts.' });

/** Body of `PUT /routing/auto_retries`: `enabled`, and `max_auto_retries` (0–3, default 1). */
export const autoRetriesBodySchema = z.strictObject({
  enabled: z.boolean({ error: 'must be true or false' }),
  max_auto_retries: z
    .int({ error: `must be an integer from 0 to ${MAX_AUTO_RETRIES}` })
    .min(0, { error: 'must be at least 0' })
    .max(MAX_AUTO_RETRIES, { error: `must be at most ${MAX_AUTO_RETRIES}` })
    .default(DEFAULT_AUTO_RETRIES.max_auto_retries),
});
