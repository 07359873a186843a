/**
 * A loopback Paystack stand-in for fault-injection tests: an in-process `node:http` server on
 * 127.0.0.1 (a free port) that answers the part of Paystack's API our adapter
 * (`shared/connectors/paystack/*`) may call, in Paystack's documented shapes, keeps a ledger of what
 * it really did per transaction reference, and fails on command (hang, 500, connection reset or
 * refused) before or after doing the work — so a test can compare our table with Paystack's truth.
 *
 * Sources (the fixtures under test/connectors/fixtures/paystack/):
 * - [OAS] PaystackOSS/openapi at 9678dea922a900b2485969592055ccf634460352, `openapi/`: every request
 *   body is validated against its published schema (`paths/charge.yaml` = ChargeCreate + bank /
 *   mobile_money / ussd / eft; `ChargeSubmitPin|OTP|Phone|Birthday|Address`, `RefundCreate`,
 *   `TransactionInitialize`) with ajv before anything is done; a body that does not match is answered
 *   400 in Paystack's validation-error shape ({@link PAYSTACK_VALIDATION_ERROR}) and recorded with
 *   `schemaErrors`. The 401 body is `components/responses/Unauthorized.yaml`'s example, the 404 body
 *   `NotFound.yaml`'s, the duplicate-reference body `TransactionInitializeBadRequestModel.yaml`'s example.
 * - [DCS] PaystackOSS/doc-code-snippets at 94af513d752dfc9f85dd0718301e7257091eb7f2,
 *   `doc-code-snippets/`: the answers are its samples with the stand-in's values set —
 *   `src/api/charges/create/response.json` (`200`, `200_pin`, `200_otp`, `200_phone`, `200_birthday`,
 *   `200_address`, `200_bank_auth`, `200_ussd`), `submit-*` (`200`, `200_failed`, `400`),
 *   `src/api/transactions/{verify,initialize}/response.json`, `src/api/refunds/{create,fetch}/response.json`,
 *   `src/doc/payments/payment-methods/{mobile-vodafone,mobile-airtel-mtn,ussd,pwt}/index.json`.
 * - The `card` object of POST /charge is not in [OAS] ChargeCreate (extra properties are allowed by
 *   the schema): its shape is Paystack's removed sample `removed/doc/payments/charge/request/index.json`
 *   (`number`, `cvv`, `expiry_month`, `expiry_year`, strings), for integrations Paystack approved to
 *   send card data. `currency` is not in ChargeCreate either; Paystack's own charge samples send it.
 * - Test cards and values: Paystack's "Test Payments" page (https://paystack.com/docs/payments/test-payments/,
 *   as mirrored by integrators, e.g. vendy.readme.io "Pay With Debit Card"): see {@link PAYSTACK_TEST_CARDS}.
 * - Wrong values: a wrong PIN closes the charge (`data.status: failed`, message "Incorrect PIN" —
 *   support.paystack.com "Customer errors": the customer must complete a new transaction with the
 *   correct PIN; body shape of the submit-pin `200_failed` sample). A wrong OTP leaves the step open:
 *   docs-v2.paystack.com/api/errors/charge says of a wrong mobile-money OTP "Show the error to the
 *   customer and ask for correct OTP", and of card OTPs "You have provided the incorrect OTP too many
 *   times … wait … and try again with the correct OTP"; that page prints only the generic error body
 *   `{status: false, message}` (HTTP 400), so that is the answer ({@link PAYSTACK_STAND_IN_MESSAGES}).
 *
 * Where Paystack documents no wording or behaviour, the stand-in's choice is named in
 * {@link PAYSTACK_STAND_IN_MESSAGES} / {@link PAYSTACK_STAND_IN_LIMITS} (marked "stand-in"): tests
 * must not treat those texts as Paystack's.
 *
 * Accounts: the secret key names the Paystack account (integration) a request acts on, as each merchant
 * connects its own account. The default account ({@link PAYSTACK_STAND_IN_SECRET_KEY} or `options.secretKey`,
 * integration 412829), one per key of `options.accounts`, more with `addAccount()`. Each has its own
 * transactions, refunds, ledger (`ledgerOf(key)`; `ledger()` / `entry()` are the default account's) and
 * balance: a reference or refund id of one account is unknown with another's key (Paystack's not-found
 * answers). A key that is no account's → 401 `{"status": false, "message": "Invalid key"}` ([OAS]
 * `components/responses/Unauthorized.yaml` example, the 401 of every path including `paths/balance.yaml`).
 * Each request records the integration it acted on and the masked key (`keyHint`), never the key. Faults,
 * `setDown`, the log and `reset()` are the server's; a fault can be limited to one key (`match.secretKey`).
 * - GET /balance ([OAS] `paths/balance.yaml`, `components/schemas/BalanceCheckResponse{,Array}.yaml`; the
 *   [DCS] sample `src/api/transfers-control/balance/response.json` `200`): see `#balance`.
 *
 * Ledger: one entry per transaction reference ({@link PaystackLedgerEntry}): the Charge API status,
 * the step it waits on, the amount captured, the refunds, and which steps were submitted (never their
 * values: a PIN, OTP or card number is compared in memory and dropped; the request log keeps `[REDACTED]`).
 *
 * Saved cards: every card charge carries an `authorization` as Paystack's samples print it
 * ([DCS] `src/api/transactions/{verify,charge_authorization}/response.json`: `authorization_code` one per
 * transaction, `signature` the same for every charge of one card number, `exp_month`/`exp_year` strings,
 * `reusable` true once the card charge succeeded — "All authorizations are inactive until one transaction
 * succeeds on the card", https://paystack.com/docs/api/errors/ —, false for mobile money, USSD and transfers).
 * A successful card charge registers its authorization in its account ({@link PaystackStandIn.authorizationsOf}).
 * - POST /transaction/charge_authorization ([OAS] `paths/transaction_charge_authorization.yaml`, body
 *   `TransactionChargeAuthorization`, answer `ChargeAuthorizationResponse`; sample [DCS]
 *   `src/api/transactions/charge_authorization/response.json`): charges an active authorization of the
 *   account the key names only, as a new ledger entry under the request's `reference`; an unknown (or
 *   another account's) or deactivated code → 400 `Authorization code does not exist or has been
 *   deactivated`, another e-mail → 400 `Email does not match Authorization code…` (Paystack's error pages,
 *   {@link PAYSTACK_STAND_IN_MESSAGES}). What a later charge does is the card's `recurring`
 *   ({@link PAYSTACK_TEST_CARDS}: `recurringDeclines`, `recurringOtp` → `send_otp`, `recurringChallenged` → the
 *   documented Two-Factor answer `paused: true` with an `authorization_url`, [DCS]
 *   `src/doc/payments/recurring-charges/two-factor/index.json`); every other card is charged.
 * - POST /customer/authorization/deactivate ([OAS] `paths/customer_authorization_deactivate.yaml`; the path
 *   before PaystackOSS/openapi `ef89553d5bda`, `/customer/deactivate_authorization`, is served too): marks the
 *   account's authorization inactive, `{"status": true, "message": "Authorization has been deactivated"}`; an
 *   unknown or already inactive code → 404 `Authorization code not found.` ([DCS]
 *   `src/api/customers/deactivate-authorization/response.json` `200` / `404`).
 *
 * Disputes: each account has a dispute ledger. A test opens a dispute on one of the account's transactions
 * ({@link PaystackStandIn.openDispute}), moves it as Paystack / the issuer would ({@link PaystackStandIn.resolveDispute},
 * {@link PaystackStandIn.setDisputeStatus}) and builds the signed `charge.dispute.*` webhook of it
 * ({@link PaystackStandIn.disputeWebhook}: `x-paystack-signature` = hex HMAC-SHA512 of the body with the account's secret
 * key, as Paystack signs every event and as the tests sign `charge.success`). Served, in the shapes of [OAS]
 * `paths/dispute_{id}{,_evidence,_resolve,_upload_url}.yaml` and the [DCS] samples `src/api/disputes/{fetch,resolve,
 * evidence,upload-url}/response.json` and `src/doc/payments/webhooks/events/charge-dispute-*.json` (the dispute rendered
 * from the `charge.dispute.create` sample with the stand-in's values):
 * - GET /dispute/:id — the account's dispute, else 404 `NotFound.yaml`;
 * - GET /dispute/:id/upload_url?upload_filename= — `{signedUrl, fileName}`; `signedUrl` points at the stand-in itself
 *   (`/_uploads/<fileName>?X-Amz-Signature=…`, an S3 pre-signed URL's stand-in) and accepts one `PUT` of the bytes without
 *   any Authorization (a wrong signature → 403); the upload is recorded on the dispute;
 * - POST /dispute/:id/evidence — body validated against [OAS] DisputeEvidence, kept as the dispute's `evidence`;
 * - PUT /dispute/:id/resolve — body validated against [OAS] DisputeResolve, except that `uploaded_filename` is required
 *   only with `declined` (stand-in: Paystack asks for a document to decline, docs-v1 "Handling Disputes"), and must name
 *   an upload of that dispute; `merchant-accepted` → `resolved` / `merchant-accepted` (the [DCS] resolve sample);
 *   `declined` → `awaiting-bank-feedback` (stand-in: the issuer then decides, the test calls `resolveDispute(id,
 *   'declined')` or another resolution); a dispute already resolved → 400 (stand-in wording,
 *   {@link PAYSTACK_STAND_IN_MESSAGES}.disputeResolved).
 *
 * Not modelled: bank (Pay with Bank), QR, EFT, splits, queued charges, webhooks, the 10 s "check pending
 * charge" delay, amount limits, `pending` charges, the payer's own pages (an `open_url` charge's URL and a
 * Two-Factor `authorization_url` are not served: the test completes them with `completeOffline`).
 *
 * Works under jest (CommonJS: fixtures found through `__dirname`).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { load as loadYaml } from 'js-yaml';

/* ----------------------------------------------------------------- public types */

/**
 * What the stand-in does to one matching request:
 * - `hang_after_work`: does the work (the ledger changes), then never answers: the client times out;
 * - `hang_before_work`: never answers and does nothing;
 * - `error_500_after_work`: does the work, then answers 500 (Paystack's `api_error` shape);
 * - `error_500_before_work`: answers 500 without doing anything;
 * - `reset_after_work`: does the work, then destroys the socket;
 * - `reset_before_work`: destroys the socket without doing anything.
 */
export type PaystackStandInFault =
  | 'hang_after_work'
  | 'hang_before_work'
  | 'error_500_after_work'
  | 'error_500_before_work'
  | 'reset_after_work'
  | 'reset_before_work';

/**
 * Which requests a fault applies to: `method` (any when omitted, case-insensitive) and a `path`
 * prefix matched against the path without its query (`/charge/submit_otp`, `/refund`, `/transaction/verify/`).
 */
export interface PaystackFaultMatch {
  method?: string;
  path: string;
  /** Only requests sent with this secret key (one account's; see {@link PaystackStandIn.addAccount}). Any key, or none, when omitted. */
  secretKey?: string;
}

/** A fault still armed. */
export interface PaystackPendingFault {
  match: PaystackFaultMatch;
  fault: PaystackStandInFault;
  remaining: number;
}

/** The inputs a charge may wait for (`send_pin` → `pin`, …). */
export type PaystackStep = 'pin' | 'otp' | 'phone' | 'birthday' | 'address';

/**
 * Charge API statuses the stand-in produces (`data.status` of POST /charge, the submit endpoints and
 * GET /charge/:reference), plus `abandoned` for a transaction initialized for the hosted checkout and
 * not paid yet (a verify status; it has no Charge API status).
 */
export type PaystackChargeState =
  | 'success'
  | 'failed'
  | 'send_pin'
  | 'send_otp'
  | 'send_phone'
  | 'send_birthday'
  | 'send_address'
  | 'open_url'
  | 'pay_offline'
  | 'pending_bank_transfer'
  | 'abandoned';

/** Refund statuses (https://paystack.com/docs/api/refund/, refund events). */
export type PaystackRefundState = 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention';

/** One refund in the ledger. Amounts in subunits. */
export interface PaystackLedgerRefund {
  /** Paystack's numeric refund id. */
  id: number;
  amount: number;
  currency: string;
  status: PaystackRefundState;
  merchantNote: string | null;
  customerNote: string | null;
}

/** One step answer as the stand-in judged it (the value itself is never kept). */
export interface PaystackLedgerSubmission {
  step: PaystackStep;
  /** Whether the value was the expected one (phone, birthday, address: well-formed). */
  accepted: boolean;
}

