/**
 * The routing algorithm as the API answers it (OpenAPI component `RoutingAlgorithm`), apart from the request schemas
 * (./routing-schemas.ts): `POST /routing` builds only its body at import.
 */
import * as z from 'zod';
import { MAX_NAME_LENGTH } from '../domain/routing-algorithm';
import { idField, nullableText, timestampField } from './resource-fields';
import { routingAlgorithmSchema } from './routing-schemas';

/** Component `RoutingAlgorithm`: a routing algorithm as the API answers it, with whether it is the active one. */
export const RoutingAlgorithmResource = z
  .strictObject({
    routing_algorithm_id: idField('routing', 'The routing algorithm'),
    name: z.string().describe(`Your name for it (1 to ${MAX_NAME_LENGTH} characters).`),
    description: nullableText('Description, or null.'),
    algorithm: routingAlgorithmSchema,
    is_active: z.boolean().describe("Whether it is the algorithm routing your payments now (your routing profile's active one)."),
    created_at: timestampField('When it was created.'),
    modified_at: timestampField('When it last changed (algorithms are immutable: its creation).'),
  })
  .meta({
    id: 'RoutingAlgorithm',
    description:
      'A routing algorithm of yours: how payments are sent to your connector accounts. Creating one does not use it: activate it. Accounts it names that are disabled, or that cannot take a payment, are passed over when a payment is routed.',
  });

/** The resource type. */
export type RoutingAlgorithmView = z.output<typeof RoutingAlgorithmResource>;
