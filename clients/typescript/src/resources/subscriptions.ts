/** `switchyard.subscriptions`: recurring charges of a customer's saved payment method, billed by Switchyard. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type {
  Subscription,
  SubscriptionCreateParams,
  SubscriptionList,
  SubscriptionListParams,
  SubscriptionUpdateParams,
} from '../types.js';
import { pathId } from './path-id.js';

/** `/subscriptions`. */
export class Subscriptions {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /subscriptions`: bills the first period at once (or starts the trial). Keyed: a retry never charges twice. */
  create(params: SubscriptionCreateParams, options?: RequestOptions): Promise<Subscription> {
    return this.client.call((init) => this.client.api.POST('/subscriptions', { body: params, ...init }), options);
  }

  /** `GET /subscriptions/{subscription_id}`. */
  retrieve(subscriptionId: string, options?: RequestOptions): Promise<Subscription> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/subscriptions/{subscription_id}', {
          params: { path: { subscription_id: pathId('subscriptionId', subscriptionId) } },
          ...init,
        }),
      options,
    );
  }

  /** `PUT /subscriptions/{subscription_id}`: `payment_method_id`, `cancel_at_period_end`, `metadata`. */
  update(subscriptionId: string, params: SubscriptionUpdateParams, options?: RequestOptions): Promise<Subscription> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/subscriptions/{subscription_id}', {
          params: { path: { subscription_id: pathId('subscriptionId', subscriptionId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /subscriptions/{subscription_id}/cancel`: cancels it now (a second cancel is refused with 409). */
  cancel(subscriptionId: string, options?: RequestOptions): Promise<Subscription> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/subscriptions/{subscription_id}/cancel', {
          params: { path: { subscription_id: pathId('subscriptionId', subscriptionId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /subscriptions`: one page (`customer_id` or `status`). */
  list(params?: SubscriptionListParams, options?: RequestOptions): Promise<SubscriptionList> {
    return this.client.call(
      (init) => this.client.api.GET('/subscriptions', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }
}
