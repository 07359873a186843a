/** `switchyard.payouts`: money sent from your processor balance to a bank account or a mobile money wallet. */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type {
  Payout,
  PayoutAuthenticateParams,
  PayoutCreateParams,
  PayoutList,
  PayoutListParams,
  PayoutPriority,
  PayoutPriorityParams,
  PayoutResolveAccountParams,
  PayoutRetrieveParams,
  ResolvedAccount,
} from '../types.js';
import { pathId } from './path-id.js';

/** `/payouts`. */
export class Payouts {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /payouts`: creates a payout (`confirm: true` sends it at once). Keyed: a retry never sends it twice. */
  create(params: PayoutCreateParams, options?: RequestOptions): Promise<Payout> {
    return this.client.call((init) => this.client.api.POST('/payouts', { body: params, ...init }), options);
  }

  /** `GET /payouts/{payout_id}`; `{ force_sync: true }` first asks the processor about an open payout (by reference). */
  retrieve(payoutId: string, params?: PayoutRetrieveParams, options?: RequestOptions): Promise<Payout> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payouts/{payout_id}', {
          params: { path: { payout_id: pathId('payoutId', payoutId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }

  /** `GET /payouts`: newest first (filters `status` or `customer_id`). Awaited: the first page; `for await`: every payout. */
  list(params?: PayoutListParams, options?: RequestOptions): ListPromise<Payout, PayoutList> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/payouts', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (p) => p.payout_id,
    );
  }

  /** `POST /payouts/{payout_id}/confirm`: sends a `RequiresConfirmation` payout, once. Keyed. */
  confirm(payoutId: string, options?: RequestOptions): Promise<Payout> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payouts/{payout_id}/confirm', {
          params: { path: { payout_id: pathId('payoutId', payoutId) } },
          body: {},
          ...init,
        }),
      options,
    );
  }

  /**
   * `POST /payouts/{payout_id}/authenticate`: the OTP the processor sent you (`next_action.type` `submit_otp`).
   * Not keyed (an OTP never rests in an idempotency record) and so re-sent only on answers that say nothing was done.
   */
  authenticate(payoutId: string, params: PayoutAuthenticateParams, options?: RequestOptions): Promise<Payout> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payouts/{payout_id}/authenticate', {
          params: { path: { payout_id: pathId('payoutId', payoutId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payouts/{payout_id}/cancel`: only before it was sent (`RequiresConfirmation`). Keyed. */
  cancel(payoutId: string, options?: RequestOptions): Promise<Payout> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payouts/{payout_id}/cancel', {
          params: { path: { payout_id: pathId('payoutId', payoutId) } },
          body: {},
          ...init,
        }),
      options,
    );
  }

  /** `POST /payouts/resolve_account`: the holder's name of a bank account, from the processor. Changes nothing. */
  resolveAccount(params: PayoutResolveAccountParams, options?: RequestOptions): Promise<ResolvedAccount> {
    return this.client.call((init) => this.client.api.POST('/payouts/resolve_account', { body: params, ...init }), options);
  }

  /** `GET /routing/payouts`: the payout priority list (empty, `is_custom: false`, when none was set). */
  getPriority(options?: RequestOptions): Promise<PayoutPriority> {
    return this.client.call((init) => this.client.api.GET('/routing/payouts', { ...init }), options);
  }

  /** `PUT /routing/payouts`: replaces the payout priority list, `{ priority: [{ merchant_connector_id }, …] }` (`[]` clears it). */
  setPriority(params: PayoutPriorityParams, options?: RequestOptions): Promise<PayoutPriority> {
    return this.client.call((init) => this.client.api.PUT('/routing/payouts', { body: params, ...init }), options);
  }
}
