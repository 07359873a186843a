/**
 * Which POSTs carry an `Idempotency-Key` (docs/api.md, "Idempotency keys"): every one but the
 * routes whose key the API ignores. A keyed POST is replayable — the API replays its stored
 * answer — which is what lets the transport re-send it.
 */

/** The request header carrying an idempotency key (docs/api.md, "Idempotency keys"). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * POST routes whose `Idempotency-Key` the API ignores (no stored answer to replay): the SDK sends
 * no key there and re-sends them only on an answer that says nothing was done. `authenticate` (a PIN
 * or OTP must never rest in an idempotency record; docs/api.md), and the routing activations
 * (`activate`, `deactivate`), a subscription's `cancel` and a test clock's `advance`: a change of state that a
 * second call repeats or refuses, never doubles.
 */
export const UNKEYED_POST_PATHS: readonly string[] = [
  '/payments/{payment_id}/authenticate',
  '/payouts/resolve_account',
  '/payouts/{payout_id}/authenticate',
  '/routing/{routing_algorithm_id}/activate',
  '/routing/deactivate',
  '/subscriptions/{subscription_id}/cancel',
  '/test_helpers/test_clocks/{test_clock_id}/advance',
];

/** {@link UNKEYED_POST_PATHS} as patterns over a URL's pathname (a path parameter is one non-empty segment). */
const UNKEYED_POST_PATTERNS = UNKEYED_POST_PATHS.map((p) => new RegExp(`${p.replace(/\{[^}]+\}/g, '[^/]+')}/?$`));

/**
 * Whether the API honours an Idempotency-Key on `POST <pathname>` (every POST but {@link UNKEYED_POST_PATHS}).
 * @param pathname a request URL's pathname (`/payments/pay_…/confirm`); matched at its end, so a base path before it is fine
 */
export function honoursIdempotencyKey(pathname: string): boolean {
  return !UNKEYED_POST_PATTERNS.some((re) => re.test(pathname));
}
