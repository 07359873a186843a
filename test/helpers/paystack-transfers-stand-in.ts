/**
 * A loopback stand-in of Paystack's transfer API, for the payout tests: an in-process `node:http` server on 127.0.0.1
 * that answers what the transfers adapter (shared/connectors/paystack/transfers.ts) calls, in Paystack's documented
 * shapes, keeps a ledger of the transfers it really made (by reference), and fails on command before or after the
 * work — so a test compares our table with Paystack's truth. Kept apart from test/helpers/paystack-stand-in.ts (the
 * charges' stand-in): payouts tests point `PAYSTACK_BASE_URL` here.
 *
 * Sources (test/connectors/fixtures/paystack/):
 * - [OAS] PaystackOSS/openapi at 9678dea922a900b2485969592055ccf634460352: request bodies validated with ajv against
 *   `components/schemas/TransferRecipientCreate.yaml`, `TransferInitiate.yaml`, `TransferFinalize.yaml` (a body that does
 *   not match: 400 in Paystack's validation-error shape, recorded in `schemaErrors`); the 401 and 404 bodies are
 *   `components/responses/Unauthorized.yaml` / the verify sample's `404`.
 * - [DCS] PaystackOSS/doc-code-snippets at 94af513d752dfc9f85dd0718301e7257091eb7f2: answers are the samples
 *   `src/api/transfer-recipient/create`, `src/api/transfers/{initiate,finalize,verify}`,
 *   `src/api/verification/resolve-account` (`response.json`), `src/doc/transfers/manage/initiate-transfer-otp/index.json`,
 *   and the webhook samples `src/doc/payments/webhooks/events/transfer-{successful,failed,reversed}.json`, with the
 *   stand-in's values set.
 *
 * Stand-in choices (Paystack documents no test accounts for transfers): the account number `0000000001` fails at once
 * (`failed`); an account opened with `otp: true` answers `otp` and finalizes with the OTP `123456` (another is 400
 * "Invalid OTP": stand-in wording); every other transfer is `pending` until the test settles it (`settle`),
 * which also builds the signed webhook. A duplicate reference is 400 "Duplicate Transfer Reference" (stand-in wording).
 * `GET /bank/resolve` names every account `STAND-IN HOLDER <last 4>` but `0000000001` (422 "Could not resolve account
 * name. Check parameters or try again.", Paystack's message). `GET /balance` answers for credential checks.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { paystackOpenApiSchema } from './paystack-stand-in';

/** What the stand-in does to the next matching request. */
export type TransferFault = 'hang_after_work' | 'hang_before_work' | 'error_500_before_work' | 'error_500_after_work';

/** A transfer as Paystack holds it. Amounts in subunits. */
export interface StandInTransfer {
  reference: string;
  transferCode: string;
  id: number;
  amount: number;
  currency: string;
  recipientCode: string;
  accountNumber: string;
  status: 'otp' | 'pending' | 'success' | 'failed' | 'reversed';
  reason: string;
  createdAt: string;
}

/** One request as received (the OTP never kept). */
export interface TransferStandInRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  schemaErrors: string[] | null;
  status: number | null;
}

