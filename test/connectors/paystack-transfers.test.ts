/**
 * The Paystack transfers adapter's mappings (shared/connectors/paystack/transfers.ts) against Paystack's published
 * samples and schemas: PaystackOSS/doc-code-snippets 94af513d752dfc9f85dd0718301e7257091eb7f2 (`src/api/transfers/*`,
 * `src/doc/transfers/manage/initiate-transfer-otp`, `src/doc/payments/webhooks/events/transfer-*.json`) and
 * PaystackOSS/openapi 9678dea922a900b2485969592055ccf634460352 (`TransferRecipientCreate`, `TransferInitiate`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { buildTransferRecipient, paystackTransferEvent, transferToPayoutResult } from '../../shared/connectors/paystack/transfers';
import { paystackOpenApiSchema } from '../helpers/paystack-stand-in';

const DCS = join(__dirname, 'fixtures/paystack/doc-code-snippets/src');
const sample = (file: string) => JSON.parse(readFileSync(join(DCS, file), 'utf8'));
const ajv = new Ajv({ strict: false });

test('initiate, finalize and verify samples map to Processing-or-later with the transfer code and fee', () => {
  const initiate = sample('api/transfers/initiate/response.json')['200'].data.data;
  expect(transferToPayoutResult(initiate)).toMatchObject({ status: 'Succeeded', connectorPayoutId: 'TRF_v5tip3zx8nna9o78' });
  const verify = sample('api/transfers/verify/response.json')['200'].data.data;
  expect(transferToPayoutResult(verify)).toMatchObject({ status: 'Succeeded', fee: 1000 });
  const otp = sample('doc/transfers/manage/initiate-transfer-otp/index.json').data;
  expect(transferToPayoutResult(otp)).toMatchObject({ status: 'RequiresAction', connectorPayoutId: 'TRF_1aqrqhoomp0rjro' });
  expect(transferToPayoutResult({ status: 'pending', transfer_code: 'TRF_x' }).status).toBe('Processing');
  expect(transferToPayoutResult({ status: 'something_new' }).status).toBe('Processing');
});

test.each([
  ['transfer-successful.json', 'Succeeded'],
  ['transfer-failed.json', 'Failed'],
  ['transfer-reversed.json', 'Reversed'],
])('webhook sample %s maps to a payout event (%s) naming its reference', (file, status) => {
  const raw = sample(`doc/payments/webhooks/events/${file}`);
  // The samples' references are Paystack's; ours are payout ids.
  const body = { ...raw, data: { ...raw.data, reference: 'po_0123456789abcdef0123456789abcdef' } };
  const event = paystackTransferEvent(body);
  expect(event).toMatchObject({ kind: 'payout', payoutId: body.data.reference, result: { status } });
  expect(event?.eventId).toBe(`${body.event}:${body.data.transfer_code}`);
});

test('other transfer events, and transfers made outside Switchyard, are ignored; other events are not transfer events', () => {
  expect(paystackTransferEvent(sample('doc/payments/webhooks/events/transfer-failed.json'))).toMatchObject({ kind: 'ignored' });
  expect(paystackTransferEvent({ event: 'transfer.otp', data: { reference: 'po_x' } })).toMatchObject({ kind: 'ignored' });
  expect(paystackTransferEvent({ event: 'charge.success', data: {} })).toBeUndefined();
});

test('recipient bodies match TransferRecipientCreate (nuban, ghipss, basa, mobile money in local format)', () => {
  const validate = ajv.compile(paystackOpenApiSchema('components/schemas/TransferRecipientCreate.yaml') as object);
  const bodies = [
    buildTransferRecipient({ bank: { account_number: '0123456789', bank_code: '058', country: 'NG' } }, 'NGN'),
    buildTransferRecipient(
      { bank: { account_number: '1234567890123', bank_code: '280100', country: 'GH', account_name: 'Abina Nana' } },
      'GHS',
    ),
    buildTransferRecipient({ bank: { account_number: '1234567890', bank_code: '632005', country: 'ZA' } }, 'ZAR'),
    buildTransferRecipient({ mobile_money: { phone: '+233551234987', network: 'mtn' } }, 'GHS'),
    buildTransferRecipient({ mobile_money: { phone: '+254712345678', network: 'mpesa' } }, 'KES'),
  ];
  for (const body of bodies) expect(validate(body)).toBe(true);
  expect(bodies.map((b) => b.type)).toEqual(['nuban', 'ghipss', 'basa', 'mobile_money', 'mobile_money']);
  expect(bodies[3]).toMatchObject({ account_number: '0551234987', bank_code: 'MTN' });
  expect(bodies[4]).toMatchObject({ account_number: '0712345678', bank_code: 'MPESA' });
  expect(() => buildTransferRecipient({ bank: { account_number: '0123456789', bank_code: '01', country: 'KE' } }, 'KES')).toThrow(
    /no bank payouts/,
  );
});