/** Paystack's truth about one transaction reference. Amounts are integers in subunits (kobo, pesewas, cents). */
export interface PaystackLedgerEntry {
  reference: string;
  /** Paystack's numeric transaction id. */
  transactionId: number;
  channel: 'card' | 'mobile_money' | 'ussd' | 'bank_transfer' | 'checkout';
  /** Upper-case ISO 4217, as Paystack writes it. */
  currency: string;
  amount: number;
  email: string;
  /** The Charge API status now (`abandoned` for an unpaid checkout). */
  status: PaystackChargeState;
  /** What GET /transaction/verify/:reference answers as `data.status` now. */
  transactionStatus: 'success' | 'failed' | 'ongoing' | 'abandoned' | 'reversed';
  /** The input the charge waits for, or null. */
  waitingOn: PaystackStep | null;
  /** The prompt shown with the step (`display_text`), or null. */
  displayText: string | null;
  /** Taken from the payer: `amount` once `success`, else 0. */
  amountCaptured: number;
  /** Sum of the refunds that are not `failed`. */
  amountRefunded: number;
  refunds: PaystackLedgerRefund[];
  /** Every step answer received, in order (values never kept). */
  submissions: PaystackLedgerSubmission[];
  /** Wrong OTPs in a row on this charge. */
  wrongOtps: number;
  /** Paystack's message on a failed charge (e.g. `Incorrect PIN`), else null. */
  failureMessage: string | null;
  /** Last 4 digits of the card, or null (never more of the PAN). */
  cardLast4: string | null;
  /** Mobile-money provider code (`mtn`, `vod`, `atl`, `mpesa`), or null. */
  provider: string | null;
  /**
   * The `authorization_code` of the transaction's `authorization` (issued by this charge, or the saved one a
   * charge_authorization charged), or null for a checkout not paid yet. Test data: the stand-in's own value.
   */
  authorizationCode: string | null;
  /** Whether the transaction was made by POST /transaction/charge_authorization (a saved card charged again). */
  viaChargeAuthorization: boolean;
}

/** A saved card authorization of one account, as the stand-in keeps it (never the PAN). */
export interface PaystackStandInAuthorization {
  /** `authorization_code` (`AUTH_…`). */
  code: string;
  /** `signature` (`SIG_…`): the same for every authorization of one card number. */
  signature: string;
  /** The e-mail it was issued to: only that e-mail may charge it. */
  email: string;
  last4: string;
  bin: string;
  /** Lower-case, as Paystack's `brand`. */
  brand: string;
  /** `exp_month` / `exp_year` as Paystack prints them ("12", "2030"). */
  expMonth: string;
  expYear: string;
  /** The reference of the charge that issued it. */
  reference: string;
  /** False once deactivated. */
  active: boolean;
}

/**
 * One request as received: the body (JSON or form) with `pin`, `otp`, `card.number` and `card.cvv`
 * replaced (`[REDACTED]`, `****<last4>`, `***`).
 */
export interface PaystackStandInRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  /** The `Authorization` header was `Bearer <the key of one of the stand-in's accounts>`. */
  authorized: boolean;
  /** The integration (account) id the key names, or null when the key was missing or is no account's (401). */
  integration: number | null;
  /** The key sent, masked (first 8 characters, `*`s, last 4), or null when none was sent. The key itself is never kept. */
  keyHint: string | null;
  body: Record<string, unknown> | null;
  /** ajv's errors when the body did not match the endpoint's [OAS] schema, else null. */
  schemaErrors: string[] | null;
  fault: PaystackStandInFault | 'down' | null;
  outcome: 'pending' | 'answered' | 'hung' | 'reset';
  /** HTTP status sent (or that would have been sent before a hang/reset after work). */
  status: number | null;
}

/** Options of {@link startPaystackStandIn}. */
export interface PaystackStandInOptions {
  /** The default account's secret key (default {@link PAYSTACK_STAND_IN_SECRET_KEY}). */
  secretKey?: string;
  /**
   * More secret keys accepted, each naming an account (a Paystack integration) of its own: own
   * transactions, refunds, ledger and balance, as each merchant connects its own Paystack account.
   */
  accounts?: string[];
  /** Clock in epoch milliseconds, for timestamps and the OTP lock (default `Date.now`). */
  now?: () => number;
  /** Status of a new refund (default `pending`, as POST /refund answers "queued for processing"). */
  refundStatusOnCreate?: PaystackRefundState;
}

/** One account (integration) of the stand-in: its secret key names it. Fake values. */
export interface PaystackStandInAccount {
  /** Paystack's integration id of the account (6 digits; the default account's is 412829). */
  integration: number;
  /** `sk_test_…`: requests with it act on this account only (it also signs the account's webhooks at Paystack). */
  secretKey: string;
}

/** A running stand-in. Obtain one with {@link startPaystackStandIn}; `close()` it in `afterAll`. */
export interface PaystackStandIn {
  /** `http://127.0.0.1:<port>`: the adapter's `PAYSTACK_BASE_URL`. */
  readonly url: string;
  /** The default account's fake `sk_test_…` key. */
  readonly secretKey: string;
  /** Every request since start or `reset()`, in arrival order (live, redacted). */
  readonly requests: readonly PaystackStandInRequest[];
  /** The default account's ledger by reference; a fresh snapshot each call. Same as `ledgerOf(secretKey)`. */
  ledger(): Record<string, PaystackLedgerEntry>;
  /**
   * One account's ledger (the account the key names), as {@link ledger}: only what was done with that key.
   * @throws Error when the key is no account's
   */
  ledgerOf(secretKey: string): Record<string, PaystackLedgerEntry>;
  /** One reference's ledger entry in the default account (a snapshot), or undefined when that account never saw it. */
  entry(reference: string): PaystackLedgerEntry | undefined;
  /**
   * One reference's ledger entry in the account the key names, as {@link entry}.
   * @throws Error when the key is no account's
   */
  entryOf(secretKey: string, reference: string): PaystackLedgerEntry | undefined;
  /**
   * The saved card authorizations of the account the key names (issued by its successful card charges), in
   * the order issued, active or not (a snapshot).
   * @throws Error when the key is no account's
   */
  authorizationsOf(secretKey: string): PaystackStandInAuthorization[];
  /** Opens another account (integration): a fresh `sk_test_…` key (40 hex digits, as Paystack's) and integration id. */
  addAccount(): PaystackStandInAccount;
  /**
   * Closes an account (e.g. a merchant rolled its key): its key is answered 401 from now on, its transactions forgotten.
   * @throws Error for the default account's key or a key that is no account's
   */
  removeAccount(secretKey: string): void;
  /** Every account, the default one first, then in the order opened. */
  accounts(): PaystackStandInAccount[];
  /** Arms a fault for the next matching request (or the next `times`); faults apply in the order armed. */
  failNext(match: PaystackFaultMatch, fault: PaystackStandInFault, options?: { times?: number }): void;
  /** Faults armed and not used up. */
  pendingFaults(): PaystackPendingFault[];
  /**
   * `reset`: every request's socket is destroyed on arrival (nothing done); `refuse`: the listener is
   * closed, so connections are refused (`ECONNREFUSED`); `false`: back to normal (same port).
   */
  setDown(mode: false | 'reset' | 'refuse'): Promise<void>;
  /**
   * The payer finishes a charge that waits off-line (`pay_offline` mobile money / USSD,
   * `pending_bank_transfer`, `open_url` 3-D Secure, an `abandoned` checkout): `success` takes the
   * money, `failed` declines it. The charge is looked up in the account `secretKey` names when given,
   * else in the default account, else in the only account that has the reference.
   * @throws Error when the reference is unknown (or in several accounts without `secretKey`) or not waiting off-line
   */
  completeOffline(reference: string, outcome: 'success' | 'failed', secretKey?: string): void;
  /** Moves a refund (of any account: refund ids are unique) to a status (e.g. `processed`, `needs-attention`), as Paystack does later. */
  setRefundStatus(id: number, status: PaystackRefundState): void;
  /**
   * Opens a dispute on a transaction of the account `secretKey` names (default: the default account), as a cardholder's
   * bank would: status `awaiting-merchant-feedback` unless `options.status`, `refund_amount` = `options.amount` (default
   * the transaction's amount), `dueAt` = now + 16 hours unless `options.dueAt` ("handled within 16 hours",
   * https://paystack.com/docs/payments/manage-disputes/), `category` `chargeback` unless `options.category`.
   * @throws Error when the account has no transaction with that reference
   */
  openDispute(
    reference: string,
    options?: { amount?: number; status?: string; category?: string; dueAt?: string | null; message?: string },
    secretKey?: string,
  ): PaystackStandInDispute;
  /**
   * Resolves a dispute (of any account: dispute ids are unique) as Paystack does: status `resolved` with `resolution`
   * (`merchant-accepted`, `auto-accepted`, `declined`, or any other value to test unknown ones).
   * @throws Error when no account has the dispute
   */
  resolveDispute(id: number, resolution: string): PaystackStandInDispute;
  /** Sets a dispute's raw `status` (and `resolution`, null unless given), e.g. `awaiting-bank-feedback` or an unknown value. */
  setDisputeStatus(id: number, status: string, resolution?: string | null): PaystackStandInDispute;
  /** A dispute's snapshot (any account), or undefined. */
  dispute(id: number): PaystackStandInDispute | undefined;
  /** The disputes of the account `secretKey` names (default: the default account), in the order opened (snapshots). */
  disputesOf(secretKey?: string): PaystackStandInDispute[];
  /**
   * The `charge.dispute.create|remind|resolve` webhook Paystack would send for a dispute now: `{event, data}` with `data`
   * the dispute as the [DCS] event samples print it, signed as Paystack signs events (`x-paystack-signature` = hex
   * HMAC-SHA512 of the exact body with the dispute's account's secret key). Deliver `rawBody` unchanged.
   */
  disputeWebhook(
    id: number,
    event: 'charge.dispute.create' | 'charge.dispute.remind' | 'charge.dispute.resolve',
  ): { rawBody: string; headers: { 'content-type': string; 'x-paystack-signature': string } };
  /** The Paystack dispute object (`data` of GET /dispute/:id) as served now. */
  renderDispute(id: number): Record<string, unknown>;
  /** Forgets everything (every account's transactions and refunds, faults, requests, `down`); destroys hanging sockets. The accounts (keys) are kept. */
  reset(): void;
  /** Destroys hanging sockets and closes the server. */
  close(): Promise<void>;
}

/** One dispute of the stand-in's ledger (a snapshot). */
export interface PaystackStandInDispute {
  /** Paystack's dispute id (unique across accounts). */
  id: number;
  /** The integration whose transaction is disputed. */
  integration: number;
  /** The disputed transaction's reference and id. */
  reference: string;
  transactionId: number;
  /** `refund_amount`: minor units claimed. */
  amount: number;
  currency: string;
  /** Paystack's raw `status` and `resolution`. */
  status: string;
  resolution: string | null;
  category: string;
  dueAt: string | null;
  resolvedAt: string | null;
  /** The last `POST /dispute/:id/evidence` body, or null. */
  evidence: Record<string, unknown> | null;
  /** Files PUT to the signed upload URLs: Paystack's `fileName`, the requested `upload_filename`, media type, size, SHA-256. */
  uploads: { fileName: string; uploadFilename: string; contentType: string | null; size: number; sha256: string }[];
  /** Every `PUT /dispute/:id/resolve` body accepted, in order. */
  resolutions: Record<string, unknown>[];
}

/** The fake secret key the stand-in accepts by default. Not a real Paystack key. */
export const PAYSTACK_STAND_IN_SECRET_KEY = 'sk_test_standin0000000000000000000000000000paystack';

/** A test card: what the stand-in answers for it, step by step. */
export interface PaystackTestCard {
  number: string;
  /** The CVV Paystack lists with it (not checked by the stand-in). */
  cvv: string;
  /** Inputs asked in order after POST /charge; empty = no validation. */
  steps: readonly PaystackStep[];
  /** The correct PIN / OTP (other steps accept any well-formed value). */
  pin?: string;
  otp?: string;
  /** How the charge ends once every step is answered correctly (or at once without steps). */
  outcome: 'success' | 'failed' | 'open_url';
  /** Paystack's message when `outcome` is `failed`. */
  failureMessage?: string;
  /** `send_address` answers carry the card's country. */
  countryCode?: string;
  /**
   * What a later charge of its saved authorization (POST /transaction/charge_authorization) does: `success`
   * (default), `failed` (`Insufficient funds`), `send_otp` (the payer must give {@link otp}, then success),
   * `paused` (Paystack's Two-Factor challenge: `authorization_url`; the test completes it with `completeOffline`).
   */
  recurring?: 'success' | 'failed' | 'send_otp' | 'paused';
  /** Where this card comes from. */
  source: 'paystack' | 'stand-in';
}

/**
 * The cards the stand-in knows. `source: 'paystack'` = Paystack's Test Payments page (numbers, CVVs,
 * PINs and OTPs as Paystack lists them); `source: 'stand-in'` = the stand-in's own (Paystack lists no
 * test card for the birthday and address steps). Any other card number is approved without validation,
 * like `noValidation`.
 */
