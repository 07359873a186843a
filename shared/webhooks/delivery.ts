import { isIP } from 'node:net';
/**
 * Sending one webhook attempt, the Standard Webhooks way (https://www.standardwebhooks.com,
 * spec/standard-webhooks.md: "Webhook headers", "Signature scheme", "Verifying webhooks").
 *
 * - Headers: `webhook-id` = the event id (the same on every retry, so receivers dedupe on
 *   it), `webhook-timestamp` = Unix seconds of this attempt, `webhook-signature` = one
 *   `v1,<base64 HMAC-SHA256>` per live secret, space-separated (current and, during a
 *   rotation's overlap, previous), `content-type: application/json`.
 * - Body: the event's stored JSON text, byte for byte (never re-serialised), which is what
 *   is signed.
 * - Signing: the `standardwebhooks` package, `new Webhook(secret).sign(msgId, timestamp, payload)`.
 * - The URL is checked again against the stage's rules before sending (SSRF guard); redirects
 *   are not followed (a 3xx is a failure), the attempt is limited to 15 s.
 */
import { Webhook } from 'standardwebhooks';
import { Agent, fetch as undiciFetch } from 'undici';
import type { DeliveryAttempt } from '../storage/deliveries-repository';
import { deliveryTimeoutMs, MAX_RETRY_AFTER_SECONDS } from './delivery-settings';
import { checkEndpointUrl, type UrlRuleOptions, urlRulesForStage } from './endpoint-url-rules';

/** The result of {@link sendWebhook}: the attempt and how it ended. */
export interface SendResult {
  attempt: DeliveryAttempt;
  /** `delivered`: 2xx; `gone`: 410 (the endpoint asks to be disabled); `failed`: anything else. */
  outcome: 'delivered' | 'gone' | 'failed';
  /** The receiver's `Retry-After`, in seconds, bounded by {@link MAX_RETRY_AFTER_SECONDS}; undefined when absent or malformed. */
  retryAfterSeconds?: number;
}

/**
 * The Standard Webhooks headers of one attempt.
 * @param msgId the event id (`webhook-id`)
 * @param body the exact payload text
 * @param secrets `whsec_…` secrets, newest first (from `signingSecrets()`); at least one
 * @param at the attempt's time (`webhook-timestamp`, Unix seconds)
 * @returns the headers to send
 */
export function signedHeaders(msgId: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  if (secrets.length === 0) throw new Error('A webhook needs at least one signing secret.');
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchyard-Webhooks/1.0',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).
 * @param value the header value
 * @param nowMs the current time, Unix epoch milliseconds
 * @returns seconds, between 0 and {@link MAX_RETRY_AFTER_SECONDS}; undefined when absent or malformed
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (!Number.isFinite(at)) return undefined;
    seconds = Math.ceil((at - nowMs) / 1000);
  }
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, seconds));
}

/** A network error as a short text without the URL: the timeout, or the system error code. */
function describeError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timeout: no answer within ${timeoutMs} ms`;
  const code = e?.cause?.code ?? e?.cause?.name ?? e?.name ?? 'Error';
  return `network error: ${code}`;
}

/** What {@link sendWebhook} needs. */
export interface WebhookMessage {
  /** The endpoint's URL (checked here against the stage's URL rules before sending). */
  url: string;
  /** The event id (`webhook-id`). */
  eventId: string;
  /** The event's stored JSON text, sent and signed exactly. */
  body: string;
  /** Live `whsec_…` secrets, newest first. */
  secrets: readonly string[];
}

/**
 * Makes one delivery attempt: checks the URL, signs, POSTs with a timeout
 * (`WEBHOOK_DELIVERY_TIMEOUT_MS`, default 15 s), does not follow redirects, and reads no
 * more of the answer than its status and `Retry-After`. Never throws: every failure is an
 * attempt with an `error`.
 * @param options.rules the URL rules (default {@link urlRulesForStage})
 * @returns the attempt and its outcome
 */
export async function sendWebhook(message: WebhookMessage, options: { rules?: UrlRuleOptions } = {}): Promise<SendResult> {
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): SendResult => ({
    attempt: { attempted_at: startedAt.toISOString(), http_status: null, error, duration_ms: elapsed() },
    outcome: 'failed',
  });
  const verdict = await checkEndpointUrl(message.url, options.rules ?? urlRulesForStage());
  if (!verdict.allowed) return failed(`url refused: ${verdict.reason}`);
  const timeoutMs = deliveryTimeoutMs();
  let headers: Record<string, string>;
  try {
    headers = signedHeaders(message.eventId, message.body, message.secrets, startedAt);
  } catch {
    return failed('signing failed');
  }
  // Connect only to the addresses the URL rules just checked: a name re-pointed between the
  // check and the connection (DNS rebinding) cannot reach a private address. Host header and
  // TLS SNI stay the URL's name.
  const dispatcher = pinnedAgent(verdict.addresses);
  try {
    const res = await undiciFetch(message.url, {
      method: 'POST',
      headers,
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher,
    });
    await res.body?.cancel().catch(() => undefined);
    const attempt: DeliveryAttempt = {
      attempted_at: startedAt.toISOString(),
      http_status: res.status,
      error: null,
      duration_ms: elapsed(),
    };
    if (res.status >= 200 && res.status < 300) return { attempt, outcome: 'delivered' };
    const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'), Date.now());
    return { attempt, outcome: res.status === 410 ? 'gone' : 'failed', ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
  } catch (err) {
    return failed(describeError(err, timeoutMs));
  } finally {
    dispatcher.destroy().catch(() => undefined);
  }
}

/**
 * An undici `Agent` whose name resolution answers only `addresses` (the ones the URL rules
 * verified), in the shapes Node's `lookup` contract has (`all: true` → a list; otherwise one
 * address and its family). A literal-IP URL never calls it.
 */
function pinnedAgent(addresses: string[]): Agent {
  const list = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  return new Agent({
    connect: {
      lookup: (_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (list.length === 0) return callback(Object.assign(new Error('no verified address'), { code: 'ENOTFOUND' }));
        if (options?.all) return callback(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      },
    } as never,
  });
}
