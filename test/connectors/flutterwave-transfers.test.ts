/**
 * The Flutterwave transfers adapter's mappings (shared/connectors/flutterwave/transfers.ts, transfer-statuses.ts)
 * against Flutterwave's published samples and the official SDK's request schemas: flutterwave-node-v3 1.4.1 (repo
 * Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c) `documentation/transfers.md` ("Create a
 * transfer", "Get all transfers"), `documentation/misc.md` ("Resolve account details"), `services/schema/create.js`
 * `transferSchema` (fixtures in test/connectors/fixtures/flutterwave/, sources in fixtures/SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorRequestError, ConnectorTechnicalError } from '../../shared/connectors/connector';
import { flutterwaveTransferResult } from '../../shared/connectors/flutterwave/transfer-statuses';
import {
  buildFlutterwaveTransfer,
  FLUTTERWAVE_TRANSFER_WINDOW_MS,
  FlutterwaveTransfers,
  flutterwaveTransferOf,
} from '../../shared/connectors/flutterwave/transfers';
import type { PayoutRequest } from '../../shared/connectors/payout-connector';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures/flutterwave', `${name}.json`), 'utf8'));
const { transferSchema } = require('flutterwave-node-v3/services/schema/create') as {
  transferSchema: { validate(v: unknown, o: { abortEarly: boolean }): { error?: { details: { message: string }[] } } };
};
const problems = (body: unknown) => transferSchema.validate(body, { abortEarly: false }).error?.details.map((d) => d.message) ?? [];
const PO = 'po_0123456789abcdef0123456789abcdef';

const request = (extra: Partial<PayoutRequest>): PayoutRequest => ({
  reference: PO,
  amount: 550_050,
  currency: 'NGN',
  destination: { bank: { account_number: '0690000040', bank_code: '044', country: 'NG', account_name: 'Alexis Sanchez' } },
  description: 'Rider payout',
  ...extra,
});

test('the create sample (NEW) is Processing with its id and the fee in minor units; the list sample FAILED carries its reason', () => {
  expect(flutterwaveTransferResult(fixture('transfer-create').data)).toEqual({
    status: 'Processing',
    connectorPayoutId: '396432',
    fee: 2688,
  });
  expect(flutterwaveTransferResult(fixture('transfer-list').data[0])).toMatchObject({
    status: 'Failed',
    errorCode: 'transfer_failed',
    errorMessage: 'DISBURSE FAILED: You can only spend XAF 100000000.00 at once',
    fee: 1075,
  });
  expect(flutterwaveTransferResult({ status: 'SUCCESSFUL', id: 1 }).status).toBe('Succeeded');
  expect(flutterwaveTransferResult({ status: 'PENDING', id: 1 }).status).toBe('Processing');
  expect(flutterwaveTransferResult({ status: 'Failed', id: 1 }).status).toBe('Failed');
  expect(flutterwaveTransferResult({ status: 'SOMETHING_NEW', id: 1 }).status).toBe('Processing');
});

test.each([
  [
    'an NGN bank account',
    request({}),
    { account_bank: '044', account_number: '0690000040', amount: 5500.5, beneficiary_name: 'Alexis Sanchez' },
  ],
  [
    'a Ghanaian Telecel wallet',
    request({ currency: 'GHS', destination: { mobile_money: { phone: '+233201234567', network: 'telecel' } } }),
    { account_bank: 'VODAFONE', account_number: '233201234567', currency: 'GHS' },
  ],
  [
    'a Kenyan M-Pesa wallet',
    request({ currency: 'KES', destination: { mobile_money: { phone: '+254712345678', network: 'mpesa' } } }),
    { account_bank: 'MPS', account_number: '254712345678', currency: 'KES' },
  ],
])('%s: a body the SDK accepts, under our reference, in major units', (_what, req, expected) => {
  const body = buildFlutterwaveTransfer(req);
  expect(body).toMatchObject({ ...expected, reference: PO, narration: 'Rider payout' });
  expect(problems(body)).toEqual([]);
});

test('destinations it does not send to are refused before any call (payout_not_supported)', () => {
  for (const req of [
    request({ currency: 'GHS', destination: { bank: { account_number: '1234567890', bank_code: 'GH1', country: 'GH' } } }),
    request({ currency: 'KES', destination: { mobile_money: { phone: '+254712345678', network: 'mtn' } } }),
    request({ currency: 'KES', destination: { mobile_money: { phone: '+254712345678', network: 'airtel' } } }),
  ]) {
    expect(() => buildFlutterwaveTransfer(req)).toThrow(ConnectorRequestError);
  }
});

test('the webhook sample names its transfer; charge events are not transfers', () => {
  const sample = fixture('webhook-transfer-completed');
  expect(flutterwaveTransferOf(sample)?.transfer).toMatchObject({ id: 33286, status: 'SUCCESSFUL' });
  expect(flutterwaveTransferOf({ 'event.type': 'Transfer', transfer: { id: 570, status: 'Failed' } })?.transfer.id).toBe(570);
  expect(flutterwaveTransferOf(fixture('webhook-charge-completed'))).toBeUndefined();
});

describe('lookups and resolve', () => {
  const sentAt = '2026-01-01T00:00:00.000Z';
  const lookup = {
    reference: PO,
    connectorPayoutId: null,
    amount: 1,
    currency: 'NGN' as const,
    destination: request({}).destination,
    sentAt,
  };

  test('by reference: found in the list; none inside the window is a technical error, after it null (never made)', async () => {
    let now = Date.parse(sentAt) + 1_000;
    const calls: string[] = [];
    let list: unknown[] = [{ ...fixture('transfer-create').data, reference: PO }];
    const adapter = new FlutterwaveTransfers(
      async <T>(_k: string, method: string, path: string) => {
        calls.push(`${method} ${path}`);
        return { status: 'success', data: list } as T;
      },
      () => now,
    );
    expect(await adapter.findPayout(lookup)).toMatchObject({ status: 'Processing', connectorPayoutId: '396432' });
    expect(calls).toEqual([`GET /v3/transfers?reference=${PO}`]);
    list = [];
    await expect(adapter.findPayout(lookup)).rejects.toBeInstanceOf(ConnectorTechnicalError);
    now = Date.parse(sentAt) + FLUTTERWAVE_TRANSFER_WINDOW_MS;
    expect(await adapter.findPayout(lookup)).toBeNull();
  });

  test('by id when recorded; resolve reads account_name of the SDK sample', async () => {
    const calls: string[] = [];
    const adapter = new FlutterwaveTransfers(async <T>(_k: string, method: string, path: string) => {
      calls.push(`${method} ${path}`);
      return (path === '/v3/accounts/resolve' ? fixture('resolve-account') : fixture('transfer-create')) as T;
    });
    expect(await adapter.findPayout({ ...lookup, connectorPayoutId: '396432' })).toMatchObject({ connectorPayoutId: '396432' });
    expect(await adapter.resolveAccount({ country: 'NG', bankCode: '044', accountNumber: '0690000032' })).toEqual({
      accountName: 'Pastor Bright',
    });
    expect(calls).toEqual(['GET /v3/transfers/396432', 'POST /v3/accounts/resolve']);
  });
});
