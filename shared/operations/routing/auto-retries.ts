/**
 * Automatic retries of soft declines (docs/routing.md "Automatic retries"): the merchant's setting
 * (`PUT/GET /routing/auto_retries`, kept on its routing profile) and how many retries one authorization may make.
 */

import { ApiError } from '../../domain/errors';
import type { PaymentMethod } from '../../domain/payment';
import { type AutoRetries, DEFAULT_AUTO_RETRIES } from '../../domain/routing-profile';
import { forgetConnectorConfig, merchantConnectorConfig } from '../../processor-call/connector-config-cache';
import { readConnectorConfig } from '../../storage/connector-accounts-repository';
import { writeRoutingProfile } from '../../storage/routing-repository';
import { ConditionFailedError } from '../../storage/storage-errors';

/**
 * How many other accounts an authorization may try after soft declines: the merchant's `max_auto_retries` when
 * enabled, else 0; always 0 for an asynchronous method (bank transfer, USSD, mobile money: the payer acts at one
 * processor) and for a saved method's charge (its token belongs to one account). Read from this container's
 * configuration cache (no read of its own while warm).
 */
export async function autoRetryBudget(
  merchantId: string,
  payment: { paymentMethod: PaymentMethod; savedMethod: boolean },
): Promise<number> {
  if (payment.paymentMethod !== 'card' || payment.savedMethod) return 0;
  const settings = (await merchantConnectorConfig(merchantId)).profile?.auto_retries ?? DEFAULT_AUTO_RETRIES;
  return settings.enabled ? settings.max_auto_retries : 0;
}

/** `GET /routing/auto_retries`: the merchant's setting (off, 1 retry, when never set). */
export async function getAutoRetries(merchantId: string): Promise<AutoRetries> {
  const profile = (await readConnectorConfig(merchantId)).profile;
  return { ...(profile?.auto_retries ?? DEFAULT_AUTO_RETRIES) };
}

/**
 * `PUT /routing/auto_retries`: replaces the setting (a conditional write on the routing profile's version).
 * Containers pick it up within `CONNECTOR_CONFIG_CACHE_MS` (5 s).
 * @throws ApiError 409 `routing_changed` when the routing profile changed meanwhile (retry)
 */
export async function setAutoRetries(merchantId: string, settings: AutoRetries): Promise<AutoRetries> {
  const config = await readConnectorConfig(merchantId);
  try {
    const profile = await writeRoutingProfile(merchantId, config.profile, { auto_retries: { ...settings } }, []);
    forgetConnectorConfig(merchantId);
    return { ...(profile.auto_retries ?? DEFAULT_AUTO_RETRIES) };
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      throw new ApiError(
        409,
        'invalid_request_error',
        'routing_changed',
        'Your routing changed while this was applied; retry.',
      ).asTransient();
    }
    throw err;
  }
}
