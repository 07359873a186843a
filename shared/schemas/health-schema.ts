/**
 * The answer of `GET /health` (functions/health/get-health.ts), 200 or 503. docs/api.md "Health".
 */
import * as z from 'zod';
import { timestampField } from './resource-fields';

/** Component `Health`. */
export const HealthResource = z
  .strictObject({
    status: z.enum(['ok', 'unavailable']).describe('`ok` (200) when the table answers, `unavailable` (503) when not.'),
    dynamodb: z.enum(['ok', 'unreachable']).describe('Whether the DynamoDB table answered.'),
    time: timestampField('The server time of the answer.'),
  })
  .meta({ id: 'Health', description: 'Whether the service can reach its storage. Needs no api-key.' });
