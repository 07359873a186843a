/**
 * Disputes arriving from processors (issue 25). Being written: see the dispute core commit.
 */
import type { Connector, WebhookEvent } from '../../connectors/connector';

/** The account a webhook came in on (a merchant connector account's own URL), or null for the stage's own. */
export interface DisputeWebhookAccount {
  merchantId: string;
  merchantConnectorId: string;
}

/**
 * Records a processor's dispute event.
 * @returns whether it changed anything, and why not
 */
export async function ingestDisputeEvent(
  _connectorName: string,
  _connector: Connector,
  _event: Extract<WebhookEvent, { kind: 'dispute' }>,
  _account: DisputeWebhookAccount | null,
): Promise<{ applied: boolean; reason?: string }> {
  return { applied: false, reason: 'disputes are not recorded yet' };
}
