/**
 * Finding what a call whose answer was lost did at Flutterwave: whether verify's answer means "no such
 * transaction" (and how long that may still change), and our refund among a transaction's refunds
 * (`GET /v3/refunds`, matched on our comment, or for a preauthorized charge by amount and time), with the paging
 * of v3 lists.
 *
 * Sources (the tags cited on each export):
 * - [PRF] Refund a preauthorized charge, `POST /v3/charges/{flw_ref}/refund` `{amount}`:
 *   https://developer.flutterwave.com/v3.0.0/reference/refund-preauth-charge and
 *   https://flutterwaveinc.mintlify.app/api-reference/preauthorization/create-a-refund (answer: the charge, "Charge refunded").
 * - [TO] Handling Error Timeouts: https://developer.flutterwave.com/docs/handling-error-timeouts ("Our system
 *   typically waits for 28 seconds before returning a timeout error response", a 503
 *   `{status: "error", message: "An error occurred. Please contact support", data: null}`).
 * - [LR] Get all refunds, `GET /v3/refunds`: https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds
 *   (query filters: start and end date `YYYY-MM-DD`, status, currency, the refund's `flw_ref`, and the
 *   transaction's `data.id`) and Flutterwave's v3 OpenAPI rendered at
 *   https://flutterwaveinc.mintlify.app/api-reference/transactions/get-all-refunds (items `id`,
 *   `amount_refunded`, `status`, `flw_ref`, `comment`, `transaction_id`, `created_at`;
 *   `meta.page_info` `total`, `current_page`, `total_pages`, `page_size`). The rendered reference does
 *   not print the parameter names; `from`, `to`, `id` and `page` are the names Flutterwave uses on its
 *   other v3 list endpoints (e.g. GET /v3/transactions, GET /v3/payment-plans).
 *   Flutterwave/Node-v3 (v1.4.1, commit 537f9f4455f922a879e4f088cf0f596621c3517c) has no list-refunds call.
 */
import { ConnectorRequestError, ConnectorTechnicalError } from '../connector';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';
import { majorToMinor, minorToMajor } from './money';
import { refundComment } from './references';
import type { FlutterwavePageInfo, FlutterwaveRefundList, FlutterwaveRefundListItem } from './wire-types';

/**
 * How long after a payment's creation a `tx_ref` Flutterwave does not know may still appear: 15
 * minutes. Flutterwave documents no propagation window for `verify_by_reference`; it does say a
 * timeout "could also mean the request is still processing" [TO], and our charge call gives up after
 * `FLUTTERWAVE_TIMEOUTS_MS` (./timeouts.ts).authorize. Before the window, a not-found card, USSD or M-Pesa
 * payment is `Processing`; after it, `Failed` with `notFound: true`.
 */
export const FLUTTERWAVE_NOT_FOUND_SETTLE_MS = 15 * 60 * 1000;

/**
 * How long after our refund record was written (just before `POST /v3/transactions/{id}/refund`) a
 * refund absent from the transaction's refund list may still appear: 10 minutes (no delay is
 * documented; the window covers a refund request still executing after our call gave up).
 */
export const FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/** Pages of `GET /v3/refunds` read for one lookup before giving up (non-authoritative: throws). */
export const FLUTTERWAVE_REFUND_LIST_MAX_PAGES = 20;

/** `YYYY-MM-DD` (UTC) of an epoch-milliseconds instant, the date format of Flutterwave's list filters [LR]. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The query of the refund lookup's `GET /v3/refunds` [LR]: `id` = the transaction's numeric id,
 * `from` = the UTC day before our refund record was written, `to` = the UTC day after `now` (so the
 * window surely holds our refund whatever default range Flutterwave applies and however it treats the
 * end date), and `page` (1-based).
 */
