/**
 * A minimal loopback Flutterwave v3 stand-in for merchant connector account tests: an in-process
 * `node:http` server on 127.0.0.1 (a free port) where each secret key names one Flutterwave account,
 * answering only `GET /v3/balances` ("Get all wallet balances") for the account the key names, and
 * failing on command (hang, 500, connection reset or refused) like the Stripe and Paystack stand-ins,
 * so a test can check a merchant's own Flutterwave credentials and make Flutterwave unreachable.
 *
 * Payments are not modelled here: the Flutterwave adapter's payment tests queue Flutterwave's
 * documented answers on test/connectors/fixtures/flutterwave/fixture-server.ts. This stand-in follows
 * that server's conventions (Flutterwave's envelope `{status, message, data}`, `Authorization: Bearer
 * <secret key>`, JSON), and adds accounts, the request log without secrets, and faults.
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
 * Not modelled: charges, verify, refunds, transfers, `GET /v3/balances/{currency}`, webhooks.
 *
 * Works under jest (CommonJS: the fixture is found through `__dirname`).
 */
import { randomBytes } from 'node:crypto';
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
}

/** Options of {@link startFlutterwaveStandIn}. */
export interface FlutterwaveStandInOptions {
  /** The default account's secret key (default {@link FLUTTERWAVE_STAND_IN_SECRET_KEY}). */
  secretKey?: string;
  /** More secret keys accepted, each naming an account of its own (own balances). */
  accounts?: string[];
}

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
  /** Forgets the requests, faults and `down`, and puts every account's wallets back at 0; keeps the accounts. */
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

interface Account {
  id: number;
  secretKey: string;
  encryptionKey: string;
  webhookHash: string;
  balances: FlutterwaveWalletBalance[];
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

  constructor(options: FlutterwaveStandInOptions) {
    this.secretKey = options.secretKey ?? FLUTTERWAVE_STAND_IN_SECRET_KEY;
    this.#default = {
      id: FLUTTERWAVE_STAND_IN_ACCOUNT_ID,
      secretKey: this.secretKey,
      encryptionKey: FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY,
      webhookHash: FLUTTERWAVE_STAND_IN_WEBHOOK_HASH,
      balances: zeroBalances(),
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
    for (const a of this.#accounts.values()) a.balances = zeroBalances();
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
    };
    this.#requests.push(record);
    if (this.#down === 'reset') {
      record.fault = 'down';
      record.outcome = 'reset';
      req.socket.destroy();
      return;
    }
    const generation = this.#generation;
    req.resume(); // no body is read
    req.on('error', () => undefined);
    req.on('end', () => {
      if (generation !== this.#generation) return;
      this.#serve(method, url.pathname, key, account, record, res);
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
    path: string,
    key: string | null,
    account: Account | null,
    record: FlutterwaveStandInRequest,
    res: ServerResponse,
  ): void {
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
    const answer = this.#execute(method, path, key, account);
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

  #execute(method: string, path: string, key: string | null, account: Account | null): Answer {
    if (key === null) return refusal(401, FLUTTERWAVE_STAND_IN_MESSAGES.authorizationRequired);
    if (!account) return refusal(401, FLUTTERWAVE_STAND_IN_MESSAGES.invalidKey);
    if (method === 'GET' && path === '/v3/balances') {
      const body: Json = { ...BALANCES_SAMPLE, data: account.balances.map((w) => ({ ...w })) };
      return { status: 200, body };
    }
    return refusal(404, FLUTTERWAVE_STAND_IN_MESSAGES.notServed(method, path));
  }
}

function publicAccount(a: Account): FlutterwaveStandInAccount {
  return { accountId: a.id, secretKey: a.secretKey, encryptionKey: a.encryptionKey, webhookHash: a.webhookHash };
}

/* ------------------------------------------------------------------- entry points */

/**
 * Starts a Flutterwave stand-in on 127.0.0.1 at a free port.
 * @param options the default account's key and more accounts' keys (both optional)
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
 * The environment the connector registry (`shared/connectors/registry.ts`) reads to build the Flutterwave
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
