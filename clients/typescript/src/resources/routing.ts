/** `switchyard.routing`: where the merchant's payments go (docs/api.md, Routing). */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type {
  AutoRetries,
  AutoRetriesParams,
  DefaultFallback,
  DefaultFallbackParams,
  RoutingActivation,
  RoutingAlgorithm,
  RoutingAlgorithmCreateParams,
  RoutingAlgorithmList,
  RoutingAlgorithmListParams,
  SuccessRates,
} from '../types.js';
import { pathId } from './path-id.js';

/**
 * `/routing`: routing algorithms over the merchant's connector accounts (`single`, `priority`,
 * `volume_split`, `advanced`), the active one, and the default fallback list.
 */
export class Routing {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /**
   * `POST /routing` → the algorithm, not active yet (activate it with {@link Routing.activate}). Keyed.
   * Checked against the merchant's accounts: a problem throws `InvalidRequestError` whose `param` names the
   * rule and field.
   */
  create(params: RoutingAlgorithmCreateParams, options?: RequestOptions): Promise<RoutingAlgorithm> {
    return this.client.call((init) => this.client.api.POST('/routing', { body: params, ...init }), options);
  }

  /** `GET /routing/{routing_algorithm_id}` (with `is_active`). */
  retrieve(routingAlgorithmId: string, options?: RequestOptions): Promise<RoutingAlgorithm> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/routing/{routing_algorithm_id}', {
          params: { path: { routing_algorithm_id: pathId('routingAlgorithmId', routingAlgorithmId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /routing`: one page of algorithms, newest first. */
  list(params?: RoutingAlgorithmListParams, options?: RequestOptions): Promise<RoutingAlgorithmList> {
    return this.client.call(
      (init) => this.client.api.GET('/routing', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /**
   * `POST /routing/{routing_algorithm_id}/activate` → the algorithm, `is_active: true`; it routes the
   * merchant's payments from now on (within the API's configuration cache period, 5 s). The API keeps no
   * Idempotency-Key for this route, so none is sent (activating twice is harmless).
   */
  activate(routingAlgorithmId: string, options?: RequestOptions): Promise<RoutingAlgorithm> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/routing/{routing_algorithm_id}/activate', {
          params: { path: { routing_algorithm_id: pathId('routingAlgorithmId', routingAlgorithmId) } },
          ...init,
        }),
      options,
    );
  }

  /**
   * `POST /routing/deactivate` → `{ active: false, … }`: the default fallback list routes again. No
   * Idempotency-Key is sent (the API keeps none); a second call throws `InvalidRequestError` `routing_not_active`.
   */
  deactivate(options?: RequestOptions): Promise<RoutingActivation> {
    return this.client.call((init) => this.client.api.POST('/routing/deactivate', { ...init }), options);
  }

  /** `GET /routing/active`: which algorithm routes the merchant's payments now (`active: false` when none). */
  active(options?: RequestOptions): Promise<RoutingActivation> {
    return this.client.call((init) => this.client.api.GET('/routing/active', { ...init }), options);
  }

  /** `GET /routing/default`: the ordered fallback list (the accounts in connection order when none was set). */
  getDefault(options?: RequestOptions): Promise<DefaultFallback> {
    return this.client.call((init) => this.client.api.GET('/routing/default', { ...init }), options);
  }

  /** `PUT /routing/default`: replaces the ordered fallback list, `{ default_fallback: [{ merchant_connector_id }, …] }`. */
  setDefault(params: DefaultFallbackParams, options?: RequestOptions): Promise<DefaultFallback> {
    return this.client.call((init) => this.client.api.PUT('/routing/default', { body: params, ...init }), options);
  }

  /**
   * `GET /routing/success_rates`: per connector account and segment, the recent authorization rate success-rate
   * routing scores it on (attempts, successes, rate, last update).
   */
  successRates(options?: RequestOptions): Promise<SuccessRates> {
    return this.client.call((init) => this.client.api.GET('/routing/success_rates', { ...init }), options);
  }

  /** `GET /routing/auto_retries`: whether soft declines are retried on another account (off, 1, when never set). */
  getAutoRetries(options?: RequestOptions): Promise<AutoRetries> {
    return this.client.call((init) => this.client.api.GET('/routing/auto_retries', { ...init }), options);
  }

  /** `PUT /routing/auto_retries`: `{ enabled, max_auto_retries? }` (0–3) turns automatic retries of soft declines on or off. */
  setAutoRetries(params: AutoRetriesParams, options?: RequestOptions): Promise<AutoRetries> {
    return this.client.call((init) => this.client.api.PUT('/routing/auto_retries', { body: params, ...init }), options);
  }
}