export function refundListQuery(transactionId: string, createdAt: string, now: number, page: number): URLSearchParams {
  const createdMs = Date.parse(createdAt);
  const fromMs = (Number.isFinite(createdMs) ? Math.min(createdMs, now) : now) - 24 * 60 * 60 * 1000;
  return new URLSearchParams([
    ['id', transactionId],
    ['from', utcDate(fromMs)],
    ['to', utcDate(now + 24 * 60 * 60 * 1000)],
    ['page', String(page)],
  ]);
}

/**
 * Whether another page of `GET /v3/refunds` must be read after this one.
 * @returns false on the last page (`current_page >= total_pages`, or an empty page); true when more follow
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info`: whether more
 *   refunds exist cannot be known, so the listing is not authoritative
 */
export function hasMoreRefundPages(list: FlutterwaveRefundList, page: number): boolean {
  return hasMoreListPages(list, page, 'refunds');
}

/**
 * Whether another page of a v3 list follows this one, from its `meta.page_info` [LR] (refunds, chargebacks).
 * @param what the listed things, named in the error
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info`
 */
export function hasMoreListPages(
  list: { meta?: { page_info?: FlutterwavePageInfo | null } | null; data?: unknown[] | null },
  page: number,
  what: string,
): boolean {
  const info = list.meta?.page_info;
  const items = list.data ?? [];
  if (typeof info?.total_pages === 'number' && Number.isFinite(info.total_pages)) {
    const current = typeof info.current_page === 'number' ? info.current_page : page;
    return items.length > 0 && current < info.total_pages;
  }
  if (items.length === 0) return false;
  throw new ConnectorTechnicalError(
    FLUTTERWAVE_CONNECTOR_NAME,
    `Flutterwave listed ${what} without meta.page_info; whether more pages exist is unknown.`,
  );
}

/**
 * Picks our refund among a transaction's refunds (`GET /v3/refunds`). `POST /v3/transactions/{id}/refund`
 * takes no reference of ours, only a free-text `comments`, where `buildRefundBody` (./requests.ts) writes
 * `Refund <our refund id>`; the list returns it as `comment` [LR]. Rules:
 * - refunds of another transaction (`transaction_id`/`tx_id` differs: the `id` filter ignored) are skipped;
 * - exactly one refund with our comment → it (its amount must be ours);
 * - several with our comment → ambiguous;
 * - none with our comment, but one of our amount carries no comment at all → ambiguous (it may be ours
 *   with the comment dropped);
 * - otherwise → none.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous or when the refund with our comment has another
 *   amount: nothing is settled automatically, the caller retries later or an operator looks
 */
export function ourFlutterwaveRefund(
  refunds: readonly FlutterwaveRefundListItem[],
  transactionId: string,
  ours: { refundId: string; amount: number },
): FlutterwaveRefundListItem | null {
  const concerned = refunds.filter((r) => {
    const tx = r.transaction_id ?? r.tx_id;
    return tx === undefined || tx === null || String(tx) === transactionId;
  });
  const comment = refundComment(ours.refundId);
  const matches = concerned.filter((r) => typeof r.comment === 'string' && r.comment.trim() === comment);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave lists ${matches.length} refunds commented "${comment}" on transaction ${transactionId}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (match) {
    if (majorToMinor(match.amount_refunded) !== ours.amount) {
      throw new ConnectorTechnicalError(
        FLUTTERWAVE_CONNECTOR_NAME,
        `Flutterwave refund ${match.id} is commented "${comment}" but refunds ${String(match.amount_refunded)}, not ${minorToMajor(ours.amount)}.`,
      );
    }
    return match;
  }
  const uncommented = concerned.filter(
    (r) => (r.comment === undefined || r.comment === null || r.comment.trim() === '') && majorToMinor(r.amount_refunded) === ours.amount,
  );
  if (uncommented.length > 0) {
    throw new ConnectorTechnicalError(
      FLUTTERWAVE_CONNECTOR_NAME,
      `Flutterwave lists ${uncommented.length} refund(s) of ${minorToMajor(ours.amount)} on transaction ${transactionId} without a comment; refund ${ours.refundId} cannot be told apart.`,
    );
  }
  return null;
}

