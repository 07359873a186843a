import { randomUUID, timingSafeEqual } from 'node:crypto';
import { ExponentialBackoff, handleAll, retry } from 'cockatiel';
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
 * Redeliveries after a first delivery that was not acknowledged: 8, the schedule doubling from 250 ms with
 * jitter up to 8 000 ms apart (about 40 s in all). Processors redeliver an event the receiver did not
 * answer 2xx (Stripe: "Stripe attempts to deliver a given event to your webhook endpoint for up to 3 days
 * with an exponential back off", https://docs.stripe.com/webhooks#retries; Paystack: every 3 minutes for
 * the first 4 tries, then hourly, https://paystack.com/docs/payments/webhooks/#retries), and our receiver
 * relies on it: it answers 409 `payment_busy` while the payment's own request is still writing, and 503
 * when storage fails. The sandbox keeps the same promise on a local clock.
 */
const SANDBOX_REDELIVERY = { maxAttempts: 8, initialDelay: 250, maxDelay: 8_000 };

/** The sandbox's background deliveries not finished yet, by the API base URL they go to. */
const pendingDeliveries = new Map<string, Set<AbortController>>();

/**
 * Registers one background delivery to `baseUrl`, so {@link cancelSandboxDeliveries} can stop it.
 * @returns its cancellation signal, and `done` to call once it has ended (acknowledged, given up or cancelled)
 */
function trackSandboxDelivery(baseUrl: string): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  let pending = pendingDeliveries.get(baseUrl);
  if (!pending) {
    pending = new Set();
    pendingDeliveries.set(baseUrl, pending);
  }
  pending.add(controller);
  return {
    signal: controller.signal,
    done: () => {
      pending.delete(controller);
      if (pending.size === 0 && pendingDeliveries.get(baseUrl) === pending) pendingDeliveries.delete(baseUrl);
    },
  };
}

/**
 * Stops every background delivery (scheduled or redelivering) to `baseUrl`: the local gateway calls it when it closes,
 * as the sandbox is part of the local stack and goes with it. Without it, a stopped API's events would be tried for
 * about 40 s more in the same process.
 */
export function cancelSandboxDeliveries(baseUrl: string): void {
  const pending = pendingDeliveries.get(baseUrl.replace(/\/+$/, ''));
  if (!pending) return;
  for (const controller of pending) controller.abort();
  pendingDeliveries.delete(baseUrl.replace(/\/+$/, ''));
}

/**
 * Posts one signed sandbox event (`rawBody`, the same bytes and event id on every try) to `POST /webhooks/sandbox`
 * until the service answers 2xx, redelivering on any other answer or a network failure or 5 000 ms timeout
 * ({@link SANDBOX_REDELIVERY}). Used by the sandbox's background events (offline payments completing, payouts
 * settling); the hosted page's decision posts once, as the payer is waiting for its answer.
 * @param cancel stops the tries (the gateway closed: {@link cancelSandboxDeliveries})
 * @returns the last HTTP status answered
 * @throws the last network error when no try got an answer; cockatiel's `TaskCancelledError` once cancelled
 */
export async function deliverSandboxEventUntilAcknowledged(baseUrl: string, rawBody: string, cancel?: AbortSignal): Promise<number> {
  const signature = await signSandboxWebhook(rawBody);
  const policy = retry(
    handleAll.orWhenResult((status) => typeof status === 'number' && (status < 200 || status > 299)),
    {
      maxAttempts: SANDBOX_REDELIVERY.maxAttempts,
      backoff: new ExponentialBackoff({ initialDelay: SANDBOX_REDELIVERY.initialDelay, maxDelay: SANDBOX_REDELIVERY.maxDelay }),
    },
    // A pending redelivery never keeps a local stack or a test process alive: as a processor gives up on a gone receiver.
  ).dangerouslyUnref();
  return policy.execute(async ({ signal }) => {
    const res = await fetch(`${baseUrl}/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      body: rawBody,
      signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]),
    });
    await res.arrayBuffer();
    return res.status;
  }, cancel);
}

/**
 * After {@link sandboxWebhookDelayMs}, delivers the webhook that completes an
 * offline payment (bank transfer, USSD, mobile money), as if the payer paid, and
 * redelivers it until acknowledged ({@link deliverSandboxEventUntilAcknowledged}).
 * Runs where a process outlives the request (the local stack); inside Lambda a
 * timer would be frozen with the invocation, so there it is skipped and such
 * payments complete by `force_sync` (documented). `SANDBOX_WEBHOOKS=off` turns it off.
 */
export function scheduleSandboxWebhook(baseUrl: string, data: SandboxWebhookBody['data']): void {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.SANDBOX_WEBHOOKS === 'off') return;
  const body: SandboxWebhookBody = { id: `evt_${randomUUID().replace(/-/g, '')}`, type: 'payment.succeeded', data };
  scheduleSandboxDelivery(baseUrl, JSON.stringify(body), sandboxWebhookDelayMs());
}

/**
 * Delivers `rawBody` to `baseUrl` after `delayMs`, redelivered until acknowledged, cancelled with the gateway
 * ({@link cancelSandboxDeliveries}). Every try failing leaves the payment or payout to `force_sync` and the
 * reconciler, as with a processor that gave up.
 */
export function scheduleSandboxDelivery(baseUrl: string, rawBody: string, delayMs: number): void {
  const delivery = trackSandboxDelivery(baseUrl.replace(/\/+$/, ''));
  const timer = setTimeout(() => {
    if (delivery.signal.aborted) return delivery.done();
    deliverSandboxEventUntilAcknowledged(baseUrl, rawBody, delivery.signal)
      .catch(() => undefined)
      .finally(delivery.done);
  }, delayMs);
  timer.unref();
  delivery.signal.addEventListener('abort', () => {
    clearTimeout(timer);
    delivery.done();
  });
}

/** Longest a sandbox void waits for a hosted-page decision on the same payment: 10 000 ms (twice the webhook timeout). */
const DECISION_WAIT_MS = 10_000;

/** The hosted-page decisions (check and webhook) running in this process, by payment id. */
const decisionsInFlight = new Map<string, Promise<void>>();

/**
 * Runs a hosted-page decision (its check of the payment and its webhook) as one step of the sandbox
 * "processor": a {@link sandboxPageDecisionsSettled} void of the same payment waits for it, so an approval
 * and a void are ordered as at a real processor. Either the page read the payment before the void's
 * claim was written, and its webhook then meets that claim (refused as busy) or lands first (the void's
 * claim then fails); or it sees the claim or the closed payment and approves nothing. Never a money report
 * on a payment the API closed. Within one process (the local stack); across processes (a deployed stage,
 * where the page and the cancel run in different functions) the sandbox's decision record orders them
 * (shared/storage/sandbox-decisions-repository.ts: the first of the approval and the void wins).
 */
export async function duringSandboxPageDecision<T>(paymentId: string, decide: () => Promise<T>): Promise<T> {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const previous = decisionsInFlight.get(paymentId);
  const all = previous ? Promise.all([previous, done]).then(() => undefined) : done;
  decisionsInFlight.set(paymentId, all);
  try {
    return await decide();
  } finally {
    finish();
    if (decisionsInFlight.get(paymentId) === all) decisionsInFlight.delete(paymentId);
  }
}

/** Waits (at most {@link DECISION_WAIT_MS}) until no hosted-page decision on this payment runs in this process. */
export async function sandboxPageDecisionsSettled(paymentId: string): Promise<void> {
  const running = decisionsInFlight.get(paymentId);
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    running,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DECISION_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}
