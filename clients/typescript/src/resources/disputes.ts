/** `switchyard.disputes`: cardholders' disputes of payments, their deadlines, and the answers to them. */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type { Dispute, DisputeEvidenceParams, DisputeList, DisputeListParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/disputes`. */
export class Disputes {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /disputes/{dispute_id}`. */
  retrieve(disputeId: string, options?: RequestOptions): Promise<Dispute> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/disputes/{dispute_id}', { params: { path: { dispute_id: pathId('disputeId', disputeId) } }, ...init }),
      options,
    );
  }

  /** `GET /disputes`: one page (`dispute_status`, `payment_id`, `created[…]`). */
  list(params?: DisputeListParams, options?: RequestOptions): ListPromise<Dispute, DisputeList> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/disputes', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (d) => d.dispute_id,
    );
  }

  /** `POST /disputes/{dispute_id}/accept`: the money stays with the cardholder. Keyed: a retry answers the same. */
  accept(disputeId: string, options?: RequestOptions): Promise<Dispute> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/disputes/{dispute_id}/accept', {
          params: { path: { dispute_id: pathId('disputeId', disputeId) } },
          ...init,
        }),
      options,
    );
  }

  /** `POST /disputes/{dispute_id}/evidence`: relays evidence (file ids from `files.create`), submitted when `submit`. */
  submitEvidence(disputeId: string, params: DisputeEvidenceParams, options?: RequestOptions): Promise<Dispute> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/disputes/{dispute_id}/evidence', {
          params: { path: { dispute_id: pathId('disputeId', disputeId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }
}
