/**
 * A minimal loopback Flutterwave v3 stand-in for merchant connector account tests: an in-process
 * `node:http` server on 127.0.0.1 (a free port) where each secret key names one Flutterwave account,
 * answering only `GET /v3/balances` ("Get all wallet balances") for the account the key names, and
 * failing on command (hang, 500, connection reset or refused) like the Stripe and Paystack stand-ins,
 * so a test can check a merchant's own Flutterwave credentials and make Flutterwave unreachable.
 *
 * Card payments and saved cards are modelled when the stand-in is started with `payments: true`
 * (off by default, so the balance-only behaviour stays exactly as it was): per account a ledger of card
 * transactions and the card tokens the account issued. The Flutterwave adapter's other payment tests queue
 * Flutterwave's documented answers on test/connectors/fixtures/flutterwave/fixture-server.ts. This stand-in follows
 * that server's conventions (Flutterwave's envelope `{status, message, data}`, `Authorization: Bearer
 * <secret key>`, JSON), and adds accounts, the request log without secrets (no body, no card, no token), and faults.
 *
 * Payments (`payments: true`):
 * - `POST /v3/charges?type=card` `{client}`: the 3DES-ECB payload (https://developer.flutterwave.com/docs/integration-guides/encryption/,
 *   flutterwave-node-v3 1.4.1 `services/charge/encryp.js`) decrypted with THE ACCOUNT's encryption key; the card is
 *   charged at once (NOAUTH: no PIN, OTP or 3DS is modelled) and answered `{status: "success", message: "Charge initiated",
 *   data}` in the shape of test/connectors/fixtures/flutterwave/charge-card-successful.json, `preauthorize: true` as a
 *   hold (`charge_type: "preauth"`). A successful charge issues a card token (`flw-t1nf-<32 hex>-m03k`, the form of
 *   every official sample) in `data.card.token`, stable for that charge (the charge's answer and every verify of it carry
 *   the same token), tied to the charge's e-mail and belonging to the account that issued it: "In the verification
 *   response, you'll find a token field in the data.card object", "The token is tied to the email address you specified
 *   on the first charge" (https://developer.flutterwave.com/docs/tokenization).
 * - `POST /v3/tokenized-charges` `{token, currency, amount, email, tx_ref, …}` (https://developer.flutterwave.com/reference/endpoints/tokenized-charge/;
 *   required fields of https://flutterwaveinc.mintlify.app/api-reference/tokenized-charges/create-a-tokenized-charge):
 *   charges a token of THAT account only, recorded in that account's ledger under `tx_ref`, answered like the "Charge
 *   with token" Sample Response of flutterwave-node-v3 1.4.1 `documentation/tokenization.md` (`message: "Charge
 *   successful"`, `data.card.token` the token charged). A token the account never issued (another account's, or none)
 *   and a token charged with another e-mail are refused in Flutterwave's documented error envelope, HTTP 400
 *   `{status: "error", message, data: null}` ("Flutterwave errors … are usually returned in this format with the 400 HTTP
 *   status code", https://developer.flutterwave.com/docs/flutterwave-errors); Flutterwave publishes no message text for
 *   either, so the texts of {@link FLUTTERWAVE_STAND_IN_MESSAGES} are the stand-in's own.
 * - `declineNext()`: the next matching charge is declined (`data.status: "failed"`, `processor_response` default
 *   "Insufficient Funds", the envelope of fixtures/flutterwave/charge-card-failed.json); `requireAuthenticationNext()`:
 *   the next matching charge waits for 3DS (`status: "pending"`, `data.meta.authorization: {mode: "redirect",
 *   redirect}`, the shape of the tokenized 3DS sample of https://flutterwaveinc.mintlify.app/other-features/recurring-payments/tokenization),
 *   settled with `completeAuthentication()`; a charge that times out after doing the work is `failNext(…,
 *   'hang_after_work')` (the charge is recorded, no answer is sent).
 * - `GET /v3/transactions/{id}/verify`, `GET /v3/transactions/verify_by_reference?tx_ref=`: the account's own
 *   transactions only, answered `{status: "success", message: "Transaction fetched successfully", data}` (the shape of
 *   fixtures/flutterwave/verify-transaction.json); unknown → HTTP 400 "No transaction was found for this id"
 *   (fixtures/flutterwave/error-not-found.json, its source in fixtures/SOURCES.md).
 * - `POST /v3/charges?type=ussd` `{tx_ref, account_bank, amount, currency, email, …}` (USSD guide,
 *   https://developer.flutterwave.com/docs/collections-inflow/ussd): the body validated with the SDK's own joi
 *   `ussdChargeSchema` (`services/schema/create.js`; refusals recorded in the request's `schemaErrors`, HTTP 400 with
 *   joi's message); an `account_bank` outside the guide's "Supported Banks" (kept verbatim with its version as
 *   test/connectors/fixtures/flutterwave/ussd-supported-banks.json, read here) → HTTP 400 with the stand-in's own text
 *   (Flutterwave prints none); otherwise a `pending` USSD transaction in the account's ledger (with its bank), answered
 *   in the shape of the SDK's `documentation/collections.md` USSD Sample Response (fixtures/flutterwave/charge-ussd.json:
 *   `auth_model: "USSD"`, `payment_code`, `meta.authorization: {mode: "ussd", note}`; the note is that sample's
 *   `*566*002*<payment_code>#`). It stays pending (the payer dials) until `completeAuthentication`.
 * - A `tx_ref` the account already used is refused (HTTP 400, "Oops! Duplicate transaction reference. Please check and
 *   try again", the wording of https://www.flutterwave.com/eg/support/general/common-bank-transaction-errors), so a charge is
 *   never made twice under one reference.
 *
 * Sources:
 * - `GET /v3/balances`: https://developer.flutterwave.com/reference/endpoints/misc/ ("Get multiple Wallet
 *   balances": `get https://api.flutterwave.com/v3/balances`, the secret key as a bearer token, "Unauthorized
 *   calls would return a 401 http code"), https://developer.flutterwave.com/v3.0.0/reference/get-all-wallet-balances,
 *   and flutterwave-node-v3 1.4.1 (Flutterwave/Node-v3 commit 537f9f4455f922a879e4f088cf0f596621c3517c)
 *   `services/misc/rave.balances.js` (`Misc.bal()` → `GET /v3/balances`). The answer is the Sample Response of
 *   that SDK's `documentation/misc.md` "Get all wallet balances" (the same sample as the reference page),
 *   kept verbatim as test/connectors/fixtures/flutterwave/balances.json: `{status: "success", message:
 *   "Wallet balances fetched", data: [{currency, available_balance, ledger_balance}, …]}`, amounts in major
 *   units (`253125.82`), as Flutterwave writes them.
 * - Errors (https://developer.flutterwave.com/docs/integration-guides/errors): every error is `{status: "error",
 *   message, data: null}`; "authorization errors [come] when you don't provide your secret key …, or when the
 *   key provided isn't correct. They come with a 401 Unauthorized status code", example message
 *   "Authorization required" (the stand-in's answer without a key). For a key that is no account's the
 *   stand-in answers "Invalid authorization key", the wording the project's Flutterwave tests already use
 *   (flutterwave-authenticate.test.ts, flutterwave-connector.test.ts) and public integrations report; the
 *   errors page prints no other. Server errors: HTTP 500 `{error_id, message: "Application error. Please
 *   contact support", code: "app_error"}` (same page).
 *
 * Accounts: the default one ({@link FLUTTERWAVE_STAND_IN_SECRET_KEY} or `options.secretKey`), one per key of
 * `options.accounts`, more with `addAccount()`. Each has its own wallet balances: every currency of the
 * documented sample at 0 until a test sets them (`setBalances`). Each request records the account it acted
 * on and the masked key (`keyHint`), never the key.
 *
 * Chargebacks, served whatever `payments` says (a test opens them with `openChargeback`):
 * - a ledger of chargebacks per account; `openChargeback(txRef, options, secretKey)` raises one against the account's
 *   transaction with that `tx_ref` (its id, `flw_ref`, amount and currency), or — when the account has none, e.g. a
 *   stand-in without `payments` — against a transaction of its own making (`options.currency`, default NGN);
 *   `resolveChargeback(id, status)` moves it as the bank or Flutterwave would (won, lost, …);
 * - `GET /v3/chargebacks` with the documented query (https://developer.flutterwave.com/reference/endpoints/charge-backs/):
 *   `page`, `status`, `from`/`to` (`YYYY-MM-DD`, on `created_at`, both days included), `currency` (the transaction's),
 *   `flw_ref`, `id` (the transaction id); newest first, 20 a page; answered `{status: "success", message: "Chargebacks
 *   fetched", meta: {page_info: {total, current_page, total_pages, page_size}}, data}` in the shape of
 *   test/connectors/fixtures/flutterwave/disputes/chargebacks-list.json (no currency in an item, as the sample);
 * - `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment, prooflink?}` on an open chargeback (`pending` or
 *   `initiated`): `accepted` ("Chargeback accepted", the sample of fixtures/flutterwave/disputes/chargeback-accept.json,
 *   whose `data` has no `tx_ref`/`transaction_id`) or `declined` ("Chargeback declined": the stand-in's wording), a
 *   history entry of Flutterwave's wording ("Merchant accepts claim", "Merchant denies claim with a proof"); refused
 *   HTTP 400 with the stand-in's own texts for a missing comment, another action, or a chargeback already answered;
 *   an unknown id → 404 "Chargeback not found" (the stand-in's: Flutterwave publishes no text).
 *
 * Transfers (payouts), served whatever `payments` says, with a ledger of transfers per account (by our reference):
 * - `POST /v3/transfers` (flutterwave-node-v3 1.4.1 `services/transfers/rave.initiate.js`; the body validated with the
 *   SDK's own joi `transferSchema` of `services/schema/create.js`: a body it refuses is HTTP 400 with joi's message,
 *   recorded in the request's `schemaErrors`); answered like the "Create a transfer" Sample Response of
 *   `documentation/transfers.md` (`message: "Transfer Queued Successfully"`, `data.status: "NEW"`, `fee: 26.875`).
 *   Stand-in choices (Flutterwave documents no test accounts for transfers): the account number or phone ending
 *   `0000000001` fails at once (`FAILED`, `complete_message` "DISBURSE FAILED: Insufficient wallet balance", the
 *   wording of Flutterwave's `provider_response` sample); every other transfer stays `NEW` until the test settles it
 *   ({@link FlutterwaveStandIn.settleTransfer}), which also builds the `transfer.completed` webhook (the shape of
 *   fixtures/flutterwave/webhook-transfer-completed.json) with the account's `verif-hash`. A reference used before is
 *   400 "Duplicate reference" (stand-in wording).
 * - `GET /v3/transfers/{id}` (`rave.fetch.js`): the account's own transfer (`message: "Transfer fetched"`), else 404
 *   "Transfer not found" (stand-in wording); `GET /v3/transfers?reference=` (`rave.retrieve.transfers.js`, the
 *   "Get all transfers" sample's envelope with `meta.page_info`): the account's transfers with that reference.
 * - `POST /v3/accounts/resolve` (`services/misc/rave.resolve.account.js`, `resolveSchema` of
 *   `services/schema/auxillary.js`): `{account_number, account_name: "STAND-IN HOLDER <last 4>"}` as the "Resolve
 *   account details" sample of `documentation/misc.md`; `0000000001` and numbers that are not 10 digits → 400 "Sorry,
 *   that account number is invalid, please check and try again" (stand-in wording).
 *
 * Not modelled: other charge types (but card and USSD), PIN/AVS/OTP steps, validate-charge, capture, void, refunds,
 * `GET /v3/balances/{currency}`, charge webhooks (a test builds a `charge.completed` body from the ledger), token expiry.
 *
 * Works under jest (CommonJS: the fixture is found through `__dirname`).
 */
import { createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';

/* ----------------------------------------------------------------- public types */

/**
 * What the stand-in does to one matching request (as the Paystack stand-in): `*_before_work` does
 * nothing then hangs, answers 500 or destroys the socket; `*_after_work` reads the balances, then does
 * the same (the read changes nothing, so before and after differ only in the log).
 */
export type FlutterwaveStandInFault =
  | 'hang_after_work'
  | 'hang_before_work'
  | 'error_500_after_work'
  | 'error_500_before_work'
  | 'reset_after_work'
  | 'reset_before_work';

/**
 * Which requests a fault applies to: `method` (any when omitted, case-insensitive), a `path` prefix of the
 * path without its query, and `secretKey` (only requests sent with that key; any when omitted).
 */
export interface FlutterwaveFaultMatch {
  method?: string;
  path: string;
  secretKey?: string;
}

/** A fault still armed. */
export interface FlutterwavePendingFault {
  match: FlutterwaveFaultMatch;
  fault: FlutterwaveStandInFault;
  remaining: number;
}

/** One wallet as `GET /v3/balances` lists it; amounts in major units, as Flutterwave writes them. */
export interface FlutterwaveWalletBalance {
  /** Upper-case ISO 4217. */
  currency: string;
  available_balance: number;
  ledger_balance: number;
}

/** One account of the stand-in: its secret key names it. Fake values, not real Flutterwave keys. */
export interface FlutterwaveStandInAccount {
  /** The merchant (account) id, as Flutterwave's `account_id` (a number). */
  accountId: number;
  /** `FLWSECK_TEST-…-X`: requests with it act on this account only. */
  secretKey: string;
  /** A 24-character encryption key (`FLWSECK_TEST` + 12 hex digits, as the dashboard's): not checked here. */
  encryptionKey: string;
  /** A webhook secret hash (`verif-hash`) to configure the adapter with: the stand-in sends no webhooks. */
  webhookHash: string;
}

/** One request as received (no body is read: `GET /v3/balances` has none). */
export interface FlutterwaveStandInRequest {
  seq: number;
  method: string;
  /** The path without the query. */
  path: string;
  /** The query string including `?`, or `''`. */
  query: string;
  /** The key was one of the stand-in's accounts'. */
  authorized: boolean;
  /** The account the key names, or null (missing key, or no account's: answered 401). */
  accountId: number | null;
  /** The key sent, masked (first 8 characters, `*`s, last 4), or null when none. The key itself is never kept. */
  keyHint: string | null;
  fault: FlutterwaveStandInFault | 'down' | null;
  outcome: 'pending' | 'answered' | 'hung' | 'reset';
  /** HTTP status sent (or that would have been sent before a hang/reset after work), null when none. */
  status: number | null;
  /** What the SDK's joi schema found wrong in a validated body (transfers, resolve), [] when valid, null when not validated. */
  schemaErrors: string[] | null;
  /** `reference` of a `POST /v3/transfers` body, else null (no other body field is kept). */
  reference: string | null;
}

/** A transfer as the stand-in's account holds it (a copy). Amounts in major units, as Flutterwave writes them. */
export interface FlutterwaveStandInTransfer {
  id: number;
  reference: string;
  accountBank: string;
  accountNumber: string;
  amount: number;
  currency: string;
  narration: string;
  status: 'NEW' | 'SUCCESSFUL' | 'FAILED';
  completeMessage: string;
  createdAt: string;
}

/** Options of {@link startFlutterwaveStandIn}. */
export interface FlutterwaveStandInOptions {
  /** The default account's secret key (default {@link FLUTTERWAVE_STAND_IN_SECRET_KEY}). */
  secretKey?: string;
  /** More secret keys accepted, each naming an account of its own (own balances). */
  accounts?: string[];
  /**
   * Serve card charges, tokenized charges and verify (see the file header); default false: only `GET /v3/balances`
   * is served, every other path answered 404 as before.
   */
  payments?: boolean;
}

/**
 * One transaction of an account's ledger (a copy). Amounts in major units, as Flutterwave writes them. `token` is the
 * card token the charge issued (a card charge, once successful) or charged (a tokenized charge); null otherwise.
 */
export interface FlutterwaveLedgerEntry {
  /** Flutterwave's numeric transaction id (`data.id`), unique across the stand-in's accounts. */
  id: number;
  /** The merchant's reference (`tx_ref`): Switchyard's payment id. */
  txRef: string;
  flwRef: string;
  /** Major units. */
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  /** `preauth` for a hold (`preauthorize: true`). */
  chargeType: 'normal' | 'preauth';
  /** How it was charged: card details (`POST /v3/charges?type=card`), a token (`POST /v3/tokenized-charges`), or USSD (`?type=ussd`). */
  via: 'card' | 'token' | 'ussd';
  token: string | null;
  email: string;
  /** The card's last four digits ('' for USSD). */
  last4: string;
  /** The `account_bank` of a USSD charge (the payer's bank code), null for a card. */
  accountBank: string | null;
  processorResponse: string;
  /** ISO 8601 UTC (`data.created_at`). */
  createdAt: string;
}

/** A chargeback's `status` as Flutterwave writes it (the stand-in takes any string, to model one the adapter does not know). */
export type FlutterwaveChargebackStatus = 'pending' | 'initiated' | 'accepted' | 'declined' | 'won' | 'lost' | (string & {});

/** A chargeback's `stage`. */
export type FlutterwaveChargebackStage = 'new' | 'second' | 'pre-arbitration' | 'arbitration' | (string & {});

/** Options of {@link FlutterwaveStandIn.openChargeback}. */
export interface FlutterwaveChargebackOptions {
  /** Major units, as Flutterwave writes them (default: the transaction's whole amount). */
  amount?: number;
  /** Default `initiated`. */
  status?: FlutterwaveChargebackStatus;
  /** Default `new`. */
  stage?: FlutterwaveChargebackStage;
  /** The reason (`comment`), default "Product/service not received" (the guide's sample). */
  comment?: string;
  /** ISO 8601 deadline (`due_date`); default 10 hours after `createdAt`; `null` to omit it. */
  dueDate?: string | null;
  /** ISO 8601 (`created_at`), default now. */
  createdAt?: string;
  /** The transaction's currency when the account has no transaction with that `tx_ref` (default NGN). */
  currency?: string;
}

/** A chargeback of an account's ledger (a copy), as the stand-in keeps it. Amounts in major units. */
export interface FlutterwaveChargebackEntry {
  /** Flutterwave's chargeback id, unique across the stand-in's accounts. */
  id: number;
  txRef: string;
  transactionId: number;
  flwRef: string;
  amount: number;
  currency: string;
  status: string;
  stage: string;
  comment: string;
  dueDate: string | null;
  createdAt: string;
  uploadedProof: string | null;
  /** Every `PUT /v3/chargebacks/{id}` body received for it, in order. */
  actions: { action: string; comment: string }[];
}

/** What {@link FlutterwaveStandIn.declineNext} and {@link FlutterwaveStandIn.requireAuthenticationNext} apply to: as a fault's match (path prefix `/v3/charges` or `/v3/tokenized-charges`). */
export type FlutterwaveChargeMatch = FlutterwaveFaultMatch;

/** A running stand-in. Obtain one with {@link startFlutterwaveStandIn}; `close()` it in `afterAll`. */
export interface FlutterwaveStandIn {
  /** `http://127.0.0.1:<port>`: the adapter's `baseUrl` / `FLUTTERWAVE_BASE_URL`. */
  readonly url: string;
  /** The default account's secret key. */
  readonly secretKey: string;
  /** The default account's id. */
  readonly accountId: number;
  /** Every request since start or `reset()`, in arrival order (live). */
  readonly requests: readonly FlutterwaveStandInRequest[];
  /** Opens another account: fresh keys and id; from now on requests with its secret key act on it only. */
  addAccount(): FlutterwaveStandInAccount;
  /**
   * Closes an account (e.g. the merchant generated new keys, which "will invalidate all existing keys",
   * https://developer.flutterwave.com/docs/integration-guides/authentication): its key is answered 401 from now on.
   * @throws Error for the default account's key or a key that is no account's
   */
  removeAccount(secretKey: string): void;
  /** Every account, the default one first, then in the order opened. */
  accounts(): FlutterwaveStandInAccount[];
  /** The default account's wallets, as `GET /v3/balances` lists them (a copy). */
  balances(): FlutterwaveWalletBalance[];
  /**
   * One account's wallets (a copy).
   * @throws Error when the key is no account's
   */
  balancesOf(secretKey: string): FlutterwaveWalletBalance[];
  /**
   * Sets one account's wallets (replacing them all, in the order given).
   * @throws Error when the key is no account's
   */
  setBalances(secretKey: string, balances: readonly FlutterwaveWalletBalance[]): void;
  /** Arms a fault for the next matching request (or the next `times`); faults apply in the order armed. */
  failNext(match: FlutterwaveFaultMatch, fault: FlutterwaveStandInFault, options?: { times?: number }): void;
  /** Faults armed and not used up. */
  pendingFaults(): FlutterwavePendingFault[];
  /**
   * `reset`: every request's socket is destroyed on arrival; `refuse`: the listener is closed, so
   * connections are refused (`ECONNREFUSED`); `false`: back to normal (same port).
   */
  setDown(mode: false | 'reset' | 'refuse'): Promise<void>;
  /**
   * The default account's ledger (payments), oldest first (copies).
   */
  ledger(): FlutterwaveLedgerEntry[];
  /**
   * One account's ledger, oldest first (copies).
   * @throws Error when the key is no account's
   */
  ledgerOf(secretKey: string): FlutterwaveLedgerEntry[];
  /**
   * The card tokens an account issued, oldest first.
   * @throws Error when the key is no account's
   */
  tokensOf(secretKey: string): string[];
  /**
   * The next matching charge (card or tokenized; `times` of them) is declined: recorded `failed` with
   * `processor_response` (default "Insufficient Funds"), answered 200 with `data.status: "failed"`; no token is issued.
   */
  declineNext(match: FlutterwaveChargeMatch, options?: { processorResponse?: string; times?: number }): void;
  /**
   * The next matching charge (`times` of them) waits for the payer's 3DS: recorded `pending`, answered 200 `{status:
   * "success", message: "Charge initiated", data: {status: "pending", meta: {authorization: {mode: "redirect", redirect}}}}`.
   */
  requireAuthenticationNext(match: FlutterwaveChargeMatch, options?: { times?: number }): void;
  /**
   * The payer finished (or failed) the 3DS of a pending charge of this account: it becomes `successful` (a card charge
   * issues its token then) or `failed`.
   * @throws Error when the account has no pending transaction with that `tx_ref`
   */
  completeAuthentication(secretKey: string, txRef: string, outcome: 'successful' | 'failed'): FlutterwaveLedgerEntry;
  /**
   * Raises a chargeback against the account's transaction with this `tx_ref` (or, when it has none, a transaction of
   * the stand-in's making in `options.currency`); served by `GET /v3/chargebacks` and `PUT /v3/chargebacks/{id}`.
   * @param secretKey the account's key (default: the default account's)
   * @throws Error when the key is no account's
   */
  openChargeback(txRef: string, options?: FlutterwaveChargebackOptions, secretKey?: string): FlutterwaveChargebackEntry;
  /**
   * Moves a chargeback (any account's) to `status` (and `stage` when given), with a history entry, as Flutterwave or the
   * bank would (`won`, `lost`, …).
   * @throws Error when no account has that chargeback
   */
  resolveChargeback(
    id: number,
    status: FlutterwaveChargebackStatus,
    options?: { stage?: FlutterwaveChargebackStage },
  ): FlutterwaveChargebackEntry;
  /** The default account's chargebacks, oldest first (copies). */
  chargebacks(): FlutterwaveChargebackEntry[];
  /**
   * One account's chargebacks, oldest first (copies).
   * @throws Error when the key is no account's
   */
  chargebacksOf(secretKey: string): FlutterwaveChargebackEntry[];
  /**
   * One account's transfers by reference (copies).
   * @throws Error when the key is no account's
   */
  transfersOf(secretKey: string): Record<string, FlutterwaveStandInTransfer>;
  /**
   * Moves a transfer as Flutterwave would and builds its `transfer.completed` webhook with the account's `verif-hash`.
   * @returns the raw body and headers to post to `/webhooks/flutterwave`
   * @throws Error when the account has no transfer with that reference
   */
  settleTransfer(
    secretKey: string,
    reference: string,
    status: 'SUCCESSFUL' | 'FAILED',
  ): { rawBody: string; headers: Record<string, string> };
  /** Forgets the requests, faults, armed declines and `down`, every ledger, chargeback and token, and puts every account's wallets back at 0; keeps the accounts. */
  reset(): void;
  /** Destroys hanging sockets and closes the server. */
  close(): Promise<void>;
}

/** The fake secret key of the default account. Not a real Flutterwave key. */
export const FLUTTERWAVE_STAND_IN_SECRET_KEY = 'FLWSECK_TEST-standin0000000000000000000000000000-X';
/** The default account's fake encryption key (24 characters). */
export const FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY = 'FLWSECK_TESTstandin00000';
/** The default account's fake webhook secret hash. */
export const FLUTTERWAVE_STAND_IN_WEBHOOK_HASH = 'switchyard-standin-secret-hash';
/** The default account's id. Fake. */
export const FLUTTERWAVE_STAND_IN_ACCOUNT_ID = 1_000_001;

/** Error messages, each with its source. */
export const FLUTTERWAVE_STAND_IN_MESSAGES = {
  /** The errors page's 401 example (https://developer.flutterwave.com/docs/integration-guides/errors): no key sent. */
  authorizationRequired: 'Authorization required',
  /** A key that is no account's: the wording the project's Flutterwave tests use (see the file header). */
  invalidKey: 'Invalid authorization key',
  /** The errors page's 500 example. */
  serverError: 'Application error. Please contact support',
  /** Stand-in: a path it does not serve. */
  notServed: (method: string, path: string) => `The Flutterwave stand-in serves only GET /v3/balances, not ${method} ${path}`,
  /** Stand-in with `payments: true`: a path it does not serve. */
  notServedWithPayments: (method: string, path: string) =>
    `The Flutterwave stand-in serves GET /v3/balances, POST /v3/charges?type=card|ussd, POST /v3/tokenized-charges and verify, not ${method} ${path}`,
  /** Stand-in: a USSD charge from a bank outside the USSD guide's "Supported Banks". Flutterwave publishes no text. */
  ussdBankUnsupported: 'USSD payments are not supported for this bank',
  /** verify and verify_by_reference of an unknown transaction: fixtures/flutterwave/error-not-found.json (HTTP 400; source in fixtures/SOURCES.md). */
  transactionNotFound: 'No transaction was found for this id',
  /** A validation error in the errors page's form ("Cardno is required"): a required field missing. */
  required: (field: string) => `${field} is required`,
  /** Stand-in: a `client` that the account's encryption key does not decrypt into a card payload. Flutterwave publishes no text. */
  undecryptable: 'The card payload could not be decrypted with the encryption key of this account',
  /** Stand-in: a token this account never issued (none, or another account's). Flutterwave publishes no text for it. */
  unknownToken: 'Invalid card token: no token of this merchant',
  /** Stand-in: a token charged with another e-mail than the one it is tied to (https://developer.flutterwave.com/docs/tokenization). Flutterwave publishes no text. */
  tokenEmailMismatch: 'The token is tied to another email address',
  /** A `tx_ref` used before: https://www.flutterwave.com/eg/support/general/common-bank-transaction-errors. */
  duplicateReference: 'Oops! Duplicate transaction reference. Please check and try again',
  /** Stand-in: `PUT /v3/chargebacks/{id}` of an id the account has none of. Flutterwave publishes no text. */
  chargebackNotFound: 'Chargeback not found',
  /** Stand-in: an `action` other than accept or decline (the reference: "It can be accept or decline"). */
  invalidAction: 'action must be one of accept or decline',
  /** Stand-in: a chargeback already answered or closed. Flutterwave publishes no text. */
  chargebackClosed: (status: string) => `This chargeback has already been ${status}`,
  /** Stand-in: a `page` that is not a positive integer. */
  invalidPage: 'page must be a positive integer',
  /** Stand-in: `from`/`to` not in the documented `YYYY-MM-DD`. */
  invalidDate: (field: string) => `${field} must be a date in the format YYYY-MM-DD`,
  /** `processor_response` of a declined charge: fixtures/flutterwave/charge-card-failed.json. */
  declined: 'Insufficient Funds',
} as const;

/* ------------------------------------------------------------------- internals */

type Json = Record<string, unknown>;

/** The documented sample (fixtures/flutterwave/balances.json). */
const BALANCES_SAMPLE = JSON.parse(
  readFileSync(join(__dirname, '..', 'connectors', 'fixtures', 'flutterwave', 'balances.json'), 'utf8'),
) as { status: string; message: string; data: FlutterwaveWalletBalance[] };

/** Every currency of the sample, at 0. */
const zeroBalances = (): FlutterwaveWalletBalance[] =>
  BALANCES_SAMPLE.data.map((w) => ({ currency: w.currency, available_balance: 0, ledger_balance: 0 }));

/** The card of a transaction or token, as Flutterwave describes it in `data.card`. */
interface CardInfo {
  first6: string;
  last4: string;
  type: string;
  issuer: string;
  country: string;
  /** `MM/YY`. */
  expiry: string;
}

interface Tx {
  id: number;
  txRef: string;
  flwRef: string;
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  chargeType: 'normal' | 'preauth';
  via: 'card' | 'token' | 'ussd';
  token: string | null;
  email: string;
  customerId: number;
  /** The card charged; null for USSD. */
  card: CardInfo | null;
  /** The payer's bank of a USSD charge, else null. */
  accountBank: string | null;
  processorResponse: string;
  narration: string;
  createdAt: string;
  /** The 3DS page of a pending charge. */
  redirect: string | null;
}

/** A card token an account issued: the card and the e-mail it is tied to. */
interface TokenRecord {
  card: CardInfo;
  email: string;
}

interface Account {
  id: number;
  secretKey: string;
  encryptionKey: string;
  webhookHash: string;
  balances: FlutterwaveWalletBalance[];
  ledger: Tx[];
  tokens: Map<string, TokenRecord>;
  chargebacks: Chargeback[];
  transfers: Map<string, StandInTransfer>;
}

type StandInTransfer = FlutterwaveStandInTransfer;

/** The part of a joi schema the stand-in uses (the SDK ships no types for its schemas). */
interface JoiSchema {
  validate(value: unknown, options: { abortEarly: boolean }): { error?: { details: { message: string }[] } };
}
/** The official SDK's request schemas for transfers and account resolution (see the file header). */
const SDK_SCHEMAS = {
  '/v3/transfers': (require('flutterwave-node-v3/services/schema/create') as { transferSchema: JoiSchema }).transferSchema,
  '/v3/accounts/resolve': (require('flutterwave-node-v3/services/schema/auxillary') as { resolveSchema: JoiSchema }).resolveSchema,
} as const;
/** The official SDK's request schema of `POST /v3/charges?type=ussd` (`ussdChargeSchema`, services/schema/create.js). */
const USSD_CHARGE_SCHEMA = (require('flutterwave-node-v3/services/schema/create') as { ussdChargeSchema: JoiSchema }).ussdChargeSchema;
/** The bank codes of the USSD guide's "Supported Banks" (test/connectors/fixtures/flutterwave/ussd-supported-banks.json). */
const USSD_SUPPORTED_BANK_CODES: ReadonlySet<string> = new Set(
  (
    JSON.parse(readFileSync(join(__dirname, '../connectors/fixtures/flutterwave/ussd-supported-banks.json'), 'utf8')) as {
      banks: { bank_code: string }[];
    }
  ).banks.map((b) => b.bank_code),
);

interface Chargeback {
  id: number;
  txRef: string;
  transactionId: number;
  flwRef: string;
  amount: number;
  currency: string;
  status: string;
  stage: string;
  comment: string;
  dueDate: string | null;
  createdAt: string;
  uploadedProof: string | null;
  history: Json[];
  actions: { action: string; comment: string }[];
}

/** Chargebacks a page of `GET /v3/chargebacks` holds (the samples' `page_size`). */
const CHARGEBACK_PAGE_SIZE = 20;

function publicChargeback(cb: Chargeback): FlutterwaveChargebackEntry {
  return {
    id: cb.id,
    txRef: cb.txRef,
    transactionId: cb.transactionId,
    flwRef: cb.flwRef,
    amount: cb.amount,
    currency: cb.currency,
    status: cb.status,
    stage: cb.stage,
    comment: cb.comment,
    dueDate: cb.dueDate,
    createdAt: cb.createdAt,
    uploadedProof: cb.uploadedProof,
    actions: cb.actions.map((a) => ({ ...a })),
  };
}

/** An armed charge outcome ({@link FlutterwaveStandIn.declineNext}, {@link FlutterwaveStandIn.requireAuthenticationNext}). */
interface ArmedOutcome {
  match: FlutterwaveChargeMatch;
  outcome: { kind: 'decline'; processorResponse: string } | { kind: 'authenticate' };
  remaining: number;
}

interface Answer {
  status: number;
  body: unknown;
}

const refusal = (status: number, message: string): Answer => ({ status, body: { status: 'error', message, data: null } });
const SERVER_ERROR = (): Answer => ({
  status: 500,
  body: {
    error_id: `ERRNO${randomBytes(6).readUIntBE(0, 6)}T${Date.now()}`,
    message: FLUTTERWAVE_STAND_IN_MESSAGES.serverError,
    code: 'app_error',
  },
});

function maskKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
}

