import { randomUUID, timingSafeEqual } from 'node:crypto';
import { keyedHash } from '../../security/keyed-hash';

/** Header carrying the sandbox's webhook signature: hex HMAC-SHA256 of `sandbox-webhook:` + the raw body. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** What the sandbox posts to `POST /webhooks/sandbox`. */
export interface SandboxWebhookBody {
  id: string;
  type: 'payment.succeeded' | 'payment.failed';
  data: {
    payment_id: string;
    transaction_id: string;
    amount: number;
    capture_method: 'automatic' | 'manual';
    error_code?: string;
    error_message?: string;
  };
}

/** Signs a raw webhook body with the stage's keyed-hash key. */
export async function signSandboxWebhook(rawBody: string): Promise<string> {
  return keyedHash(`sandbox-webhook:${rawBody}`);
}

/** Constant-time check of a sandbox webhook signature. */
export async function verifySandboxWebhook(rawBody: string, signature: string | undefined): Promise<boolean> {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(await signSandboxWebhook(rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * Posts a signed sandbox event to the service's webhook endpoint, as a real
 * processor would.
 * @param baseUrl the API's public base URL
 * @returns the HTTP status the endpoint answered
 */
export async function deliverSandboxWebhook(
  baseUrl: string,
  data: SandboxWebhookBody['data'],
  outcome: 'succeeded' | 'failed',
): Promise<number> {
  const body: SandboxWebhookBody = { id: `evt_${randomUUID().replace(/-/g, '')}`, type: `payment.${outcome}`, data };
  const rawBody = JSON.stringify(body);
  const res = await fetch(`${baseUrl}/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) },
    body: rawBody,
    signal: AbortSignal.timeout(5000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Delay before the sandbox "payer" completes an offline payment (ms; `SANDBOX_WEBHOOK_DELAY_MS`, default 3000). */
export function sandboxWebhookDelayMs(): number {
  return Number(process.env.SANDBOX_WEBHOOK_DELAY_MS ?? 3000);
}

/**
 * After {@link sandboxWebhookDelayMs}, delivers the webhook that completes an
 * offline payment (bank transfer, USSD, mobile money), as if the payer paid.
 * Runs where a process outlives the request (the local stack); inside Lambda a
 * timer would be frozen with the invocation, so there it is skipped and such
 * payments complete by `force_sync` (documented). `SANDBOX_WEBHOOKS=off` turns it off.
 */
export function scheduleSandboxWebhook(baseUrl: string, data: SandboxWebhookBody['data']): void {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.SANDBOX_WEBHOOKS === 'off') return;
  const timer = setTimeout(() => {
    deliverSandboxWebhook(baseUrl, data, 'succeeded').catch(() => undefined);
  }, sandboxWebhookDelayMs());
  timer.unref();
}
