/** `switchyard.paymentLinks`: reusable links to a hosted checkout page. */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type {
  MerchantProfile,
  MerchantProfileUpdateParams,
  PaymentLink,
  PaymentLinkCreateParams,
  PaymentLinkList,
  PaymentLinkListParams,
} from '../types.js';
import { pathId } from './path-id.js';

/** `/payment_links`. */
export class PaymentLinks {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /payment_links`: a fixed `amount`, or `amount_min` and `amount_max` for the payer to choose. Keyed. */
  create(params: PaymentLinkCreateParams, options?: RequestOptions): Promise<PaymentLink> {
    return this.client.call((init) => this.client.api.POST('/payment_links', { body: params, ...init }), options);
  }

  /** `GET /payment_links/{payment_link_id}`: the link, its `status` as of now. */
  retrieve(paymentLinkId: string, options?: RequestOptions): Promise<PaymentLink> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payment_links/{payment_link_id}', {
          params: { path: { payment_link_id: pathId('paymentLinkId', paymentLinkId) } },
          ...init,
        }),
      options,
    );
  }

  /** `POST /payment_links/{payment_link_id}/deactivate`: turns the link off for good (its page answers 410). */
  deactivate(paymentLinkId: string, options?: RequestOptions): Promise<PaymentLink> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payment_links/{payment_link_id}/deactivate', {
          params: { path: { payment_link_id: pathId('paymentLinkId', paymentLinkId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /payment_links`: one page, newest first (`active` filters). */
  list(params?: PaymentLinkListParams, options?: RequestOptions): ListPromise<PaymentLinkList['data'][number], PaymentLinkList> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/payment_links', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (l) => l.payment_link_id,
    );
  }

  /** `GET /merchant_profile`: your checkout display and the `return_signing_secret` that signs returns. */
  retrieveProfile(options?: RequestOptions): Promise<MerchantProfile> {
    return this.client.call((init) => this.client.api.GET('/merchant_profile', { ...init }), options);
  }

  /** `PUT /merchant_profile`: replaces your checkout display (`display_name`, `logo_url`, `brand_color`, `allowed_domains`). */
  updateProfile(params: MerchantProfileUpdateParams, options?: RequestOptions): Promise<MerchantProfile> {
    return this.client.call((init) => this.client.api.PUT('/merchant_profile', { body: params, ...init }), options);
  }
}