function bearerKey(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Bodies larger than this are refused (a card charge is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

/** The card brand Flutterwave names in `card.type`, from the card number's leading digits (stand-in's table). */
function cardType(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(506[01]|507[89]|6500)/.test(number)) return 'VERVE';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMERICAN EXPRESS';
  return 'CARD';
}

/** A card token in the form of every official sample (`flw-t1nf-<32 hex>-m03k`). */
const newCardToken = () => `flw-t1nf-${hex(16)}-m03k`;

/** A major-unit amount as a charge body may carry it (a JSON number, or a decimal string such as `"1500.00"`), or NaN. */
function majorAmount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return Number.NaN;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

function publicEntry(tx: Tx): FlutterwaveLedgerEntry {
  return {
    id: tx.id,
    txRef: tx.txRef,
    flwRef: tx.flwRef,
    amount: tx.amount,
    currency: tx.currency,
    status: tx.status,
    chargeType: tx.chargeType,
    via: tx.via,
    token: tx.token,
    email: tx.email,
    last4: tx.card?.last4 ?? '',
    accountBank: tx.accountBank,
    processorResponse: tx.processorResponse,
    createdAt: tx.createdAt,
  };
}

/* ------------------------------------------------------------------- the server */

class StandIn implements FlutterwaveStandIn {
  readonly secretKey: string;
  readonly accountId = FLUTTERWAVE_STAND_IN_ACCOUNT_ID;
  url = '';
  readonly #server: Server;
  readonly #accounts = new Map<string, Account>();
  readonly #default: Account;
  #port = 0;
  #requests: FlutterwaveStandInRequest[] = [];
  #faults: FlutterwavePendingFault[] = [];
  #down: false | 'reset' | 'refuse' = false;
  #hanging = new Set<ServerResponse>();
  #sockets = new Set<Socket>();
  #generation = 0;
  #nextAccountId = FLUTTERWAVE_STAND_IN_ACCOUNT_ID + 1;
  readonly #payments: boolean;
  #armed: ArmedOutcome[] = [];
  #nextTransactionId = 7_000_001;
  #nextCustomerId = 3_000_001;
  #nextChargebackId = 2_001;

  constructor(options: FlutterwaveStandInOptions) {
    this.secretKey = options.secretKey ?? FLUTTERWAVE_STAND_IN_SECRET_KEY;
    this.#payments = options.payments === true;
    this.#default = {
      id: FLUTTERWAVE_STAND_IN_ACCOUNT_ID,
      secretKey: this.secretKey,
      encryptionKey: FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY,
      webhookHash: FLUTTERWAVE_STAND_IN_WEBHOOK_HASH,
      balances: zeroBalances(),
      ledger: [],
      tokens: new Map(),
      chargebacks: [],
      transfers: new Map(),
    };
    this.#accounts.set(this.secretKey, this.#default);
    for (const key of options.accounts ?? []) {
      if (!/^\S+$/.test(key)) throw new Error('Flutterwave stand-in: an account key must be a non-empty string without spaces');
      if (this.#accounts.has(key)) throw new Error(`Flutterwave stand-in: two accounts with the key ${maskKey(key)}`);
      this.#open(key);
    }
    this.#server = createServer((req, res) => {
      res.on('error', () => undefined);
      this.#onRequest(req, res);
    });
    this.#server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolvePromise, reject) => {
      const onError = (err: Error) => reject(err);
      this.#server.once('error', onError);
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', onError);
        resolvePromise();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.#port}`;
  }

  get requests(): readonly FlutterwaveStandInRequest[] {
    return this.#requests;
  }

  #open(secretKey: string): Account {
    const account: Account = {
      id: this.#nextAccountId++,
      secretKey,
      encryptionKey: `FLWSECK_TEST${hex(6)}`,
      webhookHash: `standin-hash-${hex(8)}`,
      balances: zeroBalances(),
      ledger: [],
      tokens: new Map(),
      chargebacks: [],
      transfers: new Map(),
    };
    this.#accounts.set(secretKey, account);
    return account;
  }

  #account(secretKey: string): Account {
    const account = this.#accounts.get(secretKey);
    if (!account) throw new Error(`Flutterwave stand-in: no account has the key ${maskKey(secretKey)}`);
    return account;
  }

  addAccount(): FlutterwaveStandInAccount {
    let key: string;
    do key = `FLWSECK_TEST-${hex(16)}-X`;
    while (this.#accounts.has(key));
    return publicAccount(this.#open(key));
  }

  removeAccount(secretKey: string): void {
    if (this.#account(secretKey) === this.#default) throw new Error('Flutterwave stand-in: the default account cannot be removed');
    this.#accounts.delete(secretKey);
  }

  accounts(): FlutterwaveStandInAccount[] {
    return [...this.#accounts.values()].map(publicAccount);
  }

  balances(): FlutterwaveWalletBalance[] {
    return this.balancesOf(this.secretKey);
  }

  balancesOf(secretKey: string): FlutterwaveWalletBalance[] {
    return this.#account(secretKey).balances.map((w) => ({ ...w }));
  }

  setBalances(secretKey: string, balances: readonly FlutterwaveWalletBalance[]): void {
    this.#account(secretKey).balances = balances.map((w) => ({ ...w }));
  }

  failNext(match: FlutterwaveFaultMatch, fault: FlutterwaveStandInFault, options: { times?: number } = {}): void {
    const times = options.times ?? 1;
    if (!Number.isSafeInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    this.#faults.push({ match: { ...match }, fault, remaining: times });
  }

  pendingFaults(): FlutterwavePendingFault[] {
    return this.#faults.map(({ match, fault, remaining }) => ({ match: { ...match }, fault, remaining }));
  }

  ledger(): FlutterwaveLedgerEntry[] {
    return this.ledgerOf(this.secretKey);
  }

  ledgerOf(secretKey: string): FlutterwaveLedgerEntry[] {
    return this.#account(secretKey).ledger.map(publicEntry);
  }

  tokensOf(secretKey: string): string[] {
    return [...this.#account(secretKey).tokens.keys()];
  }

  declineNext(match: FlutterwaveChargeMatch, options: { processorResponse?: string; times?: number } = {}): void {
    this.#arm(
      match,
      { kind: 'decline', processorResponse: options.processorResponse ?? FLUTTERWAVE_STAND_IN_MESSAGES.declined },
      options.times,
    );
  }

  requireAuthenticationNext(match: FlutterwaveChargeMatch, options: { times?: number } = {}): void {
    this.#arm(match, { kind: 'authenticate' }, options.times);
  }

  #arm(match: FlutterwaveChargeMatch, outcome: ArmedOutcome['outcome'], times = 1): void {
    if (!Number.isSafeInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    this.#armed.push({ match: { ...match }, outcome, remaining: times });
  }

  completeAuthentication(secretKey: string, txRef: string, outcome: 'successful' | 'failed'): FlutterwaveLedgerEntry {
    const account = this.#account(secretKey);
    const tx = account.ledger.find((t) => t.txRef === txRef && t.status === 'pending');
    if (!tx) throw new Error(`Flutterwave stand-in: no pending transaction ${txRef} in account ${account.id}`);
    tx.redirect = null;
    if (outcome === 'failed') {
      tx.status = 'failed';
      tx.processorResponse = FLUTTERWAVE_STAND_IN_MESSAGES.declined;
    } else {
      tx.status = 'successful';
      tx.processorResponse = 'Approved';
      if (!tx.token && tx.card) tx.token = this.#issueToken(account, tx.card, tx.email);
    }
    return publicEntry(tx);
  }

  openChargeback(
    txRef: string,
    options: FlutterwaveChargebackOptions = {},
    secretKey: string = this.secretKey,
  ): FlutterwaveChargebackEntry {
    const account = this.#account(secretKey);
    const tx = account.ledger.findLast((t) => t.txRef === txRef);
    const createdAt = options.createdAt ?? new Date().toISOString();
    const amount = options.amount ?? tx?.amount ?? 100;
    if (!(amount > 0)) throw new RangeError('Flutterwave stand-in: a chargeback amount must be positive');
    const stage = options.stage ?? 'new';
    const status = options.status ?? 'initiated';
    const cb: Chargeback = {
      id: this.#nextChargebackId++,
      txRef,
      transactionId: tx?.id ?? this.#nextTransactionId++,
      flwRef: tx?.flwRef ?? `FLW-MOCK-${hex(16)}`,
      amount,
      currency: tx?.currency ?? (options.currency ?? 'NGN').toUpperCase(),
      status,
      stage,
      comment: options.comment ?? 'Product/service not received',
      dueDate: options.dueDate === undefined ? new Date(Date.parse(createdAt) + 10 * 60 * 60 * 1000).toISOString() : options.dueDate,
      createdAt,
      uploadedProof: null,
      history: [
        { action: 'initiated', stage, date: createdAt, description: 'Debit and hold chargeback amount', source: 'availablebalance' },
        { action: 'notification', date: createdAt, description: 'Email Notification Sent' },
      ],
      actions: [],
    };
    account.chargebacks.push(cb);
    return publicChargeback(cb);
  }

  resolveChargeback(
    id: number,
    status: FlutterwaveChargebackStatus,
    options: { stage?: FlutterwaveChargebackStage } = {},
  ): FlutterwaveChargebackEntry {
    const cb = this.#chargeback(id);
    if (!cb) throw new Error(`Flutterwave stand-in: no chargeback ${id}`);
    cb.status = status;
    if (options.stage) cb.stage = options.stage;
    cb.history.push({ action: status, stage: cb.stage, date: new Date().toISOString(), description: `Chargeback ${status}` });
    return publicChargeback(cb);
  }

  chargebacks(): FlutterwaveChargebackEntry[] {
    return this.chargebacksOf(this.secretKey);
  }

  chargebacksOf(secretKey: string): FlutterwaveChargebackEntry[] {
    return this.#account(secretKey).chargebacks.map(publicChargeback);
  }

  #chargeback(id: number, account?: Account): Chargeback | undefined {
    for (const a of account ? [account] : this.#accounts.values()) {
      const cb = a.chargebacks.find((c) => c.id === id);
      if (cb) return cb;
    }
    return undefined;
  }

  async setDown(mode: false | 'reset' | 'refuse'): Promise<void> {
    const wasRefusing = this.#down === 'refuse';
    this.#down = mode;
    if (mode === 'refuse' && !wasRefusing) {
      this.#dropPending();
      await new Promise<void>((r) => {
        this.#server.close(() => r());
        for (const s of this.#sockets) s.destroy();
      });
      // Let clients see their pooled keep-alive sockets close, so the next request is refused.
      await new Promise((r) => setTimeout(r, 25));
    } else if (mode !== 'refuse' && wasRefusing) {
      await this.listen(this.#port);
    }
  }

  reset(): void {
    this.#generation += 1;
    this.#requests.length = 0;
    for (const a of this.#accounts.values()) {
      a.balances = zeroBalances();
      a.ledger = [];
      a.tokens = new Map();
      a.chargebacks = [];
      a.transfers = new Map();
    }
    this.#faults = [];
    this.#armed = [];
    this.#dropPending();
    if (this.#down === 'refuse') void this.setDown(false);
    this.#down = false;
  }

  async close(): Promise<void> {
    this.#generation += 1;
    this.#dropPending();
    if (this.#down === 'refuse') return;
    this.#server.closeAllConnections();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }

  /* ---------------------------------------------------------------- plumbing */

  #dropPending(): void {
    for (const res of this.#hanging) res.socket?.destroy();
    this.#hanging.clear();
  }

  #takeFault(method: string, path: string, key: string | null): FlutterwavePendingFault | null {
    const index = this.#faults.findIndex(
      (f) =>
        (!f.match.method || f.match.method.toUpperCase() === method) &&
        (f.match.secretKey === undefined || f.match.secretKey === key) &&
        path.startsWith(f.match.path),
    );
    if (index < 0) return null;
    const fault = this.#faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://stand-in.invalid');
    const key = bearerKey(req.headers.authorization);
    const account = key === null ? null : (this.#accounts.get(key) ?? null);
    const record: FlutterwaveStandInRequest = {
      seq: this.#requests.length + 1,
      method,
      path: url.pathname,
      query: url.search,
      authorized: account !== null,
      accountId: account?.id ?? null,
      keyHint: key === null ? null : maskKey(key),
      fault: null,
      outcome: 'pending',
      status: null,
      schemaErrors: null,
      reference: null,
    };
    this.#requests.push(record);
    if (this.#down === 'reset') {
      record.fault = 'down';
      record.outcome = 'reset';
      req.socket.destroy();
      return;
    }
    const generation = this.#generation;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      if (generation !== this.#generation) return;
      const body = size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8');
      this.#serve(method, url, key, account, record, res, body);
    });
  }

  #hang(res: ServerResponse, record: FlutterwaveStandInRequest): void {
    record.outcome = 'hung';
    this.#hanging.add(res);
    res.on('close', () => this.#hanging.delete(res));
  }

  #send(res: ServerResponse, record: FlutterwaveStandInRequest, answer: Answer): void {
    record.status = answer.status;
    record.outcome = 'answered';
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(answer.body));
  }

  #serve(
    method: string,
    url: URL,
    key: string | null,
    account: Account | null,
    record: FlutterwaveStandInRequest,
    res: ServerResponse,
    body: string | null,
  ): void {
    const path = url.pathname;
    const fault = this.#takeFault(method, path, key);
    record.fault = fault?.fault ?? null;
    switch (fault?.fault) {
      case 'hang_before_work':
        this.#hang(res, record);
        return;
      case 'error_500_before_work':
        this.#send(res, record, SERVER_ERROR());
        return;
      case 'reset_before_work':
        record.outcome = 'reset';
        res.socket?.destroy();
        return;
      default:
        break;
    }
    const answer = this.#execute(method, url, key, account, body, record);
    switch (fault?.fault) {
      case 'hang_after_work':
        record.status = answer.status;
        this.#hang(res, record);
        return;
      case 'reset_after_work':
        record.status = answer.status;
        record.outcome = 'reset';
        res.socket?.destroy();
        return;
      case 'error_500_after_work':
        this.#send(res, record, SERVER_ERROR());
        return;
      default:
        this.#send(res, record, answer);
    }
  }

  #execute(
    method: string,
    url: URL,
    key: string | null,
    account: Account | null,
    body: string | null,
    record: FlutterwaveStandInRequest,
  ): Answer {
    const path = url.pathname;
    if (key === null) return refusal(401, FLUTTERWAVE_STAND_IN_MESSAGES.authorizationRequired);
    if (!account) return refusal(401, FLUTTERWAVE_STAND_IN_MESSAGES.invalidKey);
    const transfers = this.#transfers(method, url, account, body, record);
    if (transfers) return transfers;
    if (method === 'GET' && path === '/v3/balances') {
      const answer: Json = { ...BALANCES_SAMPLE, data: account.balances.map((w) => ({ ...w })) };
      return { status: 200, body: answer };
    }
    if (method === 'GET' && path === '/v3/chargebacks') return this.#listChargebacks(account, url);
    const chargebackPath = /^\/v3\/chargebacks\/([^/]+)$/.exec(path);
    if (method === 'PUT' && chargebackPath) return this.#actOnChargeback(account, decodeURIComponent(chargebackPath[1]!), body);
    if (!this.#payments) return refusal(404, FLUTTERWAVE_STAND_IN_MESSAGES.notServed(method, path));
    if (method === 'POST' && path === '/v3/charges' && url.searchParams.get('type') === 'card') return this.#cardCharge(account, key, body);
    if (method === 'POST' && path === '/v3/charges' && url.searchParams.get('type') === 'ussd')
      return this.#ussdCharge(account, body, record);
    if (method === 'POST' && path === '/v3/tokenized-charges') return this.#tokenizedCharge(account, key, body);
    if (method === 'GET' && path === '/v3/transactions/verify_by_reference') {
      const txRef = url.searchParams.get('tx_ref');
      if (!txRef) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('tx_ref'));
      return this.#verified(account.ledger.findLast((t) => t.txRef === txRef));
    }
    const byId = /^\/v3\/transactions\/(\d+)\/verify$/.exec(path);
    if (method === 'GET' && byId) return this.#verified(account.ledger.find((t) => t.id === Number(byId[1])));
    return refusal(404, FLUTTERWAVE_STAND_IN_MESSAGES.notServedWithPayments(method, path));
  }

  /* ---------------------------------------------------------------- chargebacks */

  /** A chargeback as `GET /v3/chargebacks` lists it (fixtures/flutterwave/disputes/chargebacks-list.json). */
  /** The transfer routes (see the file header), or undefined for another path. */
  #transfers(method: string, url: URL, account: Account, body: string | null, record: FlutterwaveStandInRequest): Answer | undefined {
    const path = url.pathname;
    const schema = method === 'POST' ? SDK_SCHEMAS[path as keyof typeof SDK_SCHEMAS] : undefined;
    let parsed: Json = {};
    if (schema) {
      try {
        parsed = JSON.parse(body ?? '{}') as Json;
      } catch {
        return refusal(400, 'Invalid JSON body');
      }
      record.schemaErrors = schema.validate(parsed, { abortEarly: false }).error?.details.map((d) => d.message) ?? [];
      if (record.schemaErrors.length > 0) return refusal(400, record.schemaErrors.join('; '));
    }
    if (method === 'POST' && path === '/v3/transfers') {
      const reference = String(parsed.reference ?? '');
      record.reference = reference;
      if (account.transfers.has(reference)) return refusal(400, 'Duplicate reference');
      const accountNumber = String(parsed.account_number ?? '');
      const fails = accountNumber.endsWith('0000000001');
      const t: StandInTransfer = {
        id: this.#nextTransactionId++,
        reference,
        accountBank: String(parsed.account_bank ?? ''),
        accountNumber,
        amount: Number(parsed.amount),
        currency: String(parsed.currency),
        narration: String(parsed.narration ?? ''),
        status: fails ? 'FAILED' : 'NEW',
        completeMessage: fails ? 'DISBURSE FAILED: Insufficient wallet balance' : '',
        createdAt: new Date().toISOString(),
      };
      account.transfers.set(reference, t);
      return { status: 200, body: { status: 'success', message: 'Transfer Queued Successfully', data: transferJson(t) } };
    }
    if (method === 'GET' && path === '/v3/transfers') {
      const reference = url.searchParams.get('reference');
      const data = [...account.transfers.values()].filter((t) => reference === null || t.reference === reference).map(transferJson);
      return {
        status: 200,
        body: {
          status: 'success',
          message: 'Transfers fetched',
          meta: { page_info: { total: data.length, current_page: 1, total_pages: 1 } },
          data,
        },
      };
    }
    const byId = /^\/v3\/transfers\/(\d+)$/.exec(path);
    if (method === 'GET' && byId) {
      const t = [...account.transfers.values()].find((x) => x.id === Number(byId[1]));
      if (!t) return refusal(404, 'Transfer not found');
      return { status: 200, body: { status: 'success', message: 'Transfer fetched', data: transferJson(t) } };
    }
    if (method === 'POST' && path === '/v3/accounts/resolve') {
      const number = String(parsed.account_number ?? '');
      if (!/^\d{10}$/.test(number) || number === '0000000001') {
        return refusal(400, 'Sorry, that account number is invalid, please check and try again');
      }
      return {
        status: 200,
        body: {
          status: 'success',
          message: 'Account details fetched',
          data: { account_number: number, account_name: `STAND-IN HOLDER ${number.slice(-4)}` },
        },
      };
    }
    return undefined;
  }

  transfersOf(secretKey: string): Record<string, FlutterwaveStandInTransfer> {
    return Object.fromEntries([...this.#account(secretKey).transfers.entries()].map(([k, t]) => [k, { ...t }]));
  }

  settleTransfer(
    secretKey: string,
    reference: string,
    status: 'SUCCESSFUL' | 'FAILED',
  ): { rawBody: string; headers: Record<string, string> } {
    const account = this.#account(secretKey);
    const t = account.transfers.get(reference);
    if (!t) throw new Error(`Flutterwave stand-in: no transfer ${reference}`);
    t.status = status;
    t.completeMessage = status === 'SUCCESSFUL' ? 'Successful' : 'DISBURSE FAILED: Insufficient wallet balance';
    const rawBody = JSON.stringify({ event: 'transfer.completed', 'event.type': 'Transfer', data: transferJson(t) });
    return { rawBody, headers: { 'content-type': 'application/json', 'verif-hash': account.webhookHash } };
  }

  #chargebackJson(cb: Chargeback, withTransaction: boolean): Json {
    const json: Json = {
      id: cb.id,
      amount: cb.amount,
      flw_ref: cb.flwRef,
      status: cb.status,
      stage: cb.stage,
      comment: cb.comment,
      meta: { uploaded_proof: cb.uploadedProof, history: cb.history.map((h) => ({ ...h })) },
      due_date: cb.dueDate,
      settlement_id: 'N/A',
      created_at: cb.createdAt,
    };
    if (cb.dueDate === null) delete json.due_date;
    if (withTransaction) {
      json.transaction_id = cb.transactionId;
      json.tx_ref = cb.txRef;
    }
    return json;
  }

  /** `GET /v3/chargebacks` with its documented filters, newest first, 20 a page. */
  #listChargebacks(account: Account, url: URL): Answer {
    const q = url.searchParams;
    const page = q.has('page') ? Number(q.get('page')) : 1;
    if (!Number.isSafeInteger(page) || page < 1) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.invalidPage);
    for (const field of ['from', 'to'] as const) {
      const value = q.get(field);
      if (value !== null && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.invalidDate(field));
    }
    const from = q.get('from');
    const to = q.get('to');
    const matching = account.chargebacks
      .filter((cb) => {
        const day = cb.createdAt.slice(0, 10);
        if (from !== null && day < from) return false;
        if (to !== null && day > to) return false;
        if (q.has('status') && cb.status !== q.get('status')) return false;
        if (q.has('currency') && cb.currency !== q.get('currency')?.toUpperCase()) return false;
        if (q.has('flw_ref') && cb.flwRef !== q.get('flw_ref')) return false;
        if (q.has('id') && String(cb.transactionId) !== q.get('id')) return false;
        return true;
      })
      .reverse();
    const totalPages = Math.ceil(matching.length / CHARGEBACK_PAGE_SIZE);
    const data = matching.slice((page - 1) * CHARGEBACK_PAGE_SIZE, page * CHARGEBACK_PAGE_SIZE).map((cb) => this.#chargebackJson(cb, true));
    return {
      status: 200,
      body: {
        status: 'success',
        message: 'Chargebacks fetched',
        meta: { page_info: { total: matching.length, current_page: page, total_pages: totalPages, page_size: CHARGEBACK_PAGE_SIZE } },
        data,
      },
    };
  }

  /** `PUT /v3/chargebacks/{id}` `{action, comment, prooflink?}` on one of the account's open chargebacks. */
  #actOnChargeback(account: Account, idText: string, body: string | null): Answer {
    const cb = /^\d+$/.test(idText) ? this.#chargeback(Number(idText), account) : undefined;
    if (!cb) return refusal(404, FLUTTERWAVE_STAND_IN_MESSAGES.chargebackNotFound);
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body ?? '') as Record<string, unknown>;
    } catch {
      payload = {};
    }
    if (!payload || typeof payload !== 'object') payload = {};
    const action = text(payload.action);
    const comment = text(payload.comment);
    if (!action) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('action'));
    if (action !== 'accept' && action !== 'decline') return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.invalidAction);
    if (!comment) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('comment'));
    if (cb.status !== 'pending' && cb.status !== 'initiated')
      return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.chargebackClosed(cb.status));
    cb.actions.push({ action, comment });
    const proof = text(payload.prooflink) || text(payload.uploadurl);
    if (action === 'accept') {
      cb.status = 'accepted';
      cb.history.push({ action: 'accept', stage: cb.stage, date: new Date().toISOString(), description: 'Merchant accepts claim' });
    } else {
      cb.status = 'declined';
      if (proof) cb.uploadedProof = proof;
      cb.history.push({
        action: 'decline',
        stage: cb.stage,
        ...(proof ? { url: proof } : {}),
        date: new Date().toISOString(),
        description: 'Merchant denies claim with a proof',
      });
    }
    return {
      status: 200,
      body: {
        status: 'success',
        message: action === 'accept' ? 'Chargeback accepted' : 'Chargeback declined',
        data: this.#chargebackJson(cb, false),
      },
    };
  }

  /* ---------------------------------------------------------------- payments */

  #verified(tx: Tx | undefined): Answer {
    if (!tx) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.transactionNotFound);
    return { status: 200, body: { status: 'success', message: 'Transaction fetched successfully', data: this.#transaction(tx) } };
  }

  /** The armed outcome for this charge request, if one matches (used up as it is taken). */
  #takeArmed(path: string, key: string): ArmedOutcome['outcome'] | null {
    const index = this.#armed.findIndex(
      (a) =>
        (!a.match.method || a.match.method.toUpperCase() === 'POST') &&
        (a.match.secretKey === undefined || a.match.secretKey === key) &&
        path.startsWith(a.match.path),
    );
    if (index < 0) return null;
    const armed = this.#armed[index]!;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.#armed.splice(index, 1);
    return armed.outcome;
  }

  #issueToken(account: Account, card: CardInfo, email: string): string {
    let token: string;
    do token = newCardToken();
    while (account.tokens.has(token));
    account.tokens.set(token, { card, email });
    return token;
  }

  /** Records a charge in the account's ledger with its outcome (successful unless an armed outcome says otherwise). */
  #record(
    account: Account,
    key: string,
    path: string,
    charge: Omit<Tx, 'id' | 'flwRef' | 'status' | 'processorResponse' | 'createdAt' | 'redirect' | 'customerId' | 'accountBank'>,
  ): Tx {
    const armed = this.#takeArmed(path, key);
    const id = this.#nextTransactionId++;
    const flwRef = `FLW-MOCK-${hex(16)}`;
    const tx: Tx = {
      ...charge,
      accountBank: null,
      id,
      flwRef,
      status: armed?.kind === 'decline' ? 'failed' : armed?.kind === 'authenticate' ? 'pending' : 'successful',
      processorResponse: armed?.kind === 'decline' ? armed.processorResponse : 'Approved',
      createdAt: new Date().toISOString(),
      redirect: armed?.kind === 'authenticate' ? `${this.url}/mockvbvpage?ref=${flwRef}&code=00&message=Approved` : null,
      customerId: this.#nextCustomerId++,
    };
    if (tx.status !== 'successful') tx.token = charge.via === 'token' ? charge.token : null;
    else if (charge.via === 'card' && charge.card) tx.token = this.#issueToken(account, charge.card, charge.email);
    account.ledger.push(tx);
    return tx;
  }

  /** The transaction as Flutterwave's answers carry it (fixtures charge-card-successful.json, verify-transaction.json). */
  #transaction(tx: Tx): Json {
    if (!tx.card) return this.#ussdTransaction(tx);
    const card: Json = {
      first_6digits: tx.card.first6,
      last_4digits: tx.card.last4,
      issuer: tx.card.issuer,
      country: tx.card.country,
      type: tx.card.type,
      expiry: tx.card.expiry,
    };
    // The token shows on a successful charge only (a card charge issues it then; a tokenized charge echoes it).
    if (tx.status === 'successful' && tx.token) card.token = tx.token;
    return {
      ...this.#transactionFields(tx),
      auth_model: tx.redirect ? 'VBVSECURECODE' : 'NOAUTH',
      auth_url: tx.redirect ?? 'N/A',
      payment_type: 'card',
      card,
      meta: tx.redirect ? { authorization: { mode: 'redirect', redirect: tx.redirect } } : null,
    };
  }

  /** A USSD transaction as the SDK's USSD Sample Response carries it (fixtures/flutterwave/charge-ussd.json `data`). */
  #ussdTransaction(tx: Tx): Json {
    return { ...this.#transactionFields(tx), auth_model: 'USSD', payment_type: 'ussd', payment_code: String(tx.id) };
  }

  /** The fields a card and a USSD transaction share, in both samples (charge-card-successful.json, charge-ussd.json). */
  #transactionFields(tx: Tx): Json {
    return {
      id: tx.id,
      tx_ref: tx.txRef,
      flw_ref: tx.flwRef,
      device_fingerprint: 'N/A',
      amount: tx.amount,
      charged_amount: tx.amount,
      app_fee: 0,
      merchant_fee: 0,
      processor_response: tx.processorResponse,
      currency: tx.currency,
      ip: '127.0.0.1',
      narration: tx.narration,
      status: tx.status,
      fraud_status: 'ok',
      charge_type: tx.chargeType,
      created_at: tx.createdAt,
      account_id: this.#accountIdOf(tx),
      customer: { id: tx.customerId, phone_number: null, name: 'Anonymous customer', email: tx.email, created_at: tx.createdAt },
    };
  }

  #accountIdOf(tx: Tx): number {
    for (const a of this.#accounts.values()) if (a.ledger.includes(tx)) return a.id;
    return 0;
  }

  /** The answer of a charge: `{status: "success", message, data}` (decline and 3DS included, as the official samples). */
  #chargeAnswer(tx: Tx, message: string): Answer {
    return {
      status: 200,
      body: { status: 'success', message: tx.status === 'successful' ? message : 'Charge initiated', data: this.#transaction(tx) },
    };
  }

  /** `POST /v3/charges?type=card` `{client}`: decrypts with the account's key and charges the card (NOAUTH). */
  #cardCharge(account: Account, key: string, body: string | null): Answer {
    let client: unknown;
    try {
      client = (JSON.parse(body ?? '') as { client?: unknown }).client;
    } catch {
      client = undefined;
    }
    if (typeof client !== 'string' || !client) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('client'));
    let payload: Record<string, unknown>;
    try {
      const decipher = createDecipheriv('des-ede3', Buffer.from(account.encryptionKey, 'utf8'), null);
      payload = JSON.parse(Buffer.concat([decipher.update(Buffer.from(client, 'base64')), decipher.final()]).toString('utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.undecryptable);
    }
    for (const field of ['card_number', 'cvv', 'expiry_month', 'expiry_year', 'currency', 'amount', 'email', 'tx_ref']) {
      if (!text(payload[field])) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required(field));
    }
    const amount = majorAmount(payload.amount);
    if (!(amount > 0)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('amount'));
    const txRef = text(payload.tx_ref);
    if (account.ledger.some((t) => t.txRef === txRef)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.duplicateReference);
    const number = text(payload.card_number).replace(/\s+/g, '');
    const type = cardType(number);
    const card: CardInfo = {
      first6: number.slice(0, 6),
      last4: number.slice(-4),
      type,
      issuer: `${type} STAND-IN BANK`,
      country: 'NG',
      expiry: `${text(payload.expiry_month).padStart(2, '0')}/${text(payload.expiry_year).slice(-2).padStart(2, '0')}`,
    };
    const tx = this.#record(account, key, '/v3/charges', {
      txRef,
      amount,
      currency: text(payload.currency).toUpperCase(),
      chargeType: payload.preauthorize === true ? 'preauth' : 'normal',
      via: 'card',
      token: null,
      email: text(payload.email),
      card,
      narration: 'CARD Transaction ',
    });
    return this.#chargeAnswer(tx, 'Charge initiated');
  }

  /** `POST /v3/charges?type=ussd`: the SDK's schema, a bank of the guide's list, then a pending USSD transaction. */
  #ussdCharge(account: Account, body: string | null, record: FlutterwaveStandInRequest): Answer {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body ?? '') as Record<string, unknown>;
    } catch {
      return refusal(400, 'Invalid JSON body');
    }
    record.schemaErrors = USSD_CHARGE_SCHEMA.validate(payload, { abortEarly: false }).error?.details.map((d) => d.message) ?? [];
    if (record.schemaErrors.length > 0) return refusal(400, record.schemaErrors.join('; '));
    const accountBank = text(payload.account_bank);
    if (!USSD_SUPPORTED_BANK_CODES.has(accountBank)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.ussdBankUnsupported);
    const txRef = text(payload.tx_ref);
    if (account.ledger.some((t) => t.txRef === txRef)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.duplicateReference);
    const createdAt = new Date().toISOString();
    const tx: Tx = {
      id: this.#nextTransactionId++,
      txRef,
      flwRef: `flwm${hex(8)}`,
      amount: majorAmount(payload.amount),
      currency: text(payload.currency).toUpperCase(),
      status: 'pending',
      chargeType: 'normal',
      via: 'ussd',
      token: null,
      email: text(payload.email),
      customerId: this.#nextCustomerId++,
      card: null,
      accountBank,
      processorResponse: 'Transaction in progress',
      narration: 'USSD Transaction ',
      createdAt,
      redirect: null,
    };
    account.ledger.push(tx);
    const note = `*566*002*${tx.id}#`;
    return {
      status: 200,
      body: {
        status: 'success',
        message: 'Charge initiated',
        data: this.#transaction(tx),
        meta: { authorization: { mode: 'ussd', note } },
      },
    };
  }

  /** `POST /v3/tokenized-charges`: charges a token THIS account issued, with the e-mail it is tied to. */
  #tokenizedCharge(account: Account, key: string, body: string | null): Answer {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body ?? '') as Record<string, unknown>;
    } catch {
      payload = {};
    }
    if (!payload || typeof payload !== 'object') payload = {};
    for (const field of ['token', 'currency', 'amount', 'email', 'tx_ref']) {
      if (!text(payload[field])) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required(field));
    }
    const amount = majorAmount(payload.amount);
    if (!(amount > 0)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.required('amount'));
    const token = text(payload.token);
    const saved = account.tokens.get(token);
    if (!saved) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.unknownToken);
    const email = text(payload.email);
    if (email.toLowerCase() !== saved.email.toLowerCase()) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.tokenEmailMismatch);
    const txRef = text(payload.tx_ref);
    if (account.ledger.some((t) => t.txRef === txRef)) return refusal(400, FLUTTERWAVE_STAND_IN_MESSAGES.duplicateReference);
    const tx = this.#record(account, key, '/v3/tokenized-charges', {
      txRef,
      amount,
      currency: text(payload.currency).toUpperCase(),
      chargeType: payload.preauthorize === true ? 'preauth' : 'normal',
      via: 'token',
      token,
      email: saved.email,
      card: saved.card,
      narration: text(payload.narration) || 'Tokenized charge',
    });
    return this.#chargeAnswer(tx, 'Charge successful');
  }
}

