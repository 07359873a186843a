/**
 * The merchant's payout priority list (`PUT/GET /routing/payouts`), kept on its routing profile beside the default
 * fallback list: the accounts payouts try first, in order (payout-routing.ts). Set like payment routing's default
 * list (`PUT /routing/default`: one conditional write on the profile's version, with a check that each named account
 * is live), and modelled on Hyperswitch's payout routing, which has its own routing configuration and default list for
 * payouts beside the payments' (juspay/hyperswitch `crates/router/src/routes/app.rs`, the `/routing/payouts` scope:
 * `/routing/payouts/default` "Retrieve/Update default config for payouts").
 */
import { ApiError, invalidRequest } from '../../domain/errors';
import { forgetConnectorConfig } from '../../processor-call/connector-config-cache';
import { type ConnectorConfig, readConnectorConfig } from '../../storage/connector-accounts-repository';
import { writeRoutingProfile } from '../../storage/routing-repository';
import { ConditionFailedError } from '../../storage/storage-errors';

/** `GET|PUT /routing/payouts`'s answer. */
export interface PayoutPriorityView {
  priority: { merchant_connector_id: string; connector_name: string }[];
  is_custom: boolean;
}

/** The list as the API shows it: accounts since deleted left out. */
function priorityView(config: ConnectorConfig): PayoutPriorityView {
  const byId = new Map(config.accounts.map((a) => [a.merchant_connector_id, a]));
  const ids = config.profile?.payout_priority ?? [];
  return {
    priority: ids.flatMap((id) => {
      const account = byId.get(id);
      return account ? [{ merchant_connector_id: id, connector_name: account.connector_name }] : [];
    }),
    is_custom: Boolean(config.profile?.payout_priority),
  };
}

/** `GET /routing/payouts`: the merchant's payout priority list (empty, `is_custom: false`, when never set). */
export async function getPayoutPriority(merchantId: string): Promise<PayoutPriorityView> {
  return priorityView(await readConnectorConfig(merchantId));
}

/**
 * `PUT /routing/payouts`: replaces the list (`[]` clears it: payouts follow the default fallback list again). Every id
 * must be one of the merchant's own live accounts; an account whose connector cannot send a payout is accepted here
 * and passed over when routing (it may gain payouts; the list is per merchant, not per currency). Containers pick it up
 * within `CONNECTOR_CONFIG_CACHE_MS` (5 s).
 * @throws ApiError 400 `resource_missing` naming the entry (`priority.<i>.merchant_connector_id`); 409 `routing_changed`
 *   when the routing profile or a named account changed meanwhile (retry)
 */
export async function setPayoutPriority(merchantId: string, ids: string[]): Promise<PayoutPriorityView> {
  const config = await readConnectorConfig(merchantId);
  const known = new Set(config.accounts.map((a) => a.merchant_connector_id));
  ids.forEach((id, i) => {
    if (!known.has(id)) {
      throw invalidRequest(
        'resource_missing',
        'No such connector account: list only ids of your own connector accounts.',
        `priority.${i}.merchant_connector_id`,
      );
    }
  });
  try {
    const profile = await writeRoutingProfile(merchantId, config.profile, { payout_priority: ids.length > 0 ? ids : null }, ids);
    forgetConnectorConfig(merchantId);
    return priorityView({ ...config, profile });
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      throw new ApiError(
        409,
        'invalid_request_error',
        'routing_changed',
        'Your routing or connector accounts changed while this was applied; retry.',
      ).asTransient();
    }
    throw err;
  }
}
