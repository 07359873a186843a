/** `switchyard.payments`: the payment intent and its state changes (docs/api.md, Payments). */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type {
  Payment,
  PaymentAuthenticateParams,
  PaymentCancelParams,
  PaymentCaptureParams,
  PaymentConfirmParams,
  PaymentCreateParams,
  PaymentList,
  PaymentListParams,
  PaymentRetrieveParams,
  Refund,
  RefundCreateParams,
  RefundList,
  RefundListParams,
} from '../types.js';
import { pathId } from './path-id.js';

/** `/payments`: create, read, list, and the state changes (confirm, authenticate, capture, cancel, refund). */
export class Payments {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /payments`: a payment intent (`RequiresConfirmation`, or processed at once with `confirm: true`). Keyed. */
  create(params: PaymentCreateParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call((init) => this.client.api.POST('/payments', { body: params, ...init }), options);
  }

  /** `GET /payments/{payment_id}`; `{ force_sync: true }` first asks the connector (docs/api.md). */
  retrieve(paymentId: string, params?: PaymentRetrieveParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payments/{payment_id}', {
          params: { path: { payment_id: pathId('paymentId', paymentId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }

  /** `GET /payments`: one page, newest first (`limit`, `starting_after`, `created`, `status`). */
  list(params?: PaymentListParams, options?: RequestOptions): ListPromise<PaymentList['data'][number], PaymentList> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/payments', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (p) => p.payment_id,
    );
  }

  /** `POST /payments/{payment_id}/confirm`: from `RequiresConfirmation`; a decline is a `Failed` payment, not an error. Keyed. */
  confirm(paymentId: string, params: PaymentConfirmParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/confirm', {
          params: { path: { payment_id: pathId('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /**
   * `POST /payments/{payment_id}/authenticate`: the payer's answer to `next_action` (PIN, OTP, …).
   * Not keyed (the API keeps no record of it) and so re-sent only on answers that say nothing was done.
   */
  authenticate(paymentId: string, params: PaymentAuthenticateParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/authenticate', {
          params: { path: { payment_id: pathId('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/capture`: from `RequiresCapture` (`amount_to_capture` ≤ amount). Keyed. */
  capture(paymentId: string, params: PaymentCaptureParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/capture', {
          params: { path: { payment_id: pathId('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/cancel`: to `Cancelled` (a held authorization is voided). Keyed. */
  cancel(paymentId: string, params: PaymentCancelParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/cancel', {
          params: { path: { payment_id: pathId('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/refund`: a refund of a `Succeeded` payment (default: all that is left). Keyed. */
  refund(paymentId: string, params: RefundCreateParams = {}, options?: RequestOptions): Promise<Refund> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/refund', {
          params: { path: { payment_id: pathId('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `GET /payments/{payment_id}/refunds`: one page of the payment's refunds. */
  listRefunds(paymentId: string, params?: RefundListParams, options?: RequestOptions): Promise<RefundList> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payments/{payment_id}/refunds', {
          params: { path: { payment_id: pathId('paymentId', paymentId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }
}
