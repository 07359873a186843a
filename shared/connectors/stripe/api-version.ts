/**
 * The `Stripe-Version` the adapter speaks, and which overrides it accepts (https://docs.stripe.com/api/versioning).
 * Kept apart from the adapter so the registry can check a configured version without loading it.
 *
 * Source: `node_modules/stripe/cjs/apiVersion.js` of the installed `stripe` package (stripe-node 23.1.0:
 * `ApiVersion = '2026-10-28.endive'`) and the Stripe changelog entries cited at {@link STRIPE_API_VERSION}.
 */

/**
 * The Stripe API version sent as `Stripe-Version` on every request (https://docs.stripe.com/api/versioning):
 * the version the installed `stripe` package's types describe — stripe-node 23.1.0,
 * `node_modules/stripe/cjs/apiVersion.js`: `ApiVersion = '2026-10-28.endive'` (its CHANGELOG: "This release
 * changes the pinned API version to `2026-10-28.endive`"). Pinning it means the request bodies built here
 * (typed against that package) and the answers parsed here are the ones Stripe's reference documents for
 * this version, whatever the account's default version is. Change it together with the package.
 * The connector config's `apiVersion` overrides it (see {@link stripeApiVersionProblem}).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/**
 * The first API version whose PaymentIntents take `allowed_payment_method_types`, which the adapter
 * sends: 2026-07-29 (https://docs.stripe.com/changelog/dahlia/2026-07-29/allowed-payment-method-types-parameter).
 * An older override would make every authorize fail with an unknown parameter.
 */
export const STRIPE_MIN_API_VERSION_DATE = '2026-07-29';

/**
 * Why a `Stripe-Version` value cannot be used by this adapter, or null when it can. Stripe's versions are
 * `YYYY-MM-DD` with an optional release name (`2026-10-28.endive`, `2024-06-20`); the date must be on or
 * after {@link STRIPE_MIN_API_VERSION_DATE}.
 * @returns a sentence naming the problem (safe to log: it carries only the version), or null
 */
export function stripeApiVersionProblem(version: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(\.[a-z][a-z0-9_]*)?$/.exec(version);
  if (!m) return `"${version.slice(0, 40)}" is not a Stripe API version (YYYY-MM-DD or YYYY-MM-DD.name).`;
  if (m[1]! < STRIPE_MIN_API_VERSION_DATE) {
    return `Stripe API version ${version} predates ${STRIPE_MIN_API_VERSION_DATE}, when PaymentIntents gained allowed_payment_method_types, which this adapter sends.`;
  }
  return null;
}
