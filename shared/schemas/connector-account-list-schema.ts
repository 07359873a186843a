/** The query of `GET /connector_accounts`, apart from the bodies so the list handler builds only it at cold start. */
import * as z from 'zod';
import { connectorNameSchema } from './connector-name-schema';
import { listQuerySchema } from './list-query-schema';

/** `GET /connector_accounts`: the list parameters, `connector_name` and `disabled`. */
export const listConnectorAccountsQuerySchema = listQuerySchema({
  connector_name: connectorNameSchema.optional(),
  disabled: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
});
