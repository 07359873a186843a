/** `switchyard.refunds`: a refund read by its id (refunds are created by `payments.refund`). */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { Refund, RefundRetrieveParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/refunds`. */
export class Refunds {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /refunds/{refund_id}`; `{ force_sync: true }` first asks the connector about a `Pending` refund. */
  retrieve(refundId: string, params?: RefundRetrieveParams, options?: RequestOptions): Promise<Refund> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/refunds/{refund_id}', {
          params: { path: { refund_id: pathId('refundId', refundId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }
}
