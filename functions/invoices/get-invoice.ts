import { apiHandler } from '../../shared/http/api-handler';
import { getInvoice } from '../../shared/operations/billing/subscription-reads';

/** `GET /invoices/{invoice_id}`: one invoice; 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({ body: await getInvoice(req.merchantId, req.path.invoice_id ?? '') }));