export const PAYSTACK_TEST_CARDS = {
  noValidation: { number: '4084084084084081', cvv: '408', steps: [], outcome: 'success', source: 'paystack' },
  pinOnly: { number: '507850785078507812', cvv: '081', steps: ['pin'], pin: '1111', outcome: 'success', source: 'paystack' },
  /** The Verve card of the brief: `send_pin`, then `send_otp` after PIN 1234, then `success` after OTP 123456. */
  vervePinOtp: {
    number: '5060666666666666666',
    cvv: '123',
    steps: ['pin', 'otp'],
    pin: '1234',
    otp: '123456',
    outcome: 'success',
    source: 'paystack',
  },
  pinPhoneOtp: {
    number: '507850785078507804',
    cvv: '884',
    steps: ['pin', 'phone', 'otp'],
    pin: '0000',
    otp: '123456',
    outcome: 'success',
    source: 'paystack',
  },
  declined: { number: '4084080000005408', cvv: '001', steps: [], outcome: 'failed', failureMessage: 'Declined', source: 'paystack' },
  tokenNotGenerated: {
    number: '507850785078507853',
    cvv: '082',
    steps: ['pin'],
    pin: '0000',
    outcome: 'failed',
    failureMessage: 'Token Not Generated. Customer Not Registered on Token Platform',
    source: 'paystack',
  },
  bankAuthorization: { number: '4084080000000409', cvv: '000', steps: [], outcome: 'open_url', source: 'paystack' },
  birthday: { number: '4084080000000102', cvv: '408', steps: ['birthday'], outcome: 'success', source: 'stand-in' },
  address: { number: '4084080000000201', cvv: '408', steps: ['address'], outcome: 'success', countryCode: 'US', source: 'stand-in' },
  /** Stand-in (Paystack lists no recurring test cards): paid at once; its saved authorization is declined later. */
  recurringDeclines: {
    number: '4084080000003015',
    cvv: '408',
    steps: [],
    outcome: 'success',
    recurring: 'failed',
    source: 'stand-in',
  },
  /** Stand-in: paid at once; a later charge of its authorization asks for an OTP (`send_otp`, OTP 123456). */
  recurringOtp: {
    number: '4084080000003023',
    cvv: '408',
    steps: [],
    otp: '123456',
    outcome: 'success',
    recurring: 'send_otp',
    source: 'stand-in',
  },
  /** Stand-in: paid at once; a later charge of its authorization is challenged (Two-Factor: `paused`). */
  recurringChallenged: {
    number: '4084080000003031',
    cvv: '408',
    steps: [],
    outcome: 'success',
    recurring: 'paused',
    source: 'stand-in',
  },
} as const satisfies Record<string, PaystackTestCard>;

/**
 * The voucher a Telecel Cash (provider `vod`) payer "generates" by dialling *110#: the stand-in's own
 * value (Paystack documents the prompt, not a test voucher); any other voucher is a wrong OTP.
 */
export const PAYSTACK_STAND_IN_VOUCHER = '246810';

/** Paystack's documented Telecel prompt ([DCS] payment-methods/mobile-vodafone/index.json). */
export const TELECEL_VOUCHER_PROMPT = 'Please dial *110# to generate a voucher code. Then input the voucher';

/** Paystack's validation-error body shape ([OAS] Error.yaml / TransactionInitializeBadRequestModel.yaml). */
export const PAYSTACK_VALIDATION_ERROR = {
  type: 'validation_error',
  code: 'invalid_params',
  nextStep: "Ensure that the value(s) you're passing are valid.",
} as const;

/**
 * Messages. Each entry's comment says whether the wording is Paystack's (with its source) or the
 * stand-in's own ("Stand-in"), where Paystack documents a meaning but prints no text.
 */
export const PAYSTACK_STAND_IN_MESSAGES = {
  /** [OAS] components/responses/Unauthorized.yaml example. */
  invalidKey: 'Invalid key',
  /** [OAS] components/responses/NotFound.yaml example. */
  notFound: 'Entity not found',
  /** Stand-in: a resolve of a dispute already resolved (Paystack publishes no wording). */
  disputeResolved: 'Dispute has already been resolved',
  /** Stand-in: a decline without a document, or naming a file never uploaded for the dispute. */
  disputeUploadRequired: 'Please upload a document to decline this dispute',
  /** Stand-in: a resolution other than the two DisputeResolve documents. */
  disputeResolutionInvalid: 'Invalid resolution. Accepted values: merchant-accepted, declined',
  /** [DCS] charges/submit-*\/response.json `400` and charges/check `400`. */
  referenceInvalid: 'Transaction reference is invalid',
  /** [OAS] TransactionInitializeBadRequestModel.yaml example. */
  duplicateReference: 'Duplicate Transaction Reference',
  /** docs-v2.paystack.com/api/errors/charge (title). */
  noInstrument:
    'One of Authorization code, card object, bank object, ussd object, mobile money object, qr object, or EFT object should be passed.',
  /** support.paystack.com "Customer errors". */
  incorrectPin: 'Incorrect PIN',
  /** Stand-in: the errors page documents the meaning ("The OTP provided for the mobile money transaction is incorrect") without a title. */
  incorrectMobileMoneyOtp: 'The OTP provided for the mobile money transaction is incorrect',
  /** Stand-in: Paystack documents a card OTP lock-out but no single-wrong-OTP wording. */
  incorrectOtp: 'The OTP provided is incorrect',
  /** Stand-in, after the errors page's "You have provided the incorrect OTP too many times … wait X". */
  tooManyOtps: (minutes: number) => `You have provided the incorrect OTP too many times. Please try again in ${minutes} minutes`,
  /** Stand-in: a step answer the charge is not waiting for. */
  notWaitingFor: (step: PaystackStep) => `This charge is not awaiting ${step}`,
  /** Stand-in. */
  refundUnsuccessful: 'Cannot refund a transaction that is not successful',
  /** Stand-in, after [OAS] RefundCreate `amount`: "It cannot be more than the original transaction amount". */
  refundTooLarge: 'Refund amount cannot be more than the unrefunded transaction amount',
  /** Stand-in. */
  currencyMismatch: 'Currency does not match the transaction currency',
  /** Stand-in wording of docs-v2.paystack.com/api/errors/charge's "The currency you're attempting to charge in is not enabled for this integration". */
  currencyNotSupported: 'Currency not supported by merchant',
  /** Stand-in. */
  unsupportedInstrument: 'The Paystack stand-in models only card, mobile_money, ussd and bank_transfer charges',
  /** Stand-in. */
  invalidProvider: 'Invalid mobile money provider for this currency',
  /**
   * https://paystack.com/docs/api/errors/ (heading): an unknown or inactive authorization at charge_authorization
   * ("All authorizations are inactive until one transaction succeeds on the card"). Status 400 (the page's
   * "A validation or client side error occurred").
   */
  authorizationInactive: 'Authorization code does not exist or has been deactivated',
  /** docs-v2.paystack.com/api/errors/charge (title): the e-mail is not the one the authorization belongs to. */
  authorizationEmailMismatch:
    'Email does not match Authorization code. Authorization may be inactive or belong to a different email. Please confirm.',
  /** [DCS] src/api/customers/deactivate-authorization/response.json `404`. */
  authorizationNotFound: 'Authorization code not found.',
  /** [DCS] src/api/customers/deactivate-authorization/response.json `200`. */
  authorizationDeactivated: 'Authorization has been deactivated',
  /** [DCS] src/doc/payments/recurring-charges/two-factor/index.json (`paused: true`). */
  twoFactorChallenge: 'Please, redirect your customer to the authorization url provided',
  /** [DCS] src/api/charges/submit-address/response.json `200_failed` (a recurring decline's `gateway_response`). */
  insufficientFunds: 'Insufficient funds',
} as const;

/** Stand-in limits where Paystack documents none. */
export const PAYSTACK_STAND_IN_LIMITS = {
  /** Wrong OTPs in a row before the charge locks (Paystack: "too many times"). */
  maxWrongOtps: 3,
  /** Minutes of the lock (Paystack: "X minutes"). */
  otpLockMinutes: 30,
} as const;

/* ------------------------------------------------------------------- fixtures */

type Json = Record<string, unknown>;

const FIXTURES = join(__dirname, '..', 'connectors', 'fixtures', 'paystack');
const DCS = join(FIXTURES, 'doc-code-snippets');
const OAS = join(FIXTURES, 'openapi');
const clone = <T>(value: T): T => structuredClone(value);

/** `data` of one named sample of a [DCS] `response.json` (`{"200": {"data": {…envelope}}}`). */
function sample(file: string, key: string): Json {
  const all = JSON.parse(readFileSync(join(DCS, file), 'utf8')) as Record<string, { data: Json }>;
  const found = all[key];
  if (!found) throw new Error(`Paystack stand-in: no sample ${key} in ${file}`);
  return found.data;
}

/** A [DCS] page sample (the envelope itself). */
function page(file: string): Json {
  return JSON.parse(readFileSync(join(DCS, file), 'utf8')) as Json;
}

/** Loads an [OAS] YAML file with every relative `$ref` inlined (recursively). */
function resolveSchema(file: string, seen: string[] = []): unknown {
  const path = resolve(file);
  if (seen.includes(path)) throw new Error(`Paystack stand-in: circular $ref at ${path}`);
  if (!existsSync(path)) throw new Error(`Paystack stand-in: missing OpenAPI fixture ${path}`);
  const inline = (node: unknown, base: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => inline(n, base));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    // OpenAPI 3.0's `nullable` without a `type` means "anything, or null": nothing for ajv to check.
    if (obj.nullable !== undefined && obj.type === undefined) {
      const { nullable: _dropped, ...restOfNode } = obj;
      return inline(restOfNode, base);
    }
    if (typeof obj.$ref === 'string' && !obj.$ref.startsWith('#')) {
      const target = resolveSchema(join(dirname(base), obj.$ref), [...seen, path]);
      const { $ref: _ignored, ...rest } = obj;
      return Object.keys(rest).length ? { allOf: [target, inline(rest, base)] } : target;
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, inline(v, base)]));
  };
  return inline(loadYaml(readFileSync(path, 'utf8')), path);
}

/**
 * An [OAS] schema file of the fixtures (path relative to `openapi/`, e.g.
 * `components/schemas/VerifyResponse.yaml`) with every relative `$ref` inlined, ready for ajv.
 * @throws Error when the file (or one it refers to) is missing
 */
export function paystackOpenApiSchema(relativeFile: string): unknown {
  return resolveSchema(join(OAS, relativeFile));
}

/** The JSON request-body schema of `post` in an [OAS] path file. */
function requestSchema(pathFile: string): unknown {
  const doc = resolveSchema(join(OAS, 'paths', pathFile)) as {
    post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } };
  };
  const schema = doc.post?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`Paystack stand-in: no JSON request schema in ${pathFile}`);
  return schema;
}

/** The JSON request-body schema of `put` in an [OAS] path file. */
function putRequestSchema(pathFile: string): unknown {
  const doc = resolveSchema(join(OAS, 'paths', pathFile)) as { put?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } };
  const schema = doc.put?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`Paystack stand-in: no JSON PUT request schema in ${pathFile}`);
  return schema;
}

/** A schema with one name dropped from its `required` list (the stand-in's documented exceptions). */
function withoutRequired(schema: unknown, name: string): unknown {
  const s = structuredClone(schema) as { required?: string[] };
  if (Array.isArray(s.required)) s.required = s.required.filter((r) => r !== name);
  return s;
}

interface Templates {
  successCharge: Json;
  /** `data` of the [DCS] charge_authorization `200` sample. */
  chargeAuthorization: Json;
  verify: Json;
  initialize: Json;
  refundCreate: Json;
  refundFetch: Json;
  pwt: Json;
  /** The [DCS] Check Balance sample (the envelope). */
  balance: Json;
  /** `data` of the [DCS] `charge.dispute.create` event sample: the dispute every dispute is rendered from. */
  dispute: Json;
  /** Validators of the dispute bodies: [OAS] DisputeEvidence, and DisputeResolve without `uploaded_filename` required. */
  disputeEvidence: ValidateFunction;
  disputeResolve: ValidateFunction;
  /** `display_text` of an MTN / AT mobile-money prompt. */
  momoPrompt: string;
  validators: Record<string, ValidateFunction>;
}

let templates: Templates | undefined;

/** Samples and validators, loaded once per process. */
function loadTemplates(): Templates {
  if (templates) return templates;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators: Record<string, ValidateFunction> = {};
  for (const [endpoint, file] of Object.entries({
    '/charge': 'charge.yaml',
    '/charge/submit_pin': 'charge_submit_pin.yaml',
    '/charge/submit_otp': 'charge_submit_otp.yaml',
    '/charge/submit_phone': 'charge_submit_phone.yaml',
    '/charge/submit_birthday': 'charge_submit_birthday.yaml',
    '/charge/submit_address': 'charge_submit_address.yaml',
    '/refund': 'refund.yaml',
    '/transaction/initialize': 'transaction_initialize.yaml',
    '/transaction/charge_authorization': 'transaction_charge_authorization.yaml',
    '/customer/authorization/deactivate': 'customer_authorization_deactivate.yaml',
    '/customer/deactivate_authorization': 'customer_authorization_deactivate.yaml',
  })) {
    validators[endpoint] = ajv.compile(requestSchema(file) as object);
  }
  templates = {
    successCharge: (sample('src/api/charges/submit-otp/response.json', '200').data ?? {}) as Json,
    chargeAuthorization: (sample('src/api/transactions/charge_authorization/response.json', '200').data ?? {}) as Json,
    verify: (sample('src/api/transactions/verify/response.json', '200').data ?? {}) as Json,
    initialize: sample('src/api/transactions/initialize/response.json', '200'),
    refundCreate: (sample('src/api/refunds/create/response.json', '200').data ?? {}) as Json,
    refundFetch: (sample('src/api/refunds/fetch/response.json', '200').data ?? {}) as Json,
    pwt: (page('src/doc/payments/payment-methods/pwt/index.json').data ?? {}) as Json,
    balance: sample('src/api/transfers-control/balance/response.json', '200'),
    dispute: (page('src/doc/payments/webhooks/events/charge-dispute-create.json').data ?? {}) as Json,
    disputeEvidence: ajv.compile(requestSchema('dispute_{id}_evidence.yaml') as object),
    disputeResolve: ajv.compile(withoutRequired(putRequestSchema('dispute_{id}_resolve.yaml'), 'uploaded_filename') as object),
    momoPrompt: String((page('src/doc/payments/payment-methods/mobile-airtel-mtn/index.json').data as Json).display_text),
    validators,
  };
  return templates;
}

