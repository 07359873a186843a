/**
 * Finding what a call whose answer was lost did at Stripe: the PaymentIntent carrying our payment id (Search) and our
 * refund among a PaymentIntent's refunds (list), with how long each answer takes to be trusted.
 *
 * Sources: https://docs.stripe.com/search and https://docs.stripe.com/api/payment_intents/search (query language,
 * data freshness); https://docs.stripe.com/api/refunds/list and stripe-node v22.5.0 (commit
 * 663942164d3876f04bb26617b88f498ba785e580): `src/resources/Refunds.ts` (`RefundListParams.payment_intent`),
 * `src/shared.ts` (`PaginationParams`: `limit` 1–100, `starting_after`), `src/lib.ts` (`ApiList`: `data`, `has_more`).
 */

import type Stripe from 'stripe';
import type { Currency } from '../../domain/money';
import { ConnectorTechnicalError } from '../connector';
import { fromStripeAmount, toStripeCurrency } from './money';
import { EXPAND_SEARCH_PAYMENT_METHOD, PAYMENT_ID_METADATA_KEY, REFUND_ID_METADATA_KEY } from './requests';
import type { StripeRefund } from './wire-types';

/** Page size of the refund listing: Stripe's maximum `limit` (1–100, stripe-node `PaginationParams`). */
export const REFUND_LIST_PAGE_SIZE = 100;

/**
 * Pages of refunds read for one lookup before giving up (100 refunds a page: 2 000 refunds on one
 * PaymentIntent). Beyond it the lookup is not authoritative and throws.
 */
export const REFUND_LIST_MAX_PAGES = 20;

/**
 * The parameters of `GET /v1/refunds` listing one PaymentIntent's refunds
 * (https://docs.stripe.com/api/refunds/list): `payment_intent`, `limit` ({@link REFUND_LIST_PAGE_SIZE})
 * and, after the first page, `starting_after` = the last refund id of the previous page.
 */
export function refundListParams(paymentIntentId: string, startingAfter?: string): Stripe.RefundListParams {
  const params: Stripe.RefundListParams = { payment_intent: paymentIntentId, limit: REFUND_LIST_PAGE_SIZE };
  if (startingAfter) params.starting_after = startingAfter;
  return params;
}

/**
 * How long after our refund record was written (just before `POST /v1/refunds`) a refund absent
 * from the PaymentIntent's refund list may still appear: 10 minutes. Stripe's list endpoints
 * document no propagation delay (only Search is eventually consistent), but a refund request whose
 * answer we lost may still be executing at Stripe (a concurrent retry would get 409
 * `idempotency_key_in_use`); our own call gives up after `STRIPE_DEFAULT_TIMEOUT_MS` (./timeouts.ts). Before
 * this window an absent refund is `Pending` with no id, after it it is known absent.
 */
export const REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/**
 * Picks our refund among a PaymentIntent's refunds: the one whose `metadata.refund_id` is our
 * refund id (`buildRefundParams` in ./requests.ts always sends it).
 * @returns the refund, or null when none carries our id
 * @throws ConnectorTechnicalError when several refunds carry our id, or the one that does is for
 *   another amount or currency than ours (an operator must look: nothing is settled automatically)
 */
export function ourRefundAmong(
  refunds: readonly StripeRefund[],
  ours: { refundId: string; amount: number; currency: Currency },
): StripeRefund | null {
  const matches = refunds.filter((r) => r.metadata?.[REFUND_ID_METADATA_KEY] === ours.refundId);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      'stripe',
      `Stripe holds ${matches.length} refunds carrying refund id ${ours.refundId}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (!match) return null;
  if (fromStripeAmount(match.amount) !== ours.amount || match.currency !== toStripeCurrency(ours.currency)) {
    throw new ConnectorTechnicalError(
      'stripe',
      `Stripe refund ${match.id} carries refund id ${ours.refundId} but is ${match.amount} ${match.currency}, not ${ours.amount} ${toStripeCurrency(ours.currency)}.`,
    );
  }
  return match;
}

/**
 * The Search Query Language query that finds the PaymentIntent carrying our
 * payment id: `metadata['payment_id']:'<id>'` (quotes and backslashes in the
 * value escaped with a backslash). https://docs.stripe.com/search#search-query-language
 */
export function searchQueryForPayment(paymentId: string): string {
  const escaped = paymentId.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return `metadata['${PAYMENT_ID_METADATA_KEY}']:'${escaped}'`;
}

/**
 * The parameters of `GET /v1/payment_intents/search` that find the PaymentIntent carrying our payment id
 * (https://docs.stripe.com/api/payment_intents/search): `query` = {@link searchQueryForPayment}, and
 * `expand[0]=data.payment_method` ({@link EXPAND_SEARCH_PAYMENT_METHOD}: a found intent that saved its card
 * answers with the card summary in the same call).
 */
export function searchParamsForPayment(paymentId: string): Stripe.PaymentIntentSearchParams {
  return { query: searchQueryForPayment(paymentId), expand: [...EXPAND_SEARCH_PAYMENT_METHOD] };
}

/**
 * How long a PaymentIntent may take to appear in search results. Stripe: "under
 * normal operating conditions, data is searchable in less than a minute.
 * Occasionally, propagation … can be up to an hour behind during outages"
 * (https://docs.stripe.com/api/payment_intents/search). A payment older than this
 * that search does not find was never created at Stripe.
 */
export const SEARCH_PROPAGATION_MS = 60 * 60 * 1000;
