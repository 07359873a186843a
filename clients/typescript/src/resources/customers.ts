/** `switchyard.customers`: the merchant's customers. */
import type { Switchyard } from '../client.js';
import { ListPromise } from '../list-promise.js';
import type { RequestOptions } from '../transport.js';
import type { Customer, CustomerCreateParams, CustomerList, CustomerListParams, CustomerUpdateParams, DeletedCustomer } from '../types.js';
import { pathId } from './path-id.js';

/** `/customers`. */
export class Customers {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /customers` (every field optional). Keyed. */
  create(params: CustomerCreateParams = {}, options?: RequestOptions): Promise<Customer> {
    return this.client.call((init) => this.client.api.POST('/customers', { body: params, ...init }), options);
  }

  /** `GET /customers/{customer_id}`. */
  retrieve(customerId: string, options?: RequestOptions): Promise<Customer> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/customers/{customer_id}', { params: { path: { customer_id: pathId('customerId', customerId) } }, ...init }),
      options,
    );
  }

  /** `PUT /customers/{customer_id}`: sets the fields given (`metadata` replaces the whole map). */
  update(customerId: string, params: CustomerUpdateParams, options?: RequestOptions): Promise<Customer> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/customers/{customer_id}', {
          params: { path: { customer_id: pathId('customerId', customerId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `DELETE /customers/{customer_id}` → `{ customer_id, deleted: true }` (a retried delete answers the same). */
  delete(customerId: string, options?: RequestOptions): Promise<DeletedCustomer> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/customers/{customer_id}', {
          params: { path: { customer_id: pathId('customerId', customerId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /customers`: one page (`email` matches exactly, case-insensitively). */
  list(params?: CustomerListParams, options?: RequestOptions): ListPromise<CustomerList['data'][number], CustomerList> {
    return new ListPromise(
      (startingAfter) =>
        this.client.call(
          (init) =>
            this.client.api.GET('/customers', {
              params: { query: { ...(params ?? {}), ...(startingAfter ? { starting_after: startingAfter } : {}) } },
              ...init,
            }),
          options,
        ),
      (c) => c.customer_id,
    );
  }
}
