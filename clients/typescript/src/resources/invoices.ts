/** `switchyard.invoices`: the invoices of subscriptions, one per period. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { Invoice, InvoiceList, InvoiceListParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/invoices`. */
export class Invoices {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /invoices/{invoice_id}`. */
  retrieve(invoiceId: string, options?: RequestOptions): Promise<Invoice> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/invoices/{invoice_id}', { params: { path: { invoice_id: pathId('invoiceId', invoiceId) } }, ...init }),
      options,
    );
  }

  /** `GET /invoices?subscription_id=`: one page of a subscription's invoices. */
  list(params: InvoiceListParams, options?: RequestOptions): Promise<InvoiceList> {
    return this.client.call((init) => this.client.api.GET('/invoices', { params: { query: params }, ...init }), options);
  }
}
