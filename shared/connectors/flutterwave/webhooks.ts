/**
 * Flutterwave's webhooks: the `verif-hash` check, the charge a delivery reports (v3 and the legacy flat
 * format), and the event ids deliveries are deduplicated by.
 *
 * Sources (the tags cited on each export):
 * - [WH] Webhooks: https://developer.flutterwave.com/docs/webhooks (`verif-hash`, `charge.completed`)
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FlutterwaveWebhookPayload } from './wire-types';

/** Header carrying the dashboard's secret hash on every webhook [WH]. */
export const FLUTTERWAVE_WEBHOOK_HEADER = 'verif-hash';

/**
 * Checks the `verif-hash` header against the secret hash configured in the dashboard [WH]:
 * Flutterwave sends the hash itself (no HMAC), so it is an equality check — done in constant
 * time over SHA-256 digests of both values (equal length, no early exit).
 * @returns undefined when it matches, else why not (`missing` / `mismatch`)
 */
export function webhookHashProblem(header: string | undefined, secretHash: string): 'missing' | 'mismatch' | undefined {
  if (header === undefined || header === '') return 'missing';
  const got = createHash('sha256').update(header, 'utf8').digest();
  const want = createHash('sha256').update(secretHash, 'utf8').digest();
  return timingSafeEqual(got, want) ? undefined : 'mismatch';
}

/** The charge a webhook reports, in one shape for the v3 and the legacy flat format. */
export interface FlutterwaveWebhookCharge {
  /** `charge.completed`, or the legacy `event.type` (`CARD_TRANSACTION`, …). */
  event: string;
  id: number;
  txRef: string;
  status: string;
  chargeType?: string;
}

/**
 * Reads a webhook body [WH]: the v3 envelope `{ event: "charge.completed", data }` or the
 * legacy flat body (`id`, `txRef`, `status`, `"event.type"`).
 * @returns the charge it reports, or undefined for any other event (transfers, subscriptions, …)
 */
export function webhookChargeOf(payload: FlutterwaveWebhookPayload): FlutterwaveWebhookCharge | undefined {
  if (typeof payload.event === 'string') {
    const d = payload.data;
    if (
      payload.event !== 'charge.completed' ||
      !d ||
      typeof d.id !== 'number' ||
      typeof d.tx_ref !== 'string' ||
      typeof d.status !== 'string'
    )
      return undefined;
    return { event: payload.event, id: d.id, txRef: d.tx_ref, status: d.status, ...(d.charge_type ? { chargeType: d.charge_type } : {}) };
  }
  const legacyType = payload['event.type'];
  if (
    typeof legacyType === 'string' &&
    /_TRANSACTION$/i.test(legacyType) &&
    typeof payload.id === 'number' &&
    typeof payload.txRef === 'string' &&
    typeof payload.status === 'string'
  ) {
    return {
      event: legacyType,
      id: payload.id,
      txRef: payload.txRef,
      status: payload.status,
      ...(payload.charge_type ? { chargeType: payload.charge_type } : {}),
    };
  }
  return undefined;
}

/**
 * A webhook's event id, stable across redeliveries: Flutterwave sends no event id, so it is
 * built from what one delivery of one outcome contains — event, transaction id and status.
 */
export function webhookEventId(charge: FlutterwaveWebhookCharge): string {
  return `flw_${charge.event}_${charge.id}_${charge.status}`.toLowerCase();
}

/** Event id of a webhook this adapter ignores: a digest of the body (stable across redeliveries of the same body). */
export function ignoredEventId(rawBody: string): string {
  return `flw_${createHash('sha256').update(rawBody, 'utf8').digest('hex').slice(0, 32)}`;
}
