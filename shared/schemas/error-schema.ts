/**
 * The error object of every failure, `{"error": {"type", "code", "message", "param"?}}` (as
 * Stripe's error object: https://docs.stripe.com/api/errors). shared/domain/errors.ts derives
 * `ApiErrorBody` and `ApiErrorType` from it (`import type`). docs/api.md "Errors".
 */
import * as z from 'zod';
import { API_ERROR_TYPES } from '../domain/errors';

/** Component `ErrorType`. */
export const ApiErrorTypeResource = z.enum(API_ERROR_TYPES).meta({
  id: 'ErrorType',
  description:
    '`invalid_request_error` (fix the request), `authentication_error` (the key or a signature), `idempotency_error` (Idempotency-Key misuse), `connector_error` (a processor refused or could not be reached), `rate_limit_error` (over your requests-per-second limit: wait `Retry-After`, then retry), `api_error` (our side: retry).',
});

/** Component `Error`: the body of every error response. */
export const ApiErrorResource = z
  .strictObject({
    error: z
      .strictObject({
        type: ApiErrorTypeResource,
        code: z
          .string()
          .describe(
            'A stable machine-readable code, e.g. `parameter_missing`, `resource_missing`, `payment_unexpected_state`, `idempotency_key_in_use`, `rate_limit_exceeded`, `outcome_unknown` (docs/api.md, "Errors"); a processor refusal carries the processor\'s code.',
          ),
        message: z.string().describe('What went wrong and what to do, for people. Never repeats what you sent.'),
        param: z
          .string()
          .optional()
          .describe('The parameter at fault, dotted for nested fields (`billing.address.country`); absent when no single parameter is.'),
      })
      .describe('The error.'),
  })
  .meta({ id: 'Error', description: 'The body of every error response.' });
