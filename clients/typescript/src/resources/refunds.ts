/** `switchyard.refunds`: refunds read by id or listed (refunds are created by `payments.refund`). */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type { Refund, RefundListAll, RefundListAllParams, RefundRetrieveParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/refunds`. */
export class Refunds {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /**
   * `GET /refunds`: every refund of the merchant (or one payment's: `payment_id`), newest first. Awaited: the first
   * page; iterated with `for await`: every refund.
   */
  list(params?: RefundListAllParams, options?: RequestOptions): ListPromise<Refund, RefundListAll> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/refunds', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (r) => r.refund_id,
    );
  }

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
