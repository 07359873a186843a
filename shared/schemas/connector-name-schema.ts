import * as z from 'zod';
import { CONNECTOR_NAMES } from '../domain/connector-account';

/** `connector_name`: one of {@link CONNECTOR_NAMES}. */
export const connectorNameSchema = z.enum(CONNECTOR_NAMES, { error: `must be one of ${CONNECTOR_NAMES.join(', ')}` });
