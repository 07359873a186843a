/** The body of an action that takes none: empty (an absent body counts as `{}`), any field refused. */
import * as z from 'zod';

/** `{}` only (`POST /webhook_endpoints/{id}/rotate_secret`, routing activation and deactivation). */
export const emptyBodySchema = z.strictObject({});
