import { CONNECTOR_CAPABILITIES } from '../../connectors/capabilities';
import { boundedListPage } from '../../domain/bounded-list-page';
import type { ConnectorName } from '../../domain/connector-account';
import { ApiError, invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { RoutingAlgorithm } from '../../domain/routing-algorithm';
import type { RoutingActivation, RoutingProfile } from '../../domain/routing-profile';
import { forgetConnectorConfig } from '../../processor-call/connector-config-cache';
import type { RoutingAlgorithmView } from '../../schemas/routing-algorithm-resource-schema';
import type { CreateRoutingAlgorithmBody } from '../../schemas/routing-schemas';
import { type ConnectorConfig, readConnectorConfig } from '../../storage/connector-accounts-repository';
import { LimitReachedError } from '../../storage/limit-counters';
import {
  getRoutingAlgorithm,
  listRoutingAlgorithms,
  type StoredRoutingAlgorithm,
  createRoutingAlgorithm as storeAlgorithm,
  writeRoutingProfile,
} from '../../storage/routing-repository';
import { ConditionFailedError } from '../../storage/storage-errors';
import { unknownCursorError } from '../list-cursor';
import { algorithmAccountIds } from './algorithm-accounts';
import { type CapabilitiesOf, validateAlgorithm } from './validate-algorithm';

/** Most routing algorithms a merchant may keep: 100. */
export const MAX_ROUTING_ALGORITHMS = 100;

/** What each connector itself can take, for validation (shared/connectors/capabilities.ts). */
const capabilitiesOf: CapabilitiesOf = (name: ConnectorName) => {
  const methods = CONNECTOR_CAPABILITIES[name].payment_methods;
  return {
    payment_methods: methods.map((m) => m.payment_method),
    currencies: [...new Set(methods.flatMap((m) => m.currencies))],
  };
};

/**
 * Refuses an algorithm that cannot be used with the merchant's accounts now.
 * @throws ApiError 400 `parameter_invalid` naming the first problem's field (e.g.
 *   `algorithm.data.rules.2.connector_selection.data.0.merchant_connector_id`) and what to fix
 */
function assertValid(algorithm: RoutingAlgorithm, config: ConnectorConfig): void {
  const problems = validateAlgorithm(algorithm, config.accounts, capabilitiesOf);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (${problems.length - 1} more problem${problems.length > 2 ? 's' : ''} after this one)` : '';
    throw invalidRequest('parameter_invalid', `${first.message}${more}`, first.param);
  }
}

/** An algorithm as the API shows it. */
function view(a: StoredRoutingAlgorithm, profile: RoutingProfile | null): RoutingAlgorithmView {
  return {
    routing_algorithm_id: a.routing_algorithm_id,
    name: a.name,
    description: a.description,
    algorithm: a.algorithm as RoutingAlgorithmView['algorithm'],
    is_active: profile?.active_algorithm?.routing_algorithm_id === a.routing_algorithm_id,
    created_at: a.created_at,
    modified_at: a.modified_at,
  };
}

/**
 * Creates a routing algorithm (not active until activated), after checking it against the merchant's
 * connector accounts: every account it names is one of the merchant's, and can serve what the rule can
 * send it.
 * @throws ApiError 400 `parameter_invalid` (param the field at fault), 400 `routing_algorithm_limit`
 */
export async function createRoutingAlgorithm(merchantId: string, body: CreateRoutingAlgorithmBody): Promise<RoutingAlgorithmView> {
  const config = await readConnectorConfig(merchantId);
  assertValid(body.algorithm as RoutingAlgorithm, config);
  const now = new Date().toISOString();
  const algorithm: StoredRoutingAlgorithm = {
    routing_algorithm_id: newId('routingAlgorithm'),
    name: body.name,
    description: body.description ?? null,
    algorithm: body.algorithm,
    created_at: now,
    modified_at: now,
  };
  try {
    // The cap is held by a counter changed in the create's own transaction (exact under concurrency).
    await storeAlgorithm(merchantId, algorithm, MAX_ROUTING_ALGORITHMS);
  } catch (err) {
    if (err instanceof LimitReachedError) {
      throw invalidRequest(
        'routing_algorithm_limit',
        `You already have ${MAX_ROUTING_ALGORITHMS} routing algorithms; an algorithm cannot be deleted, so activate one you have.`,
      );
    }
    throw err;
  }
  return view(algorithm, config.profile);
}

/** @throws ApiError 404 when the merchant has no such algorithm */
async function loadAlgorithm(merchantId: string, id: string): Promise<StoredRoutingAlgorithm> {
  const found = isIdOf('routingAlgorithm', id) ? await getRoutingAlgorithm(merchantId, id) : undefined;
  if (!found) throw resourceNotFound('routing algorithm', 'routing_algorithm_id');
  return found;
}

/** One algorithm, with `is_active`. @throws ApiError 404 */
export async function getRoutingAlgorithmView(merchantId: string, id: string): Promise<RoutingAlgorithmView> {
  const [algorithm, config] = await Promise.all([loadAlgorithm(merchantId, id), readConnectorConfig(merchantId)]);
  return view(algorithm, config.profile);
}

/**
 * The merchant's algorithms, newest first, with the usual envelope (`limit`, `offset`, `starting_after`, `created[…]`).
 * @throws ApiError 400 `resource_missing` (param `starting_after`)
 */
export async function listRoutingAlgorithmViews(merchantId: string, query: ListQuery): Promise<ListPage<RoutingAlgorithmView>> {
  const [all, config] = await Promise.all([listRoutingAlgorithms(merchantId), readConnectorConfig(merchantId)]);
  const page = boundedListPage(
    all,
    query,
    (a) => a.routing_algorithm_id,
    (a) => a.created_at,
    () => unknownCursorError(query, { noun: 'routing algorithm', idPhrase: 'a routing algorithm id' }),
  );
  return { data: page.data.map((a) => view(a, config.profile)), has_more: page.has_more };
}

/** The 409 of a routing change that lost a race with another change. */
const routingChanged = () =>
  new ApiError(
    409,
    'invalid_request_error',
    'routing_changed',
    'Your routing or connector accounts changed while this was applied; retry.',
  ).asTransient();

/** The activation data of a profile (the event's `data` and `GET /routing/active`'s answer). */
function activationOf(profile: RoutingProfile | null): RoutingActivation {
  const active = profile?.active_algorithm ?? null;
  return {
    active: active !== null,
    routing_algorithm_id: active?.routing_algorithm_id ?? null,
    name: active?.name ?? null,
    algorithm_type: (active?.algorithm as { type?: RoutingActivation['algorithm_type'] } | undefined)?.type ?? null,
    activated_at: profile ? profile.updated_at : null,
  };
}

/**
 * Activates an algorithm for the merchant's payments: checked again against its accounts now, then
 * copied into the routing profile (one transaction with a check that each account it names is still
 * live, and the `routing.activated` event). Containers pick it up within the configuration cache period.
 * @returns the algorithm, `is_active: true`
 * @throws ApiError 404; 400 `parameter_invalid` when it no longer fits the accounts; 409 `routing_changed`
 */
export async function activateRoutingAlgorithm(merchantId: string, id: string): Promise<RoutingAlgorithmView> {
  const algorithm = await loadAlgorithm(merchantId, id);
  const config = await readConnectorConfig(merchantId);
  assertValid(algorithm.algorithm as RoutingAlgorithm, config);
  const activatedAt = new Date().toISOString();
  let after: RoutingProfile;
  try {
    after = await writeRoutingProfile(
      merchantId,
      config.profile,
      {
        active_algorithm: {
          routing_algorithm_id: algorithm.routing_algorithm_id,
          name: algorithm.name,
          algorithm: algorithm.algorithm,
          activated_at: activatedAt,
        },
      },
      algorithmAccountIds(algorithm.algorithm),
      {
        type: 'routing.activated',
        data: activationOf({
          active_algorithm: {
            routing_algorithm_id: algorithm.routing_algorithm_id,
            name: algorithm.name,
            algorithm: algorithm.algorithm,
            activated_at: activatedAt,
          },
          default_fallback: null,
          version: 0,
          updated_at: activatedAt,
        }),
      },
    );
  } catch (err) {
    if (err instanceof ConditionFailedError) throw routingChanged();
    throw err;
  }
  forgetConnectorConfig(merchantId);
  return view(algorithm, after);
}

/**
 * Deactivates the active algorithm: payments follow the default fallback list again. Emits
 * `routing.activated` with `active: false`.
 * @throws ApiError 400 `routing_not_active` when none is active; 409 `routing_changed`
 */
export async function deactivateRouting(merchantId: string): Promise<RoutingActivation> {
  const config = await readConnectorConfig(merchantId);
  if (!config.profile?.active_algorithm) {
    throw invalidRequest('routing_not_active', 'No routing algorithm is active: nothing to deactivate.');
  }
  const now = new Date().toISOString();
  const data = activationOf({ active_algorithm: null, default_fallback: null, version: 0, updated_at: now });
  try {
    const after = await writeRoutingProfile(merchantId, config.profile, { active_algorithm: null }, [], {
      type: 'routing.activated',
      data,
    });
    forgetConnectorConfig(merchantId);
    return activationOf(after);
  } catch (err) {
    if (err instanceof ConditionFailedError) throw routingChanged();
    throw err;
  }
}

/** Which algorithm is active now (`active: false` and nulls when none). */
export async function activeRouting(merchantId: string): Promise<RoutingActivation> {
  return activationOf((await readConnectorConfig(merchantId)).profile);
}

/** The default fallback list as the API shows it: the merchant's list (accounts since deleted left out), else its accounts in creation order. */
function fallbackView(config: ConnectorConfig) {
  const byId = new Map(config.accounts.map((a) => [a.merchant_connector_id, a]));
  const ids = config.profile?.default_fallback ?? config.accounts.map((a) => a.merchant_connector_id);
  return {
    default_fallback: ids.flatMap((id) => {
      const account = byId.get(id);
      return account ? [{ merchant_connector_id: id, connector_name: account.connector_name }] : [];
    }),
    is_custom: Boolean(config.profile?.default_fallback),
  };
}

/** `GET /routing/default`. */
export async function getDefaultFallback(merchantId: string) {
  return fallbackView(await readConnectorConfig(merchantId));
}

/**
 * Sets the merchant's default fallback list (every account must be one of its own, live).
 * @throws ApiError 400 `resource_missing` naming the entry; 409 `routing_changed`
 */
export async function setDefaultFallback(merchantId: string, ids: string[]) {
  const config = await readConnectorConfig(merchantId);
  const known = new Set(config.accounts.map((a) => a.merchant_connector_id));
  ids.forEach((id, i) => {
    if (!known.has(id)) {
      throw invalidRequest(
        'resource_missing',
        'No such connector account: list only ids of your own connector accounts.',
        `default_fallback.${i}.merchant_connector_id`,
      );
    }
  });
  try {
    const profile = await writeRoutingProfile(merchantId, config.profile, { default_fallback: ids }, ids);
    forgetConnectorConfig(merchantId);
    return fallbackView({ ...config, profile });
  } catch (err) {
    if (err instanceof ConditionFailedError) throw routingChanged();
    throw err;
  }
}