/** A transfer in the shape of the "Create a transfer" Sample Response of flutterwave-node-v3 1.4.1 `documentation/transfers.md`. */
function transferJson(t: StandInTransfer): Json {
  return {
    id: t.id,
    account_number: t.accountNumber,
    bank_code: t.accountBank,
    full_name: 'Stand-in Holder',
    created_at: t.createdAt,
    currency: t.currency,
    debit_currency: t.currency,
    amount: t.amount,
    fee: 26.875,
    status: t.status,
    reference: t.reference,
    meta: null,
    narration: t.narration,
    complete_message: t.completeMessage,
    requires_approval: 0,
    is_approved: 1,
    bank_name: 'STAND-IN BANK',
  };
}

function publicAccount(a: Account): FlutterwaveStandInAccount {
  return { accountId: a.id, secretKey: a.secretKey, encryptionKey: a.encryptionKey, webhookHash: a.webhookHash };
}

/* ------------------------------------------------------------------- entry points */

/**
 * Starts a Flutterwave stand-in on 127.0.0.1 at a free port.
 * @param options the default account's key and more accounts' keys (both optional); `payments: true` to serve card
 *   charges, tokenized charges and verify (see the file header)
 * @returns the running stand-in; `close()` it when done
 * @example
 *   const flutterwave = await startFlutterwaveStandIn();
 *   const merchant = flutterwave.addAccount();
 *   flutterwave.failNext({ path: '/v3/balances', secretKey: merchant.secretKey }, 'hang_before_work');
 */
