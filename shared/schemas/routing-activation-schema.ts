/**
 * The `data` of a `routing.activated` event: which routing algorithm is now active for the merchant
 * (or none, after `POST /routing/deactivate`). docs/api.md "Routing".
 */
import * as z from 'zod';
import { ROUTING_ALGORITHM_TYPES } from '../domain/routing-algorithm';
import { idField, timestampField } from './resource-fields';

/** Component `RoutingActivation`. */
export const RoutingActivationResource = z
  .strictObject({
    active: z.boolean().describe('Whether an algorithm is active now (false after a deactivation: the default fallback list routes).'),
    routing_algorithm_id: idField('routing', 'The active algorithm').nullable().describe('The active algorithm, or null when none is.'),
    name: z.string().nullable().describe('Its name, or null.'),
    algorithm_type: z.enum(ROUTING_ALGORITHM_TYPES).nullable().describe('Its type, or null.'),
    activated_at: timestampField('When the change was made.')
      .nullable()
      .describe('When the change was made (ISO 8601 UTC), or null when routing was never set.'),
  })
  .meta({ id: 'RoutingActivation', description: 'The routing algorithm active for your payments after a change.' });

/** Body of `PUT /routing/default`: the ordered fallback list, 1–50 of your connector accounts, each once. */
export const defaultFallbackBodySchema = z.strictObject({
  default_fallback: z
    .array(
      z.strictObject({
        merchant_connector_id: z
          .string({ error: 'must be a connector account id (mca_…)' })
          .regex(/^mca_[0-9A-Za-z]{1,64}$/, { error: 'must be a connector account id (mca_…)' }),
      }),
    )
    .min(1, { error: 'must list at least one connector account' })
    .max(50, { error: 'must list at most 50 connector accounts' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((entry, i) => {
        if (seen.has(entry.merchant_connector_id))
          ctx.addIssue({ code: 'custom', path: [i, 'merchant_connector_id'], message: 'is listed twice' });
        seen.add(entry.merchant_connector_id);
      });
    }),
});

/** Component `DefaultFallback`: the merchant's ordered fallback list, as `GET|PUT /routing/default` answer it. */
export const DefaultFallbackResource = z
  .strictObject({
    default_fallback: z
      .array(
        z.strictObject({
          merchant_connector_id: idField('mca', 'A connector account'),
          connector_name: z.string().describe('Its connector.'),
        }),
      )
      .describe('Your accounts in the order routing falls back to them.'),
    is_custom: z.boolean().describe('Whether you set this list; when false it is your accounts in the order you connected them.'),
  })
  .meta({
    id: 'DefaultFallback',
    description:
      'Where payments go when no routing algorithm is active, and the fallbacks after the active algorithm\'s choice (docs/api.md "Routing").',
  });
