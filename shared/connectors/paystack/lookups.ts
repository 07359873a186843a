/**
 * Finding what a call whose answer was lost did at Paystack: whether verify's error answer means "no such
 * reference" (and how long that may still change), and our refund among a transaction's refunds (GET /refund,
 * matched on `merchant_note`), with the paging of that list.
 *
 * Sources: [OAS] PaystackOSS/openapi at commit 9678dea922a900b2485969592055ccf634460352:
 * paths/transaction_verify_{reference}.yaml (`404` → components/responses/NotFound.yaml,
 * `{status: false, message: "Entity not found"}`), paths/refund.yaml (List Refunds: `perPage` default 50, `page`,
 * `from`, `to`), components/schemas/RefundListResponse.yaml and RefundListResponseArray.yaml (`transaction`,
 * `transaction_reference`, `merchant_note`, `meta.pageCount`); https://paystack.com/docs/api/refund/.
 */
import type { Currency } from '../../domain/money';
import { ConnectorTechnicalError } from '../connector';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';
import { fromPaystackAmount } from './money';
import { refundMerchantNote } from './references';
import type { PaystackErrorBody, PaystackRefundData, PaystackRefundList } from './wire-types';

/**
 * Messages with which Paystack says a transaction reference does not exist at GET
 * /transaction/verify/:reference: `Entity not found` (the documented 404 body [OAS]
 * components/responses/NotFound.yaml) and `Transaction reference not found` (the 400 body
 * Paystack's live API answers for an unknown reference; not in PaystackOSS material — recorded from
 * public integrations, e.g. the paystack-gateway gem's `transaction_not_found?`). Compared
 * case-insensitively, trailing period ignored.
 */
export const PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES: readonly string[] = ['entity not found', 'transaction reference not found'];

/**
 * Whether an error answer of GET /transaction/verify/:reference says the reference is unknown to
 * Paystack: HTTP 404 or 400 with Paystack's JSON error body (`status: false`) and one of
 * {@link PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES}. Anything else (a proxy's 404 page, another
 * message, a 5xx) is not a "not found" answer.
 */
export function isReferenceNotFound(status: number, body: unknown): boolean {
  if (status !== 404 && status !== 400) return false;
  const b = body as PaystackErrorBody | null;
  if (!b || typeof b !== 'object' || b.status !== false || typeof b.message !== 'string') return false;
  const message = b.message.trim().replace(/\.$/, '').toLowerCase();
  return PAYSTACK_REFERENCE_NOT_FOUND_MESSAGES.includes(message);
}

/**
 * How long after a payment's creation a reference Paystack does not know may still appear: 15
 * minutes. Paystack documents no propagation window for verify, but an authorize whose answer we
 * lost (a `POST /charge` waiting on the issuer or bank) may still be creating the transaction; our
 * own call gives up after `PAYSTACK_TIMEOUTS_MS` (./timeouts.ts).authorize (60 s). Before the window, not found
 * is `Processing`; after it, `Failed` with `notFound: true`.
 */
export const PAYSTACK_NOT_FOUND_SETTLE_MS = 15 * 60 * 1000;

/**
 * How long after our refund record was written (just before POST /refund) a refund absent from the
 * transaction's refund list may still appear: 10 minutes. Paystack documents no delay for List
 * Refunds; the window covers a refund request still executing after our call gave up (60 s).
 */
export const PAYSTACK_REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/** `perPage` of the refund lookup's GET /refund (Paystack's documented default [OAS]). */
export const PAYSTACK_REFUND_LIST_PER_PAGE = 50;

/** Pages of GET /refund read for one lookup before giving up (non-authoritative: throws). */
export const PAYSTACK_REFUND_LIST_MAX_PAGES = 20;

/**
 * Margin subtracted from our refund record's time for the lookup's `from`, covering clock skew
 * between us and Paystack: 1 hour.
 */
export const PAYSTACK_REFUND_LIST_FROM_MARGIN_MS = 60 * 60 * 1000;

/**
 * The query of the refund lookup's GET /refund:
 * - `transaction` = the transaction's numeric id: the filter this adapter's webhook lookup already
 *   uses. PaystackOSS/openapi [OAS] documents only `perPage`, `page`, `from` and `to` for List
 *   Refunds (older SDKs built on Paystack's earlier reference list `reference` and `currency`), so
 *   the filter may be ignored: every listed refund is also checked client-side
 *   ({@link ourPaystackRefund}) and every page is read, which keeps the answer authoritative;
 * - `from` = our refund record's time minus {@link PAYSTACK_REFUND_LIST_FROM_MARGIN_MS} (ISO 8601,
 *   documented [OAS]): our refund cannot be older, and it bounds the listing if the filter is ignored;
 * - `perPage` ({@link PAYSTACK_REFUND_LIST_PER_PAGE}) and `page` (1-based).
 * @param createdAt ISO 8601 UTC time our refund record was written
 */
