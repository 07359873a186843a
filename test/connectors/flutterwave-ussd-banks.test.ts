/**
 * Flutterwave's USSD banks: our list (shared/connectors/flutterwave/ussd-banks.ts) is the "Supported Banks" table of
 * Flutterwave's USSD guide, kept verbatim with its version as fixtures/flutterwave/ussd-supported-banks.json (source in
 * fixtures/SOURCES.md), code for code and name for name; every bank it lists is offered. A USSD charge through the
 * Flutterwave stand-in (test/helpers/flutterwave-stand-in.ts, `payments: true`) with each listed bank sends the documented
 * request (`POST /v3/charges?type=ussd`, valid under the official SDK's `ussdChargeSchema`, `account_bank` the bank),
 * lands pending in the account's ledger under that bank, and answers the code to dial; a sync after the payer dials
 * reads it Succeeded. The stand-in refuses a bank outside the table, and the adapter never sends one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuthorizeRequest } from '../../shared/connectors/connector';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_DOCUMENTED_USSD_BANKS, FLUTTERWAVE_USSD_BANKS } from '../../shared/connectors/flutterwave/ussd-banks';
import { USSD_BANKS } from '../../shared/domain/ussd-banks';
import { FLUTTERWAVE_STAND_IN_MESSAGES, type FlutterwaveStandIn, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';

/** The guide's table (fixtures/flutterwave/ussd-supported-banks.json). */
const GUIDE = JSON.parse(readFileSync(join(__dirname, 'fixtures/flutterwave/ussd-supported-banks.json'), 'utf8')) as {
  source: { page: string; version: string };
  banks: { bank: string; bank_code: string }[];
};

let flw: FlutterwaveStandIn;
beforeAll(async () => {
  flw = await startFlutterwaveStandIn({ payments: true });
});
afterAll(async () => {
  await flw.close();
});

describe("our list is the USSD guide's", () => {
  test('the fixture is the 18-bank table of the guide version our docstring cites', () => {
    expect(GUIDE.source.page).toBe('https://developer.flutterwave.com/docs/collections-inflow/ussd');
    const cited = readFileSync(join(__dirname, '../../shared/connectors/flutterwave/ussd-banks.ts'), 'utf8');
    expect(cited).toContain(GUIDE.source.page);
    expect(cited).toContain(GUIDE.source.version.replace('Last updated ', 'updated '));
    expect(GUIDE.banks).toHaveLength(18);
  });

  test('FLUTTERWAVE_DOCUMENTED_USSD_BANKS holds every bank of the table, by the code and name Flutterwave prints, and no other', () => {
    expect(FLUTTERWAVE_DOCUMENTED_USSD_BANKS).toEqual(Object.fromEntries(GUIDE.banks.map((b) => [b.bank_code, b.bank])));
  });

  test('every bank of the table is offered (FLUTTERWAVE_USSD_BANKS, sorted), each a bank Switchyard knows', () => {
    expect(FLUTTERWAVE_USSD_BANKS).toEqual(GUIDE.banks.map((b) => b.bank_code).sort());
    for (const { bank_code } of GUIDE.banks) expect([bank_code, Object.hasOwn(USSD_BANKS, bank_code)]).toEqual([bank_code, true]);
  });
});

describe('a USSD charge through the Flutterwave stand-in', () => {
  const account = () => flw.accounts()[0]!;
  const connector = () =>
    new FlutterwaveConnector({
      baseUrl: flw.url,
      secretKey: account().secretKey,
      encryptionKey: account().encryptionKey,
      webhookSecret: account().webhookHash,
    });
  const ussd = (paymentId: string, ussdBankCode: string): AuthorizeRequest => ({
    paymentId,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'ussd',
    captureMethod: 'automatic',
    email: 'payer@example.com',
    phone: null,
    publicBaseUrl: 'https://api.example.test',
    returnUrl: 'https://shop.example.test/return',
    ussdBankCode,
  });

  test.each(
    FLUTTERWAVE_USSD_BANKS,
  )('bank %s: the documented request, pending in the ledger under that bank, the code to dial', async (code) => {
    flw.reset();
    const paymentId = `pay_ussd_${code}`;
    const result = await connector().authorize(ussd(paymentId, code));
    expect(flw.requests.map((r) => ({ path: `${r.path}${r.query}`, status: r.status, schemaErrors: r.schemaErrors }))).toEqual([
      { path: '/v3/charges?type=ussd', status: 200, schemaErrors: [] },
    ]);
    const [entry] = flw.ledgerOf(account().secretKey);
    expect(entry).toMatchObject({ txRef: paymentId, accountBank: code, amount: 1500, currency: 'NGN', status: 'pending', via: 'ussd' });
    expect(entry?.email).toBe('payer@example.com');
    expect(result).toMatchObject({
      status: 'RequiresAction',
      connectorTransactionId: String(entry?.id),
      nextAction: { type: 'display_ussd_code', ussd: { code: `*566*002*${entry?.id}#`, reference: entry?.flwRef } },
    });
  });

  test('after the payer dials, a sync reads it Succeeded', async () => {
    flw.reset();
    const charged = await connector().authorize(ussd('pay_ussd_sync', '058'));
    flw.completeAuthentication(account().secretKey, 'pay_ussd_sync', 'successful');
    const synced = await connector().sync({
      paymentId: 'pay_ussd_sync',
      connectorTransactionId: charged.connectorTransactionId ?? null,
      amount: 150000,
      currency: 'NGN',
      paymentMethod: 'ussd',
      captureMethod: 'automatic',
      createdAt: new Date().toISOString(),
    });
    expect(synced).toMatchObject({ status: 'Succeeded', amountCaptured: 150000 });
  });

  test('a bank outside the table: the stand-in refuses it, and the adapter never sends one', async () => {
    flw.reset();
    const body = { tx_ref: 'pay_ussd_101', account_bank: '101', amount: 1500, currency: 'NGN', email: 'payer@example.com' };
    const res = await fetch(`${flw.url}/v3/charges?type=ussd`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account().secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', message: FLUTTERWAVE_STAND_IN_MESSAGES.ussdBankUnsupported, data: null });
    await expect(connector().authorize(ussd('pay_ussd_101', '101'))).rejects.toMatchObject({ code: 'unsupported_ussd_bank' });
    expect(flw.requests).toHaveLength(1);
    expect(flw.ledgerOf(account().secretKey)).toEqual([]);
  });
});