/** A running stand-in. */
export interface PaystackTransfersStandIn {
  readonly url: string;
  /** The secret key of the default account (OTP off). */
  readonly secretKey: string;
  /** The key of an account with transfer OTP on. */
  readonly otpKey: string;
  readonly requests: readonly TransferStandInRequest[];
  /** The transfers of the account a key names, by reference (a snapshot). */
  transfersOf(secretKey: string): Record<string, StandInTransfer>;
  /** Arms a fault for the next request to `path` (a path ending in `/`: any path under it). */
  failNext(path: string, fault: TransferFault): void;
  /**
   * Moves a transfer as Paystack would (`success`, `failed`, `reversed`) and builds its signed webhook.
   * @returns the raw body and headers to post to `/webhooks/paystack`
   */
  settle(
    secretKey: string,
    reference: string,
    status: 'success' | 'failed' | 'reversed',
  ): { rawBody: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const schemas: Record<string, ValidateFunction> = {
  '/transferrecipient': ajv.compile(paystackOpenApiSchema('components/schemas/TransferRecipientCreate.yaml') as object),
  '/transfer': ajv.compile(paystackOpenApiSchema('components/schemas/TransferInitiate.yaml') as object),
  '/transfer/finalize_transfer': ajv.compile(paystackOpenApiSchema('components/schemas/TransferFinalize.yaml') as object),
};

/** The stand-in's OTP. */
export const PAYSTACK_STAND_IN_TRANSFER_OTP = '123456';

/** Starts the stand-in on a free port. */
export async function startPaystackTransfersStandIn(): Promise<PaystackTransfersStandIn> {
  const secretKey = `sk_test_${randomBytes(20).toString('hex')}`;
  const otpKey = `sk_test_${randomBytes(20).toString('hex')}`;
  const accounts = new Map<
    string,
    { otp: boolean; transfers: Map<string, StandInTransfer>; recipients: Map<string, { code: string; accountNumber: string }> }
  >([
    [secretKey, { otp: false, transfers: new Map(), recipients: new Map() }],
    [otpKey, { otp: true, transfers: new Map(), recipients: new Map() }],
  ]);
  const requests: TransferStandInRequest[] = [];
  const faults: { path: string; fault: TransferFault }[] = [];
  const sockets = new Set<Socket>();
  let seq = 1000;

  const transferData = (t: StandInTransfer) => ({
    amount: t.amount,
    currency: t.currency,
    domain: 'test',
    failures: null,
    id: t.id,
    integration: 463433,
    reason: t.reason,
    reference: t.reference,
    source: 'balance',
    source_details: null,
    status: t.status,
    titan_code: null,
    transfer_code: t.transferCode,
    transferred_at: null,
    recipient: 56824902,
    createdAt: t.createdAt,
    updatedAt: new Date().toISOString(),
    fee_charged: 1000,
    gateway_response: t.status === 'failed' ? 'Account closed (stand-in)' : null,
  });

  const work = (key: string, method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): [number, unknown] => {
    const account = accounts.get(key)!;
    if (method === 'GET' && path === '/balance')
      return [200, { status: true, message: 'Balances retrieved', data: [{ currency: 'NGN', balance: 100_000_000 }] }];
    if (method === 'POST' && path === '/transferrecipient') {
      const id = `${body.type}:${body.bank_code}:${body.account_number}`;
      const existing = account.recipients.get(id) ?? {
        code: `RCP_${randomBytes(8).toString('hex')}`,
        accountNumber: String(body.account_number),
      };
      account.recipients.set(id, existing);
      return [
        201,
        {
          status: true,
          message: 'Transfer recipient created successfully',
          data: {
            active: true,
            currency: body.currency ?? 'NGN',
            domain: 'test',
            id: seq++,
            name: body.name,
            recipient_code: existing.code,
            type: body.type,
            details: { account_number: body.account_number, bank_code: body.bank_code },
          },
        },
      ];
    }
    if (method === 'POST' && path === '/transfer') {
      const reference = String(body.reference);
      if (account.transfers.has(reference)) return [400, { status: false, message: 'Duplicate Transfer Reference' }];
      const recipient = [...account.recipients.values()].find((r) => r.code === body.recipient);
      if (!recipient)
        return [
          400,
          { status: false, message: 'Recipient specified is invalid', type: 'validation_error', code: 'invalid_transfer_recipient' },
        ];
      const t: StandInTransfer = {
        reference,
        transferCode: `TRF_${randomBytes(8).toString('hex')}`,
        id: seq++,
        amount: Number(body.amount),
        currency: String(body.currency ?? 'NGN'),
        recipientCode: recipient.code,
        accountNumber: recipient.accountNumber,
        status: recipient.accountNumber === '0000000001' ? 'failed' : account.otp ? 'otp' : 'pending',
        reason: String(body.reason ?? ''),
        createdAt: new Date().toISOString(),
      };
      account.transfers.set(reference, t);
      const message = t.status === 'otp' ? 'Transfer requires OTP to continue' : 'Transfer has been queued';
      return [200, { status: true, message, data: transferData(t) }];
    }
    if (method === 'POST' && path === '/transfer/finalize_transfer') {
      const t = [...account.transfers.values()].find((x) => x.transferCode === body.transfer_code);
      if (!t || t.status !== 'otp') return [400, { status: false, message: 'Transfer code is invalid' }];
      if (body.otp !== PAYSTACK_STAND_IN_TRANSFER_OTP) return [400, { status: false, message: 'Invalid OTP' }];
      t.status = 'pending';
      return [200, { status: true, message: 'Transfer has been queued', data: transferData(t) }];
    }
    if (method === 'GET' && path.startsWith('/transfer/verify/')) {
      const t = account.transfers.get(decodeURIComponent(path.slice('/transfer/verify/'.length)));
      if (!t) return [404, { status: false, message: 'Transfer not found' }];
      return [200, { status: true, message: 'Transfer retrieved', data: transferData(t) }];
    }
    if (method === 'GET' && path === '/bank/resolve') {
      const number = query.get('account_number') ?? '';
      if (!/^\d{10}$/.test(number) || number === '0000000001') {
        return [422, { status: false, message: 'Could not resolve account name. Check parameters or try again.' }];
      }
      return [
        200,
        {
          status: true,
          message: 'Account number resolved',
          data: { account_number: number, account_name: `STAND-IN HOLDER ${number.slice(-4)}`, bank_id: 9 },
        },
      ];
    }
    return [404, { status: false, message: 'Not found (stand-in)' }];
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const method = req.method ?? 'GET';
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const record: TransferStandInRequest = {
        method,
        path: url.pathname,
        body: 'otp' in body ? { ...body, otp: '[REDACTED]' } : body,
        schemaErrors: null,
        status: null,
      };
      requests.push(record);
      const answer = (status: number, payload: unknown) => {
        record.status = status;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!accounts.has(key)) return answer(401, { status: false, message: 'Invalid key' });
      const validate = method === 'POST' ? schemas[url.pathname] : undefined;
      if (validate && !validate(body)) {
        record.schemaErrors = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
        return answer(400, { status: false, message: 'Invalid request (schema)', code: 'invalid_params' });
      }
      const faultAt = faults.findIndex((f) => url.pathname === f.path || (f.path.endsWith('/') && url.pathname.startsWith(f.path)));
      const fault = faultAt >= 0 ? faults.splice(faultAt, 1)[0]!.fault : undefined;
      if (fault === 'hang_before_work') return;
      if (fault === 'error_500_before_work') return answer(500, { status: false, message: 'An error occurred (stand-in)' });
      const [status, payload] = work(key, method, url.pathname, url.searchParams, body);
      if (fault === 'hang_after_work') {
        record.status = status;
        return;
      }
      if (fault === 'error_500_after_work') return answer(500, { status: false, message: 'An error occurred (stand-in)' });
      answer(status, payload);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    secretKey,
    otpKey,
    requests,
    transfersOf: (key) => Object.fromEntries([...(accounts.get(key)?.transfers ?? new Map()).entries()].map(([k, v]) => [k, { ...v }])),
    failNext: (path, fault) => faults.push({ path, fault }),
    settle(key, reference, status) {
      const t = accounts.get(key)?.transfers.get(reference);
      if (!t) throw new Error(`no transfer ${reference}`);
      t.status = status;
      const event = status === 'success' ? 'transfer.success' : status === 'failed' ? 'transfer.failed' : 'transfer.reversed';
      const rawBody = JSON.stringify({ event, data: transferData(t) });
      const signature = createHmac('sha512', key).update(rawBody, 'utf8').digest('hex');
      return { rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