/* --------------------------------------------------------------------- helpers */

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A Paystack-looking reference / code: lower-case alphanumerics. */
function randomCode(length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += ALPHANUM[b % ALPHANUM.length];
  return out;
}

/** `length` characters of [A-Za-z0-9] drawn from a SHA-256 of `text` (stable: same text, same value). */
function stableCode(text: string, length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (const b of createHash('sha256').update(text, 'utf8').digest()) {
    out += alphabet[b % alphabet.length];
    if (out.length === length) break;
  }
  return out;
}

/** A card's `signature`: `SIG_` and 20 characters, the same for every charge of one card number (as Paystack's). */
function cardSignature(number: string): string {
  return `SIG_${stableCode(`paystack-stand-in card ${number}`, 20)}`;
}

/** A customer's `customer_code` in one integration: `CUS_` and 15 lower-case characters, stable per (integration, e-mail). */
function customerCode(integration: number, email: string): string {
  return `CUS_${stableCode(`paystack-stand-in customer ${integration} ${email.trim().toLowerCase()}`, 15, ALPHANUM)}`;
}

/** Paystack's lower-case `brand` for a card number (the stand-in's guess from the prefix). */
function cardBrandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^(50[0-9]|65)/.test(number)) return 'verve';
  if (/^3[47]/.test(number)) return 'american express';
  return 'card';
}

/** Request bodies with secrets replaced (the log never holds a PIN, OTP, PAN or CVV). */
function redact(body: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!body) return body;
  const out: Record<string, unknown> = { ...body };
  for (const key of ['pin', 'otp']) if (key in out) out[key] = '[REDACTED]';
  if (typeof out.authorization_code === 'string') out.authorization_code = `AUTH_****${out.authorization_code.slice(-4)}`;
  const card = out.card;
  if (card && typeof card === 'object') {
    const c = { ...(card as Json) };
    if (typeof c.number === 'string') c.number = `****${c.number.slice(-4)}`;
    if ('cvv' in c) c.cvv = '***';
    out.card = c;
  }
  return out;
}

/** `a[b]=c` form fields → nested objects (Paystack takes form-encoded bodies too). */
function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key);
    if (m) {
      const inner = (out[m[1]!] as Record<string, unknown> | undefined) ?? {};
      inner[m[2]!] = value;
      out[m[1]!] = inner;
    } else {
      out[key] = /^\d+$/.test(value) && key === 'amount' ? Number(value) : value;
    }
  }
  return out;
}

const isoAt = (ms: number) => new Date(ms).toISOString();
const STEP_STATUS: Record<PaystackStep, PaystackChargeState> = {
  pin: 'send_pin',
  otp: 'send_otp',
  phone: 'send_phone',
  birthday: 'send_birthday',
  address: 'send_address',
};
/** `display_text` of each step, as the [DCS] charges/create samples print them (`send_pin` has none). */
const STEP_PROMPT: Record<PaystackStep, string | null> = {
  pin: null,
  otp: 'Please send OTP',
  phone: 'Please send phone',
  birthday: 'Please send your birthday',
  address: 'Please send details for address verification',
};
const SUBMIT_FIELD: Record<string, PaystackStep> = {
  '/charge/submit_pin': 'pin',
  '/charge/submit_otp': 'otp',
  '/charge/submit_phone': 'phone',
  '/charge/submit_birthday': 'birthday',
  '/charge/submit_address': 'address',
};
const CURRENCIES = ['NGN', 'GHS', 'ZAR', 'KES', 'USD'];
const MOBILE_MONEY_PROVIDERS: Record<string, readonly string[]> = { GHS: ['mtn', 'atl', 'vod', 'tgo'], KES: ['mpesa'] };
const USSD_ROOT: Record<string, string> = { '737': '*737*33*4', '919': '*919*4', '822': '*822*5', '966': '*966*8' };

/* ------------------------------------------------------------------------ state */

interface Charge {
  /** The account whose key created it. */
  account: Account;
  reference: string;
  id: number;
  channel: PaystackLedgerEntry['channel'];
  currency: string;
  amount: number;
  email: string;
  status: PaystackChargeState;
  /** Remaining steps, the first being the one waited on. */
  steps: PaystackStep[];
  card: PaystackTestCard | null;
  cardLast4: string | null;
  cardBin: string | null;
  provider: string | null;
  displayText: string | null;
  url: string | null;
  ussdCode: string | null;
  accountExpiresAt: string | null;
  failureMessage: string | null;
  submissions: PaystackLedgerSubmission[];
  wrongOtps: number;
  otpLockedUntil: number;
  createdAt: number;
  paidAt: number | null;
  /** `authorization.authorization_code` of the transaction (issued at creation, or the saved one charged). */
  authorizationCode: string | null;
  /** `exp_month` / `exp_year` of the card as Paystack prints them ("12", "2030"), or null. */
  expMonth: string | null;
  expYear: string | null;
  /** Made by POST /transaction/charge_authorization. */
  viaAuthorization: boolean;
  /** A charge_authorization challenged by Two-Factor Authentication (answered `paused: true`). */
  paused: boolean;
}

/** Path prefix of the stand-in's signed upload URLs (S3's stand-in). */
const UPLOAD_PREFIX = '/_uploads/';

interface DisputeRecord {
  account: Account;
  id: number;
  charge: Charge;
  amount: number;
  status: string;
  resolution: string | null;
  category: string;
  dueAt: string | null;
  resolvedAt: number | null;
  message: string;
  evidence: Json | null;
  evidenceId: number | null;
  /** Upload URLs issued (fileName → requested name), then received. */
  pendingUploads: Map<string, string>;
  uploads: PaystackStandInDispute['uploads'];
  resolutions: Json[];
  createdAt: number;
  updatedAt: number;
}

interface RefundRecord {
  /** The account whose key created it. */
  account: Account;
  id: number;
  reference: string;
  transactionId: number;
  amount: number;
  currency: string;
  status: PaystackRefundState;
  merchantNote: string | null;
  customerNote: string | null;
  createdAt: number;
}

interface Answer {
  status: number;
  body: unknown;
}

type ArmedFault = PaystackPendingFault;

/** One account's state: what a request made with its key can see or change. */
interface Account {
  secretKey: string;
  /** Paystack's integration (account) id. */
  integration: number;
  charges: Map<string, Charge>;
  refunds: Map<number, RefundRecord>;
  /** Saved card authorizations by `authorization_code`. */
  authorizations: Map<string, PaystackStandInAuthorization>;
  /** Disputes by id. */
  disputes: Map<number, DisputeRecord>;
}

const newAccount = (secretKey: string, integration: number): Account => ({
  secretKey,
  integration,
  charges: new Map(),
  refunds: new Map(),
  authorizations: new Map(),
  disputes: new Map(),
});

/** The default account's integration id (the one the stand-in always printed on refunds). */
const DEFAULT_INTEGRATION = 412829;

/** A secret key shown without itself: the first 8 characters, `*`s, the last 4 (`****` when 12 characters or fewer). */
function maskKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
}

