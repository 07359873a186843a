/**
 * The `data` of a `routing.activated` event: which routing algorithm is now active for the merchant
 * (or none, after `POST /routing/deactivate`). docs/api.md "Routing".
 */
import * as z from 'zod';
import { idField, timestampField } from './resource-fields';

/** Component `RoutingActivation`. */
export const RoutingActivationResource = z
  .strictObject({
    active: z.boolean().describe('Whether an algorithm is active now (false after a deactivation: the default fallback list routes).'),
    routing_algorithm_id: idField('routing', 'The active algorithm').nullable().describe('The active algorithm, or null when none is.'),
    name: z.string().nullable().describe('Its name, or null.'),
    algorithm_type: z.enum(['single', 'priority', 'volume_split', 'advanced']).nullable().describe('Its type, or null.'),
    activated_at: timestampField('When the change was made.'),
  })
  .meta({ id: 'RoutingActivation', description: 'The routing algorithm active for your payments after a change.' });

/** The activation data type. */
export type RoutingActivation = z.output<typeof RoutingActivationResource>;