export function refundListQuery(transactionId: number, createdAt: string, page: number): URLSearchParams {
  const createdMs = Date.parse(createdAt);
  const query = new URLSearchParams([['transaction', String(transactionId)]]);
  if (Number.isFinite(createdMs)) query.append('from', new Date(createdMs - PAYSTACK_REFUND_LIST_FROM_MARGIN_MS).toISOString());
  query.append('perPage', String(PAYSTACK_REFUND_LIST_PER_PAGE));
  query.append('page', String(page));
  return query;
}

/**
 * Whether another page of GET /refund must be read after `page`: `meta.pageCount` when Paystack
 * gives it; without it, a full page (`perPage` items) may have a successor.
 */
export function hasMoreRefundPages(list: PaystackRefundList, page: number): boolean {
  const pageCount = list.meta?.pageCount;
  if (typeof pageCount === 'number' && Number.isFinite(pageCount)) return page < pageCount;
  return (list.data ?? []).length >= PAYSTACK_REFUND_LIST_PER_PAGE;
}

/** Whether a listed refund is for this transaction (by id or reference); true when it says nothing about it. */
function refundConcerns(refund: PaystackRefundData, transaction: { id: number; reference: string }): boolean {
  const t = refund.transaction;
  if (typeof t === 'number') return t === transaction.id;
  if (t && typeof t === 'object' && typeof t.id === 'number') return t.id === transaction.id;
  if (typeof refund.transaction_reference === 'string' && refund.transaction_reference)
    return refund.transaction_reference === transaction.reference;
  return true;
}

/**
 * Picks our refund among a transaction's refunds (GET /refund). POST /refund carries our refund id in
 * `merchant_note` ({@link refundMerchantNote}; [OAS] RefundCreate) and the list returns it, so the
 * match is on that note. Rules:
 * - refunds of another transaction (the `transaction` filter ignored) are skipped;
 * - exactly one refund with our note → it (its amount and currency must be ours);
 * - several with our note → ambiguous;
 * - none with our note, but one of our amount and currency carries no `merchant_note` at all →
 *   ambiguous (it may be ours with the note dropped);
 * - otherwise → none.
 * @returns the refund, or null when none is ours
 * @throws ConnectorTechnicalError when ambiguous or when the refund with our note has another amount
 *   or currency: nothing is settled automatically, the caller retries later or an operator looks
 */
export function ourPaystackRefund(
  refunds: readonly PaystackRefundData[],
  transaction: { id: number; reference: string },
  ours: { refundId: string; amount: number; currency: Currency },
): PaystackRefundData | null {
  const concerned = refunds.filter((r) => refundConcerns(r, transaction));
  const note = refundMerchantNote(ours.refundId);
  const matches = concerned.filter((r) => typeof r.merchant_note === 'string' && r.merchant_note.trim() === note);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      PAYSTACK_CONNECTOR_NAME,
      `Paystack lists ${matches.length} refunds noted "${note}" on transaction ${transaction.id}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (match) {
    if (fromPaystackAmount(match.amount) !== ours.amount || match.currency !== ours.currency) {
      throw new ConnectorTechnicalError(
        PAYSTACK_CONNECTOR_NAME,
        `Paystack refund ${match.id} is noted "${note}" but is ${String(match.amount)} ${match.currency}, not ${ours.amount} ${ours.currency}.`,
      );
    }
    return match;
  }
  const unnoted = concerned.filter(
    (r) =>
      (r.merchant_note === undefined || r.merchant_note === null || r.merchant_note.trim() === '') &&
      fromPaystackAmount(r.amount) === ours.amount &&
      r.currency === ours.currency,
  );
  if (unnoted.length > 0) {
    throw new ConnectorTechnicalError(
      PAYSTACK_CONNECTOR_NAME,
      `Paystack lists ${unnoted.length} refund(s) of ${ours.amount} ${ours.currency} on transaction ${transaction.id} without a merchant note; refund ${ours.refundId} cannot be told apart.`,
    );
  }
  return null;
}