/**
 * How long before our refund record's `createdAt` a refund listed by Flutterwave is still treated as possibly
 * ours when matching a preauth refund by amount ({@link ourPreauthRefund}): 10 minutes, covering clock skew
 * between Flutterwave and us and the time between writing our record and Flutterwave stamping its refund.
 */
export const FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS = 10 * 60 * 1000;

/**
 * Picks our refund of a preauthorized charge among the transaction's refunds (`GET /v3/refunds`).
 * `POST /v3/charges/{flw_ref}/refund` takes only `amount` [PRF], so nothing of ours travels with the refund;
 * it is recognised by transaction, amount and time. Rules:
 * - refunds of another transaction are skipped; a refund commented `Refund <our refund id>` (made through the
 *   general endpoint) is ours as in {@link ourFlutterwaveRefund}; refunds commented for another refund are not ours;
 * - the others of our amount are split by `created_at`: at or after our record's `createdAt` ("after"), or within
 *   {@link FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS} before it, or with no readable date ("near");
 * - none of either → none (ours never reached Flutterwave); any candidate → ambiguous, for an operator: an
 *   uncommented refund of our amount after our record may be ours, or a later refund of the same payment made
 *   by a retry with another Idempotency-Key (whose Flutterwave id we never learn from the preauth endpoint), and
 *   counting it as ours would record two refunds where the customer got one.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous: nothing is settled automatically (retry later / an operator looks)
 */
export function ourPreauthRefund(
  refunds: readonly FlutterwaveRefundListItem[],
  transactionId: string,
  ours: { refundId: string; amount: number; createdAt: string },
): FlutterwaveRefundListItem | null {
  const concerned = refunds.filter((r) => {
    const tx = r.transaction_id ?? r.tx_id;
    return tx === undefined || tx === null || String(tx) === transactionId;
  });
  const comment = refundComment(ours.refundId);
  const commented = concerned.filter((r) => typeof r.comment === 'string' && r.comment.trim() !== '');
  if (commented.some((r) => r.comment?.trim() === comment)) return ourFlutterwaveRefund(commented, transactionId, ours);
  const createdMs = Date.parse(ours.createdAt);
  const sameAmount = concerned.filter((r) => !commented.includes(r) && majorToMinor(r.amount_refunded) === ours.amount);
  const after: FlutterwaveRefundListItem[] = [];
  const near: FlutterwaveRefundListItem[] = [];
  for (const r of sameAmount) {
    const at = r.created_at ? Date.parse(r.created_at) : Number.NaN;
    if (!Number.isFinite(at) || !Number.isFinite(createdMs)) near.push(r);
    else if (at >= createdMs) after.push(r);
    else if (at >= createdMs - FLUTTERWAVE_PREAUTH_REFUND_MATCH_WINDOW_MS) near.push(r);
  }
  if (after.length === 0 && near.length === 0) return null;
  throw new ConnectorTechnicalError(
    FLUTTERWAVE_CONNECTOR_NAME,
    `Flutterwave lists ${after.length + near.length} refund(s) of ${minorToMajor(ours.amount)} on preauthorized transaction ${transactionId} around refund ${ours.refundId}; they cannot be told apart without an operator.`,
  );
}

/**
 * Whether an error is Flutterwave's own "No transaction was found …" answer from verify
 * (`{"status": "error", "message": "No transaction was found for this id", "data": null}`, HTTP 400
 * or a 200 envelope). Only that message counts: a bare 404 (a proxy, a wrong base URL) or any other
 * refusal says nothing about the transaction and is thrown as it is.
 */
export function isTransactionNotFound(err: unknown): boolean {
  return err instanceof ConnectorRequestError && err.code.startsWith('no_transaction_was_found');
}
