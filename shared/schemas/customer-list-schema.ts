/** The query of `GET /customers` (the only list filtered by e-mail, hence the only list schema needing shared/schemas/common.ts). */
import { emailSchema } from './contact-schemas';
import { listQuerySchema } from './list-query-schema';

/** `GET /customers`: the list parameters and `email` (functions/customers/list-customers.ts). */
export const listCustomersQuerySchema = listQuerySchema({ email: emailSchema.optional() });
