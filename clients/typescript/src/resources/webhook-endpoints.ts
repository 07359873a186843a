/** `switchyard.webhookEndpoints`: where events are delivered, and their signing secrets. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type {
  DeletedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointList,
  WebhookEndpointListParams,
  WebhookEndpointRotated,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from '../types.js';
import { pathId } from './path-id.js';

/** `/webhook_endpoints`: where events are delivered, signed with the endpoint's secret. */
export class WebhookEndpoints {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /webhook_endpoints` → the endpoint with its `secret` (`whsec_…`), shown only now: store it. Keyed. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.client.call((init) => this.client.api.POST('/webhook_endpoints', { body: params, ...init }), options);
  }

  /** `GET /webhook_endpoints/{webhook_endpoint_id}` (without its secret). */
  retrieve(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: pathId('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }

  /** `PUT /webhook_endpoints/{webhook_endpoint_id}`: sets `url`, `enabled_events`, `description`, `status`. */
  update(endpointId: string, params: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: pathId('endpointId', endpointId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /**
   * `DELETE /webhook_endpoints/{webhook_endpoint_id}`. A retry after a lost answer may meet the
   * endpoint already deleted and throw 404 `resource_missing` (check `error.attempts > 1`).
   */
  delete(endpointId: string, options?: RequestOptions): Promise<DeletedWebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: pathId('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /webhook_endpoints`: one page, newest first. */
  list(params?: WebhookEndpointListParams, options?: RequestOptions): Promise<WebhookEndpointList> {
    return this.client.call(
      (init) => this.client.api.GET('/webhook_endpoints', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /**
   * `POST /webhook_endpoints/{webhook_endpoint_id}/rotate_secret` → the endpoint with a new `secret`;
   * the old one keeps signing beside it for 24 h. Keyed (a retry replays the same new secret).
   */
  rotateSecret(endpointId: string, options?: RequestOptions): Promise<WebhookEndpointRotated> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/webhook_endpoints/{webhook_endpoint_id}/rotate_secret', {
          params: { path: { webhook_endpoint_id: pathId('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }
}