/** The key of an `Authorization: Bearer <key>` header, or null. */
function bearerKey(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

const ok = (message: string, data: unknown): Answer => ({ status: 200, body: { status: true, message, data } });
const refusal = (status: number, message: string): Answer => ({ status, body: { status: false, message } });
const validationError = (message: string, code: string = PAYSTACK_VALIDATION_ERROR.code): Answer => ({
  status: 400,
  body: { status: false, message, meta: { nextStep: PAYSTACK_VALIDATION_ERROR.nextStep }, type: PAYSTACK_VALIDATION_ERROR.type, code },
});
const API_ERROR = (): Answer => ({
  status: 500,
  body: { status: false, message: 'An error occurred', type: 'api_error', code: 'unknown' },
});

/** Paystack's verify status for a Charge API status (https://paystack.com/docs/payments/verify-payments/). */
function transactionStatusOf(c: Charge, refunds: RefundRecord[]): PaystackLedgerEntry['transactionStatus'] {
  if (c.status === 'success') {
    const processed = refunds.filter((r) => r.status === 'processed').reduce((s, r) => s + r.amount, 0);
    return processed >= c.amount ? 'reversed' : 'success';
  }
  if (c.status === 'failed') return 'failed';
  if (c.status === 'abandoned') return 'abandoned';
  return 'ongoing';
}

/* ------------------------------------------------------------------- the server */

class StandIn implements PaystackStandIn {
  readonly secretKey: string;
  url = '';
  readonly #server: Server;
  readonly #now: () => number;
  readonly #refundStatusOnCreate: PaystackRefundState;
  readonly #t: Templates;
  #port = 0;
  #requests: PaystackStandInRequest[] = [];
  /** Every account by secret key, the default one first. */
  readonly #accounts = new Map<string, Account>();
  readonly #default: Account;
  #faults: ArmedFault[] = [];
  #down: false | 'reset' | 'refuse' = false;
  #hanging = new Set<ServerResponse>();
  #sockets = new Set<Socket>();
  #generation = 0;
  #nextTransactionId = 4_000_000_000 + Math.floor(Math.random() * 90_000_000);
  #nextRefundId = 3_000_000 + Math.floor(Math.random() * 900_000);
  #nextDisputeId = 350_000 + Math.floor(Math.random() * 900_000);
  /** Signs the stand-in's upload URLs (a per-process value; the URLs are only valid on this server). */
  readonly #uploadSecret = randomBytes(16).toString('hex');

  constructor(options: PaystackStandInOptions) {
    this.secretKey = options.secretKey ?? PAYSTACK_STAND_IN_SECRET_KEY;
    this.#default = newAccount(this.secretKey, DEFAULT_INTEGRATION);
    this.#accounts.set(this.secretKey, this.#default);
    for (const key of options.accounts ?? []) {
      if (!/^\S+$/.test(key)) throw new Error('Paystack stand-in: an account key must be a non-empty string without spaces');
      if (this.#accounts.has(key)) throw new Error(`Paystack stand-in: two accounts with the key ${maskKey(key)}`);
      this.#accounts.set(key, newAccount(key, this.#newIntegration()));
    }
    this.#now = options.now ?? Date.now;
    this.#refundStatusOnCreate = options.refundStatusOnCreate ?? 'pending';
    this.#t = loadTemplates();
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

  get requests(): readonly PaystackStandInRequest[] {
    return this.#requests;
  }

  failNext(match: PaystackFaultMatch, fault: PaystackStandInFault, options: { times?: number } = {}): void {
    const times = options.times ?? 1;
    if (!Number.isSafeInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    this.#faults.push({ match: { ...match }, fault, remaining: times });
  }

  pendingFaults(): PaystackPendingFault[] {
    return this.#faults.map(({ match, fault, remaining }) => ({ match: { ...match }, fault, remaining }));
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
      // Let clients see their pooled keep-alive sockets close, so the next request opens a new
      // connection and is refused (rather than failing on a dead pooled socket).
      await new Promise((r) => setTimeout(r, 25));
    } else if (mode !== 'refuse' && wasRefusing) {
      await this.listen(this.#port);
    }
  }

  completeOffline(reference: string, outcome: 'success' | 'failed', secretKey?: string): void {
    const c = this.#findCharge(reference, secretKey);
    if (!['pay_offline', 'pending_bank_transfer', 'open_url', 'abandoned'].includes(c.status)) {
      throw new Error(`Paystack stand-in: charge ${reference} is ${c.status}, not waiting off-line`);
    }
    if (outcome === 'success') {
      // A hosted checkout is limited to cards (`channels: ["card"]`): the stand-in takes it as paid with the
      // card of Paystack's verify sample (408408…4081, 12/2030), which is `noValidation`.
      if (c.channel === 'checkout' && !c.card) {
        c.card = PAYSTACK_TEST_CARDS.noValidation;
        c.cardLast4 = c.card.number.slice(-4);
        c.cardBin = c.card.number.slice(0, 6);
        c.expMonth = '12';
        c.expYear = '2030';
        c.authorizationCode ??= `AUTH_${randomCode(10)}`;
      }
      this.#succeed(c);
    } else this.#fail(c, 'Declined');
  }

  setRefundStatus(id: number, status: PaystackRefundState): void {
    const r = [...this.#accounts.values()].map((a) => a.refunds.get(id)).find((x) => x !== undefined);
    if (!r) throw new Error(`Paystack stand-in: no refund ${id}`);
    r.status = status;
  }

  openDispute(
    reference: string,
    options: { amount?: number; status?: string; category?: string; dueAt?: string | null; message?: string } = {},
    secretKey?: string,
  ): PaystackStandInDispute {
    const account = this.#account(secretKey ?? this.secretKey);
    const charge = account.charges.get(reference);
    if (!charge) throw new Error(`Paystack stand-in: no charge ${reference} in the account of ${maskKey(account.secretKey)}`);
    const now = this.#now();
    const amount = options.amount ?? charge.amount;
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('Paystack stand-in: a dispute amount is a positive integer');
    this.#nextDisputeId += 1;
    const d: DisputeRecord = {
      account,
      id: this.#nextDisputeId,
      charge,
      amount,
      status: options.status ?? 'awaiting-merchant-feedback',
      resolution: null,
      category: options.category ?? 'chargeback',
      dueAt: options.dueAt === undefined ? isoAt(now + 16 * 3_600_000) : options.dueAt,
      resolvedAt: null,
      message: options.message ?? 'Customer complained about debit without value',
      evidence: null,
      evidenceId: null,
      pendingUploads: new Map(),
      uploads: [],
      resolutions: [],
      createdAt: now,
      updatedAt: now,
    };
    account.disputes.set(d.id, d);
    return this.#disputeSnapshot(d);
  }

  resolveDispute(id: number, resolution: string): PaystackStandInDispute {
    const d = this.#findDispute(id);
    d.status = 'resolved';
    d.resolution = resolution;
    d.resolvedAt = this.#now();
    d.updatedAt = d.resolvedAt;
    return this.#disputeSnapshot(d);
  }

  setDisputeStatus(id: number, status: string, resolution: string | null = null): PaystackStandInDispute {
    const d = this.#findDispute(id);
    d.status = status;
    d.resolution = resolution;
    d.updatedAt = this.#now();
    return this.#disputeSnapshot(d);
  }

  dispute(id: number): PaystackStandInDispute | undefined {
    const d = [...this.#accounts.values()].map((a) => a.disputes.get(id)).find((x) => x !== undefined);
    return d ? this.#disputeSnapshot(d) : undefined;
  }

  disputesOf(secretKey?: string): PaystackStandInDispute[] {
    return [...this.#account(secretKey ?? this.secretKey).disputes.values()].map((d) => this.#disputeSnapshot(d));
  }

  disputeWebhook(
    id: number,
    event: 'charge.dispute.create' | 'charge.dispute.remind' | 'charge.dispute.resolve',
  ): { rawBody: string; headers: { 'content-type': string; 'x-paystack-signature': string } } {
    const d = this.#findDispute(id);
    const rawBody = JSON.stringify({ event, data: this.#renderDispute(d, 'event') });
    return {
      rawBody,
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': createHmac('sha512', d.account.secretKey).update(rawBody, 'utf8').digest('hex'),
      },
    };
  }

  renderDispute(id: number): Record<string, unknown> {
    return this.#renderDispute(this.#findDispute(id), 'api');
  }

  #findDispute(id: number): DisputeRecord {
    const d = [...this.#accounts.values()].map((a) => a.disputes.get(id)).find((x) => x !== undefined);
    if (!d) throw new Error(`Paystack stand-in: no dispute ${id}`);
    return d;
  }

  #disputeSnapshot(d: DisputeRecord): PaystackStandInDispute {
    return {
      id: d.id,
      integration: d.account.integration,
      reference: d.charge.reference,
      transactionId: d.charge.id,
      amount: d.amount,
      currency: d.charge.currency,
      status: d.status,
      resolution: d.resolution,
      category: d.category,
      dueAt: d.dueAt,
      resolvedAt: d.resolvedAt === null ? null : isoAt(d.resolvedAt),
      evidence: d.evidence ? { ...d.evidence } : null,
      uploads: d.uploads.map((u) => ({ ...u })),
      resolutions: d.resolutions.map((r) => ({ ...r })),
    };
  }

  /**
   * A dispute as Paystack prints it: the [DCS] `charge.dispute.create` sample's `data` with the stand-in's values. `api`
   * (GET /dispute/:id, [DCS] fetch sample) names the times `createdAt`/`updatedAt`; `event` (the event samples) `created_at`/`updated_at`.
   */
  #renderDispute(d: DisputeRecord, as: 'api' | 'event'): Json {
    const t = clone(this.#t.dispute);
    const transaction = (t.transaction ?? {}) as Json;
    const customer = (t.customer ?? {}) as Json;
    const { created_at: _c, updated_at: _u, ...rest } = t;
    const c = d.charge;
    const times =
      as === 'api'
        ? { createdAt: isoAt(d.createdAt), updatedAt: isoAt(d.updatedAt) }
        : { created_at: isoAt(d.createdAt), updated_at: isoAt(d.updatedAt) };
    return {
      ...rest,
      id: d.id,
      refund_amount: d.amount,
      currency: c.currency,
      status: d.status,
      resolution: d.resolution,
      domain: 'test',
      transaction: {
        ...transaction,
        id: c.id,
        domain: 'test',
        status: d.status === 'resolved' && d.resolution !== 'declined' ? 'reversed' : 'success',
        reference: c.reference,
        amount: c.amount,
        requested_amount: c.amount,
        currency: c.currency,
        channel: c.channel === 'checkout' ? 'card' : c.channel,
        paid_at: c.paidAt === null ? null : isoAt(c.paidAt),
        paidAt: c.paidAt === null ? null : isoAt(c.paidAt),
        created_at: isoAt(c.createdAt),
        // Required or typed by [OAS] DisputeFetchResponse where the [DCS] samples print nothing, null or "".
        createdAt: isoAt(c.createdAt),
        ip_address: '127.0.0.1',
        metadata: { custom_fields: [] },
        authorization: { receiver_bank_account_number: null, receiver_bank: null },
        source: null,
        fees_breakdown: null,
        connect: null,
      },
      category: d.category,
      customer: {
        ...customer,
        email: c.email,
        customer_code: customerCode(c.account.integration, c.email),
        international_format_phone: '+2348000000000',
      },
      bin: c.cardBin ?? t.bin,
      last4: c.cardLast4 ?? t.last4,
      dueAt: d.dueAt,
      resolvedAt: d.resolvedAt === null ? null : isoAt(d.resolvedAt),
      evidence: d.evidence ? { ...d.evidence } : null,
      attachments: d.uploads.length ? d.uploads.map((u) => u.fileName).join(',') : null,
      history: [{ status: 'pending', by: c.email, createdAt: isoAt(d.createdAt) }],
      messages: [{ sender: c.email, body: d.message, createdAt: isoAt(d.createdAt) }],
      ...times,
    };
  }

  /** GET /dispute/:id ([DCS] fetch sample's envelope: "Dispute retrieved"). */
  #fetchDispute(a: Account, id: string): Answer {
    const d = /^\d+$/.test(id) ? a.disputes.get(Number(id)) : undefined;
    if (!d) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    return ok('Dispute retrieved', this.#renderDispute(d, 'api'));
  }

  /** GET /dispute/:id/upload_url ([DCS] upload-url sample: "Upload url generated", `{signedUrl, fileName}`). */
  #uploadUrl(a: Account, id: string, params: URLSearchParams): Answer {
    const d = /^\d+$/.test(id) ? a.disputes.get(Number(id)) : undefined;
    if (!d) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    const requested = params.get('upload_filename');
    if (!requested) return validationError('upload_filename is required');
    const fileName = randomCode(20);
    d.pendingUploads.set(fileName, requested);
    const signedUrl = `${this.url}${UPLOAD_PREFIX}${fileName}?X-Amz-Expires=1800&X-Amz-Signature=${this.#uploadSignature(fileName)}`;
    return ok('Upload url generated', { signedUrl, fileName });
  }

  #uploadSignature(fileName: string): string {
    return createHmac('sha256', this.#uploadSecret).update(fileName, 'utf8').digest('hex');
  }

  /** PUT <signedUrl>: the bytes of one evidence file (S3 answers 200 with an empty body). */
  #receiveUpload(ctx: RequestContext): Answer {
    const fileName = decodeURIComponent(ctx.path.slice(UPLOAD_PREFIX.length));
    const d = [...this.#accounts.values()].flatMap((a) => [...a.disputes.values()]).find((x) => x.pendingUploads.has(fileName));
    if (!d || ctx.params.get('X-Amz-Signature') !== this.#uploadSignature(fileName))
      return { status: 403, body: { message: 'SignatureDoesNotMatch' } };
    const uploadFilename = d.pendingUploads.get(fileName)!;
    d.pendingUploads.delete(fileName);
    d.uploads.push({
      fileName,
      uploadFilename,
      contentType: ctx.contentType,
      size: ctx.raw.length,
      sha256: createHash('sha256').update(ctx.raw).digest('hex'),
    });
    d.updatedAt = this.#now();
    return { status: 200, body: {} };
  }

  /** POST /dispute/:id/evidence: [OAS] DisputeEvidence; answers the [DCS] evidence sample's shape ("Evidence created"). */
  #addEvidence(a: Account, id: string, ctx: RequestContext): Answer {
    const d = /^\d+$/.test(id) ? a.disputes.get(Number(id)) : undefined;
    if (!d) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    const body = ctx.body ?? {};
    if (!this.#t.disputeEvidence(body)) return this.#schemaRefusal(ctx, this.#t.disputeEvidence.errors);
    const now = isoAt(this.#now());
    d.evidenceId ??= 20 + (d.id % 1000);
    d.evidence = { ...body, dispute: d.id, id: d.evidenceId, createdAt: d.evidence?.createdAt ?? now, updatedAt: now };
    d.updatedAt = this.#now();
    return ok('Evidence created', { ...d.evidence });
  }

  /** PUT /dispute/:id/resolve: [OAS] DisputeResolve (see the module comment); answers the [DCS] resolve sample's shape. */
  #resolve(a: Account, id: string, ctx: RequestContext): Answer {
    const d = /^\d+$/.test(id) ? a.disputes.get(Number(id)) : undefined;
    if (!d) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    const body = ctx.body ?? {};
    if (!this.#t.disputeResolve(body)) return this.#schemaRefusal(ctx, this.#t.disputeResolve.errors);
    if (body.resolution !== 'merchant-accepted' && body.resolution !== 'declined')
      return validationError(PAYSTACK_STAND_IN_MESSAGES.disputeResolutionInvalid);
    if (d.status === 'resolved' || d.status === 'awaiting-bank-feedback') return refusal(400, PAYSTACK_STAND_IN_MESSAGES.disputeResolved);
    if (body.uploaded_filename !== undefined && !d.uploads.some((u) => u.fileName === body.uploaded_filename))
      return refusal(400, PAYSTACK_STAND_IN_MESSAGES.disputeUploadRequired);
    if (body.resolution === 'declined' && body.uploaded_filename === undefined)
      return refusal(400, PAYSTACK_STAND_IN_MESSAGES.disputeUploadRequired);
    const now = this.#now();
    d.resolutions.push({ ...body });
    if (body.resolution === 'merchant-accepted') {
      d.status = 'resolved';
      d.resolution = 'merchant-accepted';
      d.amount = Number(body.refund_amount);
      d.resolvedAt = now;
    } else {
      d.status = 'awaiting-bank-feedback';
    }
    d.updatedAt = now;
    const rendered = this.#renderDispute(d, 'api');
    const { customer: _customer, history: _history, messages: _messages, ...rest } = rendered;
    return ok('Dispute successfully resolved', {
      ...rest,
      message: { dispute: d.id, sender: d.charge.email, body: String(body.message), createdAt: isoAt(now), updatedAt: isoAt(now) },
    });
  }

  #schemaRefusal(ctx: RequestContext, errors: ErrorObject[] | null | undefined): Answer {
    const list = (errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`.trim());
    ctx.record.schemaErrors = list;
    return validationError(list.join('; '));
  }

  addAccount(): PaystackStandInAccount {
    let key: string;
    do key = `sk_test_${randomBytes(20).toString('hex')}`;
    while (this.#accounts.has(key));
    const account = newAccount(key, this.#newIntegration());
    this.#accounts.set(key, account);
    return { integration: account.integration, secretKey: key };
  }

  removeAccount(secretKey: string): void {
    const account = this.#account(secretKey);
    if (account === this.#default) throw new Error('Paystack stand-in: the default account cannot be removed');
    this.#accounts.delete(secretKey);
  }

  accounts(): PaystackStandInAccount[] {
    return [...this.#accounts.values()].map((a) => ({ integration: a.integration, secretKey: a.secretKey }));
  }

  authorizationsOf(secretKey: string): PaystackStandInAuthorization[] {
    return [...this.#account(secretKey).authorizations.values()].map((x) => ({ ...x }));
  }

  /** The account a key names. @throws Error when none */
  #account(secretKey: string): Account {
    const account = this.#accounts.get(secretKey);
    if (!account) throw new Error(`Paystack stand-in: no account has the key ${maskKey(secretKey)}`);
    return account;
  }

  /** A fresh integration id (6 digits, as Paystack's), unused by the other accounts. */
  #newIntegration(): number {
    const used = new Set([...this.#accounts.values()].map((a) => a.integration));
    let id: number;
    do id = 100_000 + (randomBytes(4).readUInt32BE(0) % 900_000);
    while (used.has(id));
    return id;
  }

  /**
   * The charge of a reference: in the account `secretKey` names when given, else in the default
   * account, else in the only account that has it.
   * @throws Error when no account (or more than one, without `secretKey`) has it
   */
  #findCharge(reference: string, secretKey: string | undefined): Charge {
    if (secretKey !== undefined) {
      const c = this.#account(secretKey).charges.get(reference);
      if (!c) throw new Error(`Paystack stand-in: no charge ${reference} in the account of ${maskKey(secretKey)}`);
      return c;
    }
    const own = this.#default.charges.get(reference);
    if (own) return own;
    const found = [...this.#accounts.values()].map((a) => a.charges.get(reference)).filter((c): c is Charge => c !== undefined);
    if (found.length === 0) throw new Error(`Paystack stand-in: no charge ${reference}`);
    if (found.length > 1) throw new Error(`Paystack stand-in: several accounts have a charge ${reference}: pass the secret key`);
    return found[0]!;
  }

  reset(): void {
    this.#generation += 1;
    this.#requests.length = 0;
    for (const a of this.#accounts.values()) {
      a.charges.clear();
      a.refunds.clear();
      a.authorizations.clear();
      a.disputes.clear();
    }
    this.#faults = [];
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

  ledger(): Record<string, PaystackLedgerEntry> {
    return this.ledgerOf(this.secretKey);
  }

  ledgerOf(secretKey: string): Record<string, PaystackLedgerEntry> {
    const out: Record<string, PaystackLedgerEntry> = {};
    for (const reference of this.#account(secretKey).charges.keys()) out[reference] = this.entryOf(secretKey, reference)!;
    return out;
  }

  entry(reference: string): PaystackLedgerEntry | undefined {
    return this.entryOf(this.secretKey, reference);
  }

  entryOf(secretKey: string, reference: string): PaystackLedgerEntry | undefined {
    const c = this.#account(secretKey).charges.get(reference);
    if (!c) return undefined;
    const refunds = this.#refundsOf(c);
    return {
      reference: c.reference,
      transactionId: c.id,
      channel: c.channel,
      currency: c.currency,
      amount: c.amount,
      email: c.email,
      status: c.status,
      transactionStatus: transactionStatusOf(c, refunds),
      waitingOn: c.steps[0] ?? null,
      displayText: c.displayText,
      amountCaptured: c.status === 'success' ? c.amount : 0,
      amountRefunded: refunds.filter((r) => r.status !== 'failed').reduce((s, r) => s + r.amount, 0),
      refunds: refunds.map((r) => ({
        id: r.id,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
        merchantNote: r.merchantNote,
        customerNote: r.customerNote,
      })),
      submissions: c.submissions.map((s) => ({ ...s })),
      wrongOtps: c.wrongOtps,
      failureMessage: c.failureMessage,
      cardLast4: c.cardLast4,
      provider: c.provider,
      authorizationCode: c.authorizationCode,
      viaChargeAuthorization: c.viaAuthorization,
    };
  }

  /* ---------------------------------------------------------------- plumbing */

  #refundsOf(c: Charge): RefundRecord[] {
    return [...c.account.refunds.values()].filter((r) => r.transactionId === c.id);
  }

  #dropPending(): void {
    for (const res of this.#hanging) res.socket?.destroy();
    this.#hanging.clear();
  }

  #takeFault(method: string, path: string, key: string | null): ArmedFault | null {
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
    const record: PaystackStandInRequest = {
      seq: this.#requests.length + 1,
      method,
      path: url.pathname,
      query: url.search,
      authorized: account !== null,
      integration: account?.integration ?? null,
      keyHint: key === null ? null : maskKey(key),
      body: null,
      schemaErrors: null,
      fault: null,
      outcome: 'pending',
      status: null,
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
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined);
    req.on('end', () => {
      if (generation !== this.#generation) return;
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let body: Record<string, unknown> | null = null;
      let unparseable = false;
      const isUpload = method === 'PUT' && url.pathname.startsWith(UPLOAD_PREFIX);
      if (text && !isUpload) {
        const type = String(req.headers['content-type'] ?? '');
        try {
          body = type.includes('application/x-www-form-urlencoded') ? parseForm(text) : (JSON.parse(text) as Record<string, unknown>);
        } catch {
          unparseable = true;
        }
      }
      record.body = redact(body);
      this.#serve(
        {
          method,
          path: url.pathname,
          params: url.searchParams,
          body,
          unparseable,
          record,
          account,
          key,
          raw,
          contentType: req.headers['content-type'] ?? null,
        },
        res,
        generation,
      );
    });
  }

  #hang(res: ServerResponse, record: PaystackStandInRequest): void {
    record.outcome = 'hung';
    this.#hanging.add(res);
    res.on('close', () => this.#hanging.delete(res));
  }

  #send(res: ServerResponse, record: PaystackStandInRequest, answer: Answer): void {
    record.status = answer.status;
    record.outcome = 'answered';
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(answer.body));
  }

  #serve(ctx: RequestContext, res: ServerResponse, generation: number): void {
    const fault = this.#takeFault(ctx.method, ctx.path, ctx.key);
    ctx.record.fault = fault?.fault ?? null;
    switch (fault?.fault) {
      case 'hang_before_work':
        this.#hang(res, ctx.record);
        return;
      case 'error_500_before_work':
        this.#send(res, ctx.record, API_ERROR());
        return;
      case 'reset_before_work':
        ctx.record.outcome = 'reset';
        res.socket?.destroy();
        return;
      default:
        break;
    }
    const answer = this.#execute(ctx);
    if (generation !== this.#generation) return;
    switch (fault?.fault) {
      case 'hang_after_work':
        ctx.record.status = answer.status;
        this.#hang(res, ctx.record);
        return;
      case 'reset_after_work':
        ctx.record.status = answer.status;
        ctx.record.outcome = 'reset';
        res.socket?.destroy();
        return;
      case 'error_500_after_work':
        this.#send(res, ctx.record, API_ERROR());
        return;
      default:
        this.#send(res, ctx.record, answer);
    }
  }

  /** Authentication, body validation and the endpoint. */
  #execute(ctx: RequestContext): Answer {
    const a = ctx.account;
    // The signed upload URL is S3's stand-in: its signature authorizes the PUT, no key is sent.
    if (ctx.method === 'PUT' && ctx.path.startsWith(UPLOAD_PREFIX)) return this.#receiveUpload(ctx);
    if (!a) return refusal(401, PAYSTACK_STAND_IN_MESSAGES.invalidKey);
    if (ctx.unparseable) return validationError('Invalid JSON body');
    const { method, path } = ctx;
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
    if (method === 'POST') {
      const validate = this.#t.validators[path];
      if (validate) {
        const body = ctx.body ?? {};
        if (!validate(body)) {
          const errors = (validate.errors ?? []).map((e: ErrorObject) =>
            `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`.trim(),
          );
          ctx.record.schemaErrors = errors;
          return validationError(errors.join('; '));
        }
      }
      if (path === '/charge') return this.#createCharge(a, ctx.body ?? {});
      if (SUBMIT_FIELD[path]) return this.#submit(a, SUBMIT_FIELD[path]!, ctx.body ?? {});
      if (path === '/refund') return this.#createRefund(a, ctx.body ?? {});
      if (path === '/transaction/initialize') return this.#initialize(a, ctx.body ?? {});
      if (path === '/transaction/charge_authorization') return this.#chargeAuthorization(a, ctx.body ?? {});
      if (path === '/customer/authorization/deactivate' || path === '/customer/deactivate_authorization')
        return this.#deactivateAuthorization(a, ctx.body ?? {});
    }
    if (segments[0] === 'dispute' && segments[1] !== undefined) {
      const [, id, action, extra] = segments;
      if (extra === undefined) {
        if (method === 'GET' && action === undefined) return this.#fetchDispute(a, id!);
        if (method === 'GET' && action === 'upload_url') return this.#uploadUrl(a, id!, ctx.params);
        if (method === 'POST' && action === 'evidence') return this.#addEvidence(a, id!, ctx);
        if (method === 'PUT' && action === 'resolve') return this.#resolve(a, id!, ctx);
      }
    }
    if (method === 'GET') {
      const [s1, s2, s3, s4] = segments;
      if (s1 === 'balance' && s2 === undefined) return this.#balance(a);
      if (s1 === 'charge' && s2 && s3 === undefined) return this.#checkCharge(a, s2);
      if (s1 === 'transaction' && s2 === 'verify' && s3 && s4 === undefined) return this.#verify(a, s3);
      if (s1 === 'refund' && s2 === undefined) return this.#listRefunds(a, ctx.params);
      if (s1 === 'refund' && s2 && s3 === undefined) return this.#fetchRefund(a, s2);
    }
    return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
  }

  /* ------------------------------------------------------------ rendering */

  /** The Charge API `data` for the charge's current status ([DCS] charges/create samples). */
  #renderCharge(c: Charge): Json {
    switch (c.status) {
      case 'success': {
        // [OAS] ChargeSubmit*Response requires these, which the [DCS] sample lacks or types otherwise.
        const t = this.#renderTransaction(c, this.#t.successCharge);
        return { ...t, redirect_url: null, metadata: {} };
      }
      case 'failed':
        return { reference: c.reference, status: 'failed', message: c.failureMessage };
      case 'send_pin':
        return { reference: c.reference, status: 'send_pin' };
      case 'send_address':
        return { display_text: c.displayText, reference: c.reference, status: 'send_address', country_code: c.card?.countryCode ?? 'US' };
      case 'send_otp':
      case 'send_phone':
      case 'send_birthday':
        return { reference: c.reference, status: c.status, display_text: c.displayText };
      case 'open_url':
        return { reference: c.reference, url: c.url, status: 'open_url' };
      case 'pay_offline':
        return c.ussdCode
          ? { reference: c.reference, status: 'pay_offline', display_text: c.displayText, ussd_code: c.ussdCode }
          : { reference: c.reference, status: 'pay_offline', display_text: c.displayText };
      case 'pending_bank_transfer':
        return { ...clone(this.#t.pwt), reference: c.reference, status: 'pending_bank_transfer', account_expires_at: c.accountExpiresAt };
      case 'abandoned':
        return { reference: c.reference, status: 'abandoned' };
    }
  }

  /** A full transaction object: `template` with the charge's values. */
  #renderTransaction(c: Charge, template: Json): Json {
    const t = clone(template);
    const authorization = (t.authorization ?? {}) as Json;
    const customer = (t.customer ?? {}) as Json;
    const refunds = this.#refundsOf(c);
    const status = transactionStatusOf(c, refunds);
    return {
      ...t,
      id: c.id,
      domain: 'test',
      status,
      reference: c.reference,
      amount: c.amount,
      requested_amount: c.amount,
      currency: c.currency,
      channel: c.channel === 'checkout' ? 'card' : c.channel,
      message: c.status === 'failed' ? c.failureMessage : null,
      gateway_response:
        c.status === 'success' ? 'Approved' : c.status === 'failed' ? c.failureMessage : 'The transaction was not completed',
      paid_at: c.paidAt === null ? null : isoAt(c.paidAt),
      paidAt: c.paidAt === null ? null : isoAt(c.paidAt),
      created_at: isoAt(c.createdAt),
      createdAt: isoAt(c.createdAt),
      transaction_date: isoAt(c.createdAt),
      log: null,
      metadata: '',
      authorization: this.#renderAuthorization(c, authorization),
      customer: { ...customer, email: c.email, customer_code: customerCode(c.account.integration, c.email) },
    };
  }

  /**
   * A transaction's `authorization`: `template`'s (a [DCS] sample's) with the charge's values. A card: its
   * BIN, last 4, expiry ("MM", "YYYY"), brand, the card number's stable `signature`, `reusable` once the
   * charge succeeded. Any other channel: `reusable: false` (cards only: "This currently only works for card",
   * https://paystack.com/docs/payments/recurring-charges/), a per-transaction `signature` (the schemas type it a string).
   */
  #renderAuthorization(c: Charge, template: Json): Json {
    const code = c.authorizationCode ?? `AUTH_${stableCode(`paystack-stand-in transaction ${c.id}`, 10, ALPHANUM)}`;
    if (c.card && c.cardLast4) {
      const brand = cardBrandOf(c.card.number);
      return {
        ...template,
        authorization_code: code,
        bin: c.cardBin,
        last4: c.cardLast4,
        exp_month: c.expMonth ?? '12',
        exp_year: c.expYear ?? '2030',
        channel: 'card',
        card_type: `${brand} `,
        bank: 'TEST BANK',
        country_code: c.card.countryCode ?? 'NG',
        brand,
        reusable: c.status === 'success',
        signature: cardSignature(c.card.number),
        account_name: null,
      };
    }
    return {
      ...template,
      authorization_code: code,
      bin: c.cardBin ?? (c.channel === 'mobile_money' ? '0XXXXX' : template.bin),
      last4: c.cardLast4 ?? 'X000',
      channel: c.channel === 'checkout' ? 'card' : c.channel,
      reusable: false,
      signature: `SIG_${c.id.toString(36)}`,
    };
  }

  /**
   * A refund as POST /refund ([DCS] refunds/create sample, valid against [OAS] RefundCreateResponse),
   * GET /refund/:id and GET /refund (the [DCS] fetch sample completed to [OAS] RefundFetchResponse /
   * RefundListResponseArray, which require more fields than the sample prints).
   */
  #renderRefund(r: RefundRecord, shape: 'create' | 'fetch' | 'list'): Json {
    const c = r.account.charges.get(r.reference)!;
    const channel = c.channel === 'checkout' ? 'card' : c.channel;
    const processed = r.status === 'processed';
    const notes = {
      merchant_note: r.merchantNote ?? `Refund for transaction ${r.reference}`,
      customer_note: r.customerNote ?? `Refund for transaction ${r.reference}`,
    };
    if (shape === 'create') {
      const base = clone(this.#t.refundCreate);
      return {
        ...base,
        ...notes,
        id: r.id,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
        domain: 'test',
        channel,
        deducted_amount: processed ? r.amount : 0,
        fully_deducted: processed,
        createdAt: isoAt(r.createdAt),
        updatedAt: isoAt(r.createdAt),
        transaction: {
          ...((base.transaction as Json | undefined) ?? {}),
          id: c.id,
          domain: 'test',
          reference: c.reference,
          amount: c.amount,
          currency: c.currency,
          channel,
          paid_at: c.paidAt === null ? null : isoAt(c.paidAt),
          paidAt: c.paidAt === null ? null : isoAt(c.paidAt),
        },
      };
    }
    return {
      ...clone(this.#t.refundFetch),
      ...notes,
      id: r.id,
      integration: r.account.integration,
      transaction: c.id,
      transaction_reference: c.reference,
      transaction_amount: c.amount,
      dispute: null,
      settlement: null,
      domain: 'test',
      amount: r.amount,
      deducted_amount: processed ? r.amount : 0,
      fully_deducted: processed ? 1 : 0,
      currency: r.currency,
      channel,
      status: r.status,
      refunded_by: 'api',
      refunded_at: processed ? isoAt(this.#now()) : null,
      expected_at: isoAt(r.createdAt + 7 * 24 * 3_600_000),
      createdAt: isoAt(r.createdAt),
      updatedAt: isoAt(this.#now()),
      bank_reference: null,
      reason: r.status.toUpperCase(),
      customer: {
        id: 1,
        first_name: '',
        last_name: '',
        email: c.email,
        customer_code: `CUS_${c.id.toString(36)}`,
        phone: '',
        metadata: '',
        risk_action: 'default',
        international_format_phone: '',
      },
      refund_type: r.amount === c.amount ? 'full' : 'partial',
      initiated_by: 'api',
      refund_channel: channel,
      session_id: null,
      collect_account_number: false,
    };
  }

  /* ------------------------------------------------------------ state changes */

  #succeed(c: Charge): void {
    c.status = 'success';
    c.steps = [];
    c.displayText = null;
    c.paidAt = this.#now();
    // A card's first successful charge makes its authorization reusable (a charge_authorization reuses one).
    if (c.card && c.cardLast4 && c.cardBin && c.authorizationCode && !c.viaAuthorization) {
      c.account.authorizations.set(c.authorizationCode, {
        code: c.authorizationCode,
        signature: cardSignature(c.card.number),
        email: c.email,
        last4: c.cardLast4,
        bin: c.cardBin,
        brand: cardBrandOf(c.card.number),
        expMonth: c.expMonth ?? '12',
        expYear: c.expYear ?? '2030',
        reference: c.reference,
        active: true,
      });
    }
  }

  #fail(c: Charge, message: string): void {
    c.status = 'failed';
    c.steps = [];
    c.displayText = null;
    c.failureMessage = message;
  }

  /** After the current step (or the charge itself): ask the next one, or end as the card says. */
  #advance(c: Charge): void {
    const next = c.steps[0];
    if (next) {
      c.status = STEP_STATUS[next];
      c.displayText = next === 'otp' && c.provider === 'vod' ? TELECEL_VOUCHER_PROMPT : STEP_PROMPT[next];
      return;
    }
    const outcome = c.card?.outcome ?? 'success';
    if (outcome === 'success') this.#succeed(c);
    else if (outcome === 'failed') this.#fail(c, c.card?.failureMessage ?? 'Declined');
    else {
      c.status = 'open_url';
      c.displayText = null;
      c.url = `${this.url}/standin/3ds/${encodeURIComponent(c.reference)}`;
    }
  }

  /* ------------------------------------------------------------ endpoints */

  /**
   * GET /balance ("Fetch Balance", https://paystack.com/docs/api/transfer-control/#balance; [OAS]
   * `paths/balance.yaml` → `BalanceCheckResponse`; body the [DCS] `transfers-control/balance` sample): the
   * account's balance per currency, `{currency, balance}` in subunits. Stand-in simplification: the money of
   * its successful transactions less their refunds that are not `failed`, at once (no fees, no settlement
   * delay); the sample's currency (NGN) at 0 while the account took nothing.
   */
  #balance(a: Account): Answer {
    const t = clone(this.#t.balance);
    const net = new Map<string, number>();
    for (const c of a.charges.values()) if (c.status === 'success') net.set(c.currency, (net.get(c.currency) ?? 0) + c.amount);
    for (const r of a.refunds.values()) if (r.status !== 'failed') net.set(r.currency, (net.get(r.currency) ?? 0) - r.amount);
    const sampleCurrency = String(((t.data as Json[] | undefined)?.[0] as Json | undefined)?.currency ?? 'NGN');
    const data = net.size
      ? [...net.keys()].sort().map((currency) => ({ currency, balance: net.get(currency)! }))
      : [{ currency: sampleCurrency, balance: 0 }];
    return { status: 200, body: { ...t, data } };
  }

  /** POST /charge (card, mobile_money, ussd, bank_transfer). */
  #createCharge(a: Account, body: Json): Answer {
    const M = PAYSTACK_STAND_IN_MESSAGES;
    const currency = typeof body.currency === 'string' ? body.currency : 'NGN';
    if (!CURRENCIES.includes(currency)) return refusal(400, M.currencyNotSupported);
    const amount = body.amount as number;
    if (!Number.isSafeInteger(amount) || amount <= 0) return validationError('Invalid Amount Sent');
    const instruments = ['card', 'mobile_money', 'ussd', 'bank_transfer', 'authorization_code', 'bank', 'eft', 'qr'].filter(
      (k) => body[k] !== undefined,
    );
    if (instruments.length === 0) return refusal(400, M.noInstrument);
    if (instruments.length > 1 || !['card', 'mobile_money', 'ussd', 'bank_transfer'].includes(instruments[0]!))
      return refusal(400, M.unsupportedInstrument);
    const reference = typeof body.reference === 'string' && body.reference ? body.reference : randomCode(15);
    if (!/^[A-Za-z0-9.=-]+$/.test(reference))
      return validationError('Invalid transaction reference: only -, ., = and alphanumeric characters allowed');
    if (a.charges.has(reference)) return this.#duplicate();
    const now = this.#now();
    const c: Charge = {
      account: a,
      reference,
      id: this.#nextTransactionId++,
      channel: instruments[0] as Charge['channel'],
      currency,
      amount,
      email: String(body.email),
      status: 'failed',
      steps: [],
      card: null,
      cardLast4: null,
      cardBin: null,
      provider: null,
      displayText: null,
      url: null,
      ussdCode: null,
      accountExpiresAt: null,
      failureMessage: null,
      submissions: [],
      wrongOtps: 0,
      otpLockedUntil: 0,
      createdAt: now,
      paidAt: null,
      authorizationCode: `AUTH_${randomCode(10)}`,
      expMonth: null,
      expYear: null,
      viaAuthorization: false,
      paused: false,
    };
    switch (c.channel) {
      case 'card': {
        const card = body.card as Json;
        const number = typeof card?.number === 'string' ? card.number.replace(/\s+/g, '') : '';
        if (
          !/^\d{12,19}$/.test(number) ||
          typeof card.cvv !== 'string' ||
          typeof card.expiry_month !== 'string' ||
          typeof card.expiry_year !== 'string'
        ) {
          return validationError('Invalid card object: number, cvv, expiry_month and expiry_year are required strings');
        }
        const known = Object.values(PAYSTACK_TEST_CARDS).find((t) => t.number === number) as PaystackTestCard | undefined;
        c.card = known ?? { ...PAYSTACK_TEST_CARDS.noValidation, number };
        c.cardLast4 = number.slice(-4);
        c.cardBin = number.slice(0, 6);
        c.expMonth = card.expiry_month.padStart(2, '0');
        c.expYear = card.expiry_year.length === 2 ? `20${card.expiry_year}` : card.expiry_year;
        c.steps = [...c.card.steps];
        a.charges.set(reference, c);
        this.#advance(c);
        break;
      }
      case 'mobile_money': {
        const mm = body.mobile_money as Json;
        const provider = typeof mm?.provider === 'string' ? mm.provider.toLowerCase() : '';
        if (typeof mm?.phone !== 'string' || !mm.phone || !(MOBILE_MONEY_PROVIDERS[currency] ?? []).includes(provider))
          return refusal(400, M.invalidProvider);
        c.provider = provider;
        a.charges.set(reference, c);
        if (provider === 'vod') {
          c.steps = ['otp'];
          this.#advance(c);
        } else {
          c.status = 'pay_offline';
          c.displayText = this.#t.momoPrompt;
        }
        break;
      }
      case 'ussd': {
        const type = String((body.ussd as Json).type ?? '');
        if (!USSD_ROOT[type] || currency !== 'NGN') return refusal(400, M.currencyNotSupported);
        c.status = 'pay_offline';
        c.ussdCode = `${USSD_ROOT[type]}*${String(c.id).slice(-5)}#`;
        c.displayText = `Please dial ${c.ussdCode} on your mobile phone to complete the transaction`;
        a.charges.set(reference, c);
        break;
      }
      case 'bank_transfer': {
        if (currency !== 'NGN' && currency !== 'KES') return refusal(400, M.currencyNotSupported);
        const expires = (body.bank_transfer as Json | undefined)?.account_expires_at;
        c.status = 'pending_bank_transfer';
        c.accountExpiresAt = typeof expires === 'string' ? expires : isoAt(now + 30 * 60_000);
        a.charges.set(reference, c);
        break;
      }
      default:
        break;
    }
    return ok('Charge attempted', this.#renderCharge(c));
  }

  #duplicate(): Answer {
    return {
      status: 400,
      body: {
        status: false,
        message: PAYSTACK_STAND_IN_MESSAGES.duplicateReference,
        meta: { nextStep: 'Try and create the Transaction or Charge with a new reference' },
        type: 'validation_error',
        code: 'duplicate_reference',
        errorCodeMappingNotFound: false,
      },
    };
  }

  /**
   * POST /transaction/charge_authorization: charges an active authorization of this account (see the module
   * comment). A new transaction under the request's `reference` (a random one when absent), with the
   * authorization's card; what happens is the card's `recurring` (default: charged). Answers: the full
   * transaction ([DCS] charge_authorization sample, valid against [OAS] ChargeAuthorizationResponse) when it
   * succeeded or failed, the step (`send_otp`) as the Charge API prints it, or the Two-Factor `paused` answer.
   */
  #chargeAuthorization(a: Account, body: Json): Answer {
    const M = PAYSTACK_STAND_IN_MESSAGES;
    const currency = typeof body.currency === 'string' ? body.currency : 'NGN';
    if (!CURRENCIES.includes(currency)) return refusal(400, M.currencyNotSupported);
    const amount = body.amount as number;
    if (!Number.isSafeInteger(amount) || amount <= 0) return validationError('Invalid Amount Sent');
    const saved = a.authorizations.get(String(body.authorization_code));
    if (!saved || !saved.active) return refusal(400, M.authorizationInactive);
    if (String(body.email).trim().toLowerCase() !== saved.email.trim().toLowerCase()) return refusal(400, M.authorizationEmailMismatch);
    const reference = typeof body.reference === 'string' && body.reference ? body.reference : randomCode(15);
    if (!/^[A-Za-z0-9.=-]+$/.test(reference))
      return validationError('Invalid transaction reference: only -, ., = and alphanumeric characters allowed');
    if (a.charges.has(reference)) return this.#duplicate();
    const card = a.charges.get(saved.reference)?.card ?? {
      ...PAYSTACK_TEST_CARDS.noValidation,
      number: `${saved.bin}000000${saved.last4}`,
    };
    const c: Charge = {
      account: a,
      reference,
      id: this.#nextTransactionId++,
      channel: 'card',
      currency,
      amount,
      email: String(body.email),
      status: 'failed',
      steps: [],
      card,
      cardLast4: saved.last4,
      cardBin: saved.bin,
      provider: null,
      displayText: null,
      url: null,
      ussdCode: null,
      accountExpiresAt: null,
      failureMessage: null,
      submissions: [],
      wrongOtps: 0,
      otpLockedUntil: 0,
      createdAt: this.#now(),
      paidAt: null,
      authorizationCode: saved.code,
      expMonth: saved.expMonth,
      expYear: saved.expYear,
      viaAuthorization: true,
      paused: false,
    };
    a.charges.set(reference, c);
    switch (card.recurring ?? 'success') {
      case 'failed':
        this.#fail(c, M.insufficientFunds);
        break;
      case 'send_otp':
        c.steps = ['otp'];
        this.#advance(c);
        return ok('Charge attempted', this.#renderCharge(c));
      case 'paused': {
        const accessCode = randomCode(15);
        c.status = 'open_url';
        c.paused = true;
        c.url = `https://checkout.paystack.com/resume/${accessCode}`;
        return {
          status: 200,
          body: {
            status: true,
            message: M.twoFactorChallenge,
            data: { authorization_url: c.url, reference, access_code: accessCode, paused: true },
          },
        };
      }
      default:
        this.#succeed(c);
    }
    const t = this.#renderTransaction(c, this.#t.chargeAuthorization);
    const answer: Json = {};
    // Exactly the sample's fields (ChargeAuthorizationResponse), with the charge's values.
    for (const key of Object.keys(this.#t.chargeAuthorization)) answer[key] = t[key];
    answer.metadata = typeof body.metadata === 'string' ? body.metadata : '';
    answer.message = null; // as the sample: a decline's reason is its `gateway_response`
    return ok('Charge attempted', answer);
  }

  /** POST /customer/authorization/deactivate (and the older /customer/deactivate_authorization). */
  #deactivateAuthorization(a: Account, body: Json): Answer {
    const M = PAYSTACK_STAND_IN_MESSAGES;
    const saved = a.authorizations.get(String(body.authorization_code));
    if (!saved || !saved.active) return refusal(404, M.authorizationNotFound);
    saved.active = false;
    return { status: 200, body: { status: true, message: M.authorizationDeactivated } };
  }

  /** POST /charge/submit_pin|otp|phone|birthday|address. */
  #submit(a: Account, step: PaystackStep, body: Json): Answer {
    const M = PAYSTACK_STAND_IN_MESSAGES;
    const c = a.charges.get(String(body.reference));
    if (!c) return refusal(400, M.referenceInvalid);
    if (c.steps[0] !== step) return refusal(400, M.notWaitingFor(step));
    if (step === 'otp' && c.otpLockedUntil > this.#now()) {
      c.submissions.push({ step, accepted: false });
      return refusal(400, M.tooManyOtps(Math.ceil((c.otpLockedUntil - this.#now()) / 60_000)));
    }
    let accepted: boolean;
    switch (step) {
      case 'pin':
        accepted = body.pin === c.card?.pin;
        break;
      case 'otp':
        accepted = c.provider === 'vod' ? body.otp === PAYSTACK_STAND_IN_VOUCHER : body.otp === c.card?.otp;
        break;
      case 'phone':
        accepted = /^\+?\d{7,15}$/.test(String(body.phone));
        break;
      default:
        accepted = true; // birthday (format checked by the schema), address (required fields checked)
    }
    c.submissions.push({ step, accepted });
    if (!accepted) {
      if (step === 'pin') {
        this.#fail(c, M.incorrectPin);
        return ok('Charge attempted', this.#renderCharge(c));
      }
      if (step === 'otp') {
        c.wrongOtps += 1;
        if (c.wrongOtps >= PAYSTACK_STAND_IN_LIMITS.maxWrongOtps) {
          c.otpLockedUntil = this.#now() + PAYSTACK_STAND_IN_LIMITS.otpLockMinutes * 60_000;
          c.wrongOtps = 0;
          return refusal(400, M.tooManyOtps(PAYSTACK_STAND_IN_LIMITS.otpLockMinutes));
        }
        return refusal(400, c.channel === 'mobile_money' ? M.incorrectMobileMoneyOtp : M.incorrectOtp);
      }
      return validationError(`Invalid ${step}`);
    }
    if (step === 'otp') c.wrongOtps = 0;
    c.steps.shift();
    this.#advance(c);
    return ok('Charge attempted', this.#renderCharge(c));
  }

  /** GET /charge/:reference (Check pending charge). */
  #checkCharge(a: Account, reference: string): Answer {
    const c = a.charges.get(reference);
    if (!c || c.channel === 'checkout') return refusal(400, PAYSTACK_STAND_IN_MESSAGES.referenceInvalid);
    return ok(c.status === 'failed' ? 'Reference check successful' : 'Charge attempted', this.#renderCharge(c));
  }

  /** GET /transaction/verify/:reference. */
  #verify(a: Account, reference: string): Answer {
    const c = a.charges.get(reference);
    if (!c) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    return ok('Verification successful', this.#renderTransaction(c, this.#t.verify));
  }

  /** POST /transaction/initialize (hosted checkout). */
  #initialize(a: Account, body: Json): Answer {
    const currency = typeof body.currency === 'string' ? body.currency : 'NGN';
    const reference = typeof body.reference === 'string' && body.reference ? body.reference : randomCode(10);
    if (a.charges.has(reference)) return this.#duplicate();
    const now = this.#now();
    const accessCode = randomCode(15);
    a.charges.set(reference, {
      account: a,
      reference,
      id: this.#nextTransactionId++,
      channel: 'checkout',
      currency,
      amount: body.amount as number,
      email: String(body.email),
      status: 'abandoned',
      steps: [],
      card: null,
      cardLast4: null,
      cardBin: null,
      provider: null,
      displayText: null,
      url: null,
      ussdCode: null,
      accountExpiresAt: null,
      failureMessage: null,
      submissions: [],
      wrongOtps: 0,
      otpLockedUntil: 0,
      createdAt: now,
      paidAt: null,
      authorizationCode: null,
      expMonth: null,
      expYear: null,
      viaAuthorization: false,
      paused: false,
    });
    const t = clone(this.#t.initialize);
    return {
      status: 200,
      body: { ...t, data: { authorization_url: `https://checkout.paystack.com/${accessCode}`, access_code: accessCode, reference } },
    };
  }

  /** POST /refund (`transaction`: reference or id; `amount` default: what is left). */
  #createRefund(a: Account, body: Json): Answer {
    const M = PAYSTACK_STAND_IN_MESSAGES;
    const key = String(body.transaction);
    const c = a.charges.get(key) ?? [...a.charges.values()].find((x) => String(x.id) === key);
    if (!c) return refusal(404, M.notFound);
    if (c.status !== 'success') return refusal(400, M.refundUnsuccessful);
    if (typeof body.currency === 'string' && body.currency !== c.currency) return refusal(400, M.currencyMismatch);
    const left =
      c.amount -
      this.#refundsOf(c)
        .filter((r) => r.status !== 'failed')
        .reduce((s, r) => s + r.amount, 0);
    const amount = body.amount === undefined ? left : (body.amount as number);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left) return refusal(400, M.refundTooLarge);
    const r: RefundRecord = {
      account: a,
      id: this.#nextRefundId++,
      reference: c.reference,
      transactionId: c.id,
      amount,
      currency: c.currency,
      status: this.#refundStatusOnCreate,
      merchantNote: typeof body.merchant_note === 'string' ? body.merchant_note : null,
      customerNote: typeof body.customer_note === 'string' ? body.customer_note : null,
      createdAt: this.#now(),
    };
    a.refunds.set(r.id, r);
    return ok('Refund has been queued for processing', this.#renderRefund(r, 'create'));
  }

  /** GET /refund/:id. */
  #fetchRefund(a: Account, id: string): Answer {
    const r = /^\d+$/.test(id) ? a.refunds.get(Number(id)) : undefined;
    if (!r) return refusal(404, PAYSTACK_STAND_IN_MESSAGES.notFound);
    return ok('Refund retrieved', this.#renderRefund(r, 'fetch'));
  }

  /** GET /refund: `transaction` (id or reference), `currency`, `from`/`to`, `perPage` (default 50), `page`; newest first. */
  #listRefunds(a: Account, params: URLSearchParams): Answer {
    const transaction = params.get('transaction');
    const currency = params.get('currency');
    const from = params.get('from') ? Date.parse(params.get('from')!) : null;
    const to = params.get('to') ? Date.parse(params.get('to')!) : null;
    const perPage = Math.max(1, Number(params.get('perPage') ?? 50) || 50);
    const pageNo = Math.max(1, Number(params.get('page') ?? 1) || 1);
    const all = [...a.refunds.values()]
      .filter((r) => !transaction || String(r.transactionId) === transaction || r.reference === transaction)
      .filter((r) => !currency || r.currency === currency)
      .filter((r) => (from === null || r.createdAt >= from) && (to === null || r.createdAt <= to))
      .reverse();
    const pageCount = Math.max(1, Math.ceil(all.length / perPage));
    const data = all.slice((pageNo - 1) * perPage, pageNo * perPage).map((r) => this.#renderRefund(r, 'list'));
    const meta = {
      total: all.length,
      skipped: (pageNo - 1) * perPage,
      perPage: String(perPage),
      page: pageNo,
      pageCount,
      failedRefundCount: all.filter((r) => r.status === 'failed').length,
    };
    return { status: 200, body: { status: true, message: 'Refunds retrieved', data, meta } };
  }
}

/** One request in flight. */
interface RequestContext {
  method: string;
  path: string;
  params: URLSearchParams;
  body: Record<string, unknown> | null;
  unparseable: boolean;
  record: PaystackStandInRequest;
  /** The account the key names, or null (answered 401). */
  account: Account | null;
  /** The bearer key sent, or null; never logged. */
  key: string | null;
  /** The body's bytes (uploads). */
  raw: Buffer;
  contentType: string | null;
}

/* ------------------------------------------------------------------- entry points */

/**
 * Starts a Paystack stand-in on 127.0.0.1 at a free port.
 * @param options the accepted key, the clock, the status of new refunds (all optional)
 * @returns the running stand-in; `close()` it when done
 * @throws Error when the [OAS]/[DCS] fixtures under test/connectors/fixtures/paystack/ are missing
 * @example
 *   const paystack = await startPaystackStandIn();
 *   process.env = { ...process.env, ...paystackEnv(paystack, { timeoutMs: 400 }) };
 *   paystack.failNext({ method: 'POST', path: '/charge/submit_otp' }, 'hang_after_work');
 */
export async function startPaystackStandIn(options: PaystackStandInOptions = {}): Promise<PaystackStandIn> {
  const standIn = new StandIn(options);
  await standIn.listen();
  return standIn;
}

/**
 * The environment the connector registry (`shared/processor-call/connector-registry.ts`) reads to build the
 * Paystack connector against the stand-in: `PAYSTACK_SECRET_KEY` (the default account's fake key, or
 * `options.account`'s; also the webhook key), `PAYSTACK_BASE_URL`; plus `CONNECTOR_TIMEOUT_MS` (every connector's) when
 * `options.timeoutMs` is given.
 */
export function paystackEnv(
  standIn: Pick<PaystackStandIn, 'url' | 'secretKey'>,
  options: { timeoutMs?: number; account?: Pick<PaystackStandInAccount, 'secretKey'> } = {},
): { PAYSTACK_SECRET_KEY: string; PAYSTACK_BASE_URL: string; CONNECTOR_TIMEOUT_MS?: string } {
  const env: { PAYSTACK_SECRET_KEY: string; PAYSTACK_BASE_URL: string; CONNECTOR_TIMEOUT_MS?: string } = {
    PAYSTACK_SECRET_KEY: (options.account ?? standIn).secretKey,
    PAYSTACK_BASE_URL: standIn.url,
  };
  if (options.timeoutMs !== undefined) env.CONNECTOR_TIMEOUT_MS = String(options.timeoutMs);
  return env;
}

/**
 * Our payment status for a ledger entry (the adapter's documented mapping, restated from Paystack's
 * status meanings so tests compare with the processor's truth, not with the adapter's table):
 * `success` → Succeeded, `failed` → Failed, a `send_*` step or an off-line wait → RequiresAction.
 */
export function expectedPaymentStatus(entry: Pick<PaystackLedgerEntry, 'status'>): 'Succeeded' | 'Failed' | 'RequiresAction' {
  if (entry.status === 'success') return 'Succeeded';
  if (entry.status === 'failed') return 'Failed';
  return 'RequiresAction';
}

/** The `submit_*` step our API shows for what a ledger entry waits on (`otp` → `submit_otp`), or null. */
export function expectedNextStep(entry: Pick<PaystackLedgerEntry, 'waitingOn'>): string | null {
  return entry.waitingOn ? `submit_${entry.waitingOn}` : null;
}
