/**
 * The answer of `GET /routing/success_rates`: per connector account and segment, the window success-rate routing
 * scores it on (docs/routing.md "Reading the scores").
 */
import * as z from 'zod';
import { SUCCESS_RATE_DIMENSIONS, type SuccessRateDimension } from '../domain/routing-algorithm';
import { timestampField } from './resource-fields';

/** Component `AccountSuccessRate`: one account's window in one segment. */
export const AccountSuccessRateResource = z
  .strictObject({
    merchant_connector_id: z.string().describe('The connector account (`mca_…`).'),
    segment: z
      .string()
      .describe('The segment key, e.g. `payment_method=card|card_network=visa|currency=NGN` (`-`: the payment did not have the fact).'),
    dimensions: z
      .strictObject(
        Object.fromEntries(SUCCESS_RATE_DIMENSIONS.map((d) => [d, z.string().optional()])) as Record<
          SuccessRateDimension,
          z.ZodOptional<z.ZodString>
        >,
      )
      .describe('The segment as `{dimension: value}`, the dimensions it is made of only (card_bin: 6 digits at most).'),
    attempts: z
      .number()
      .min(0)
      .describe('Outcomes in the window: approvals and issuer declines (fractional when the oldest minute was taken in part).'),
    successes: z.number().min(0).describe('Approvals in the window.'),
    success_rate: z.number().min(0).max(1).nullable().describe('successes ÷ attempts, or null with no outcome.'),
    updated_at: timestampField('When its newest outcome in the window was counted.')
      .nullable()
      .describe('When its newest outcome in the window was counted (ISO 8601 UTC), or null.'),
  })
  .meta({ id: 'AccountSuccessRate', description: "One connector account's recent authorization rate in one segment." });

/** Component `SuccessRates`. */
export const SuccessRatesResource = z
  .strictObject({
    window_size: z
      .int()
      .describe(
        "Outcomes per account and segment the rates are computed over: the active algorithm's `window_size` (its first success-rate selection's), else the default 200.",
      ),
    lookback_seconds: z.int().describe('Outcomes older than this do not count (1,800 s).'),
    data: z
      .array(AccountSuccessRateResource)
      .describe('One entry per account and segment with outcomes in the lookback, by account then segment.'),
  })
  .meta({
    id: 'SuccessRates',
    description: 'Your connector accounts’ recent authorization rates, per segment, as success-rate routing sees them.',
  });
