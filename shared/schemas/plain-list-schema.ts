/** The query of the lists without filters of their own (one file per list family, so a list handler builds only its own at import). */
import { listQuerySchema } from './list-query-schema';

/** `GET /payments/{payment_id}/refunds` and `GET /webhook_endpoints`: the list parameters only. */
export const plainListQuerySchema = listQuerySchema({});