export async function startFlutterwaveStandIn(options: FlutterwaveStandInOptions = {}): Promise<FlutterwaveStandIn> {
  const standIn = new StandIn(options);
  await standIn.listen();
  return standIn;
}

/** The environment {@link flutterwaveEnv} gives. */
export interface FlutterwaveStandInEnv {
  FLUTTERWAVE_SECRET_KEY: string;
  FLUTTERWAVE_ENCRYPTION_KEY: string;
  FLUTTERWAVE_WEBHOOK_HASH: string;
  FLUTTERWAVE_BASE_URL: string;
  CONNECTOR_TIMEOUT_MS?: string;
}

/**
 * The environment the connector registry (`shared/processor-call/connector-registry.ts`) reads to build the Flutterwave
 * connector against the stand-in: `FLUTTERWAVE_SECRET_KEY`, `FLUTTERWAVE_ENCRYPTION_KEY` and
 * `FLUTTERWAVE_WEBHOOK_HASH` of the default account (or of `options.account`, one of
 * {@link FlutterwaveStandIn.accounts}), `FLUTTERWAVE_BASE_URL`; plus `CONNECTOR_TIMEOUT_MS` (every connector's)
 * when `options.timeoutMs` is given.
 */
export function flutterwaveEnv(
  standIn: Pick<FlutterwaveStandIn, 'url' | 'accounts'>,
  options: { timeoutMs?: number; account?: Pick<FlutterwaveStandInAccount, 'secretKey' | 'encryptionKey' | 'webhookHash'> } = {},
): FlutterwaveStandInEnv {
  const account = options.account ?? standIn.accounts()[0]!;
  const env: FlutterwaveStandInEnv = {
    FLUTTERWAVE_SECRET_KEY: account.secretKey,
    FLUTTERWAVE_ENCRYPTION_KEY: account.encryptionKey,
    FLUTTERWAVE_WEBHOOK_HASH: account.webhookHash,
    FLUTTERWAVE_BASE_URL: standIn.url,
  };
  if (options.timeoutMs !== undefined) env.CONNECTOR_TIMEOUT_MS = String(options.timeoutMs);
  return env;
}
