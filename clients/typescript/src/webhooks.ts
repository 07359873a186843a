/**
 * Verifying webhook deliveries: the Standard Webhooks signature scheme
 * (https://www.standardwebhooks.com, the spec at github.com/standard-webhooks/standard-webhooks),
 * checked by the `standardwebhooks` package, whose errors are mapped to a typed
 * {@link WebhookVerificationError}.
 */
import { WebhookVerificationError as StandardWebhookVerificationError, Webhook } from 'standardwebhooks';
import type { Event } from './types.js';

/** Why a delivery was refused by {@link verifyWebhook}. */
export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  | 'invalid_payload';

/**
 * A webhook delivery that must not be trusted: `code` says why. Answer it with a 4xx (Switchyard
 * will retry it on its schedule) and do not act on its body.
 */
export class WebhookVerificationError extends Error {
  /** @param code why the delivery was refused */
  constructor(
    readonly code: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Request headers as a receiver has them: the fetch `Headers`, Node's `IncomingHttpHeaders`
 * (`req.headers`), or a plain record. Names are matched case-insensitively.
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a webhook delivery and returns its event (Standard Webhooks, standardwebhooks 1.1.1):
 * the HMAC-SHA256 over `webhook-id.webhook-timestamp.body` with the endpoint's secret must match
 * one of the space-separated `v1,…` signatures of `webhook-signature` (two during a rotation's
 * 24 h), and `webhook-timestamp` must be within 5 minutes of now.
 * @param payload the body exactly as received — the raw bytes (a Buffer/Uint8Array, decoded as
 *   UTF-8) or their text — never a re-serialised object: any other spelling of the same JSON fails
 * @param headers the request headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * @param secret the endpoint's `whsec_…` secret (from create or `rotateSecret`), or several: the
 *   delivery verifies when any of them signed it (a receiver holding the old and the new secret)
 * @returns the event, as `GET /events/{event_id}` answers it
 * @throws WebhookVerificationError when the headers are missing, the timestamp is unreadable or off
 *   by more than 5 minutes, no signature matches, or the payload is not UTF-8 JSON
 * @throws TypeError when `secret` is empty or `payload` is not a string or bytes (a parsed object)
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[]): Event {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '' || s === 'whsec_')) {
    throw new TypeError('verifyWebhook: secret must be the endpoint’s whsec_… secret.');
  }
  let text: string;
  if (typeof payload === 'string') text = payload;
  else if (payload instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload);
    } catch {
      throw new WebhookVerificationError('invalid_payload', 'The webhook body is not UTF-8.');
    }
  } else throw new TypeError('verifyWebhook: pass the raw request body (string or bytes), not a parsed object.');
  const flat = flattenHeaders(headers);
  let failure: unknown;
  for (const s of secrets) {
    try {
      new Webhook(s).verify(text, flat, { jsonParse: false });
      failure = undefined;
      break;
    } catch (err) {
      failure = err;
      // Only a signature mismatch can go another way with another secret (headers and timestamp are the same for all).
      if (!(err instanceof StandardWebhookVerificationError) || err.message !== 'No matching signature found') break;
    }
  }
  if (failure !== undefined) throw toVerificationError(failure);
  try {
    return JSON.parse(text) as Event;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is signed but is not JSON.');
  }
}

/** Lower-cased single-valued headers for the standardwebhooks package (repeated values joined by a space). */
function flattenHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string | string[] | undefined][] =
    typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function'
      ? [...(headers as Headers).entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/** Maps the standardwebhooks package's error (identified by its message) to a {@link WebhookVerificationError}. */
function toVerificationError(err: unknown): Error {
  if (!(err instanceof StandardWebhookVerificationError)) return err instanceof Error ? err : new Error(String(err));
  const byMessage: Record<string, [WebhookVerificationFailure, string]> = {
    'Missing required headers': ['missing_headers', 'The webhook-id, webhook-timestamp and webhook-signature headers are required.'],
    'Invalid Signature Headers': ['invalid_timestamp', 'The webhook-timestamp header is not a Unix time in seconds.'],
    'Message timestamp too old': ['timestamp_too_old', 'The webhook-timestamp is more than 5 minutes old (a replay, or a clock off).'],
    'Message timestamp too new': ['timestamp_too_new', 'The webhook-timestamp is more than 5 minutes in the future (a clock off).'],
    'No matching signature found': ['no_matching_signature', 'No webhook-signature matches the body with this secret.'],
  };
  const [code, message] = byMessage[err.message] ?? ['no_matching_signature', err.message];
  return new WebhookVerificationError(code, message);
}
