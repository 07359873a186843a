/** `switchyard.paymentMethods`: the payment methods saved on the merchant's customers. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { DetachedPaymentMethod, PaymentMethod, PaymentMethodList, PaymentMethodListParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/payment_methods` and `/customers/{customer_id}/payment_methods`. */
export class PaymentMethods {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /customers/{customer_id}/payment_methods`: one page of the customer's attached methods, newest first. */
  list(customerId: string, params?: PaymentMethodListParams, options?: RequestOptions): Promise<PaymentMethodList> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/customers/{customer_id}/payment_methods', {
          params: { path: { customer_id: pathId('customerId', customerId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }

  /** `GET /payment_methods/{payment_method_id}`: the method, attached (`status: active`) or detached. */
  retrieve(paymentMethodId: string, options?: RequestOptions): Promise<PaymentMethod> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payment_methods/{payment_method_id}', {
          params: { path: { payment_method_id: pathId('paymentMethodId', paymentMethodId) } },
          ...init,
        }),
      options,
    );
  }

  /**
   * `DELETE /payment_methods/{payment_method_id}`: detaches the method (at its processor, then in
   * Switchyard) → the method, `status: detached`. A method already detached answers 409
   * `payment_method_unexpected_state` (also when a retry follows a first attempt whose answer was
   * lost: `retrieve` then shows `status: detached`); a processor that could not be reached answers 503
   * `connector_unreachable` (the method is still attached; retried by the transport like any 503).
   */
  delete(paymentMethodId: string, options?: RequestOptions): Promise<DetachedPaymentMethod> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/payment_methods/{payment_method_id}', {
          params: { path: { payment_method_id: pathId('paymentMethodId', paymentMethodId) } },
          ...init,
        }),
      options,
    );
  }
}
