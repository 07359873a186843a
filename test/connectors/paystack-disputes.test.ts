/**
 * Paystack disputes, against the loopback Paystack stand-in (test/helpers/paystack-stand-in.ts), whose
 * per-account dispute ledger is Paystack's truth. What is checked:
 * - Paystack's own `charge.dispute.create|remind|resolve` samples (PaystackOSS/doc-code-snippets 94af513d752d
 *   `src/doc/payments/webhooks/events/charge-dispute-*.json`, copied under fixtures/paystack/) map to dispute events:
 *   the dispute from `data`, `dueAt` as `challenge_required_by`, `reminder` on `remind`, `auto-accepted` → expired;
 * - the stand-in's signed dispute webhooks carry our payment id (the transaction reference), with event ids stable
 *   across redeliveries;
 * - every row of the status table (statuses.ts `PAYSTACK_DISPUTE_STATUS` / `PAYSTACK_DISPUTE_RESOLUTION`), through
 *   `fetchDispute` and through the webhook; an unknown status is kept raw, mapped to `dispute_opened`, and warned about;
 * - `acceptDispute` (PUT /dispute/:id/resolve `merchant-accepted`), `submitDisputeEvidence` with and without `submit`
 *   (upload URL, PUT of the bytes to the signed URL without our key, POST evidence, PUT resolve `declined`), each body
 *   valid against PaystackOSS/openapi 9678dea922a9's DisputeEvidence / DisputeResolve (checked by the stand-in);
 * - a timeout or 5xx → ConnectorTechnicalError, a 4xx → ConnectorRequestError.
 * Sources: fixtures/SOURCES.md "Paystack disputes".
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ConnectorRequestError, ConnectorTechnicalError, type DisputeRef, WebhookPayloadError } from '../../shared/connectors/connector';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import { disputeFromPaystack } from '../../shared/connectors/paystack/paystack-disputes';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { PAYSTACK_DISPUTE_RESOLUTION, PAYSTACK_DISPUTE_STATUS, PAYSTACK_DISPUTE_STATUSES } from '../../shared/connectors/paystack/statuses';
import type { DisputeStatus } from '../../shared/domain/dispute-vocabulary';
import { logger } from '../../shared/observability/logger';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, paystackOpenApiSchema, startPaystackStandIn } from '../helpers/paystack-stand-in';

const FIXTURES = path.join(__dirname, 'fixtures', 'paystack');
const EVENTS = path.join(FIXTURES, 'doc-code-snippets', 'src', 'doc', 'payments', 'webhooks', 'events');
const EMAIL = 'ada@example.com';

let standIn: PaystackStandIn;
beforeAll(async () => {
  standIn = await startPaystackStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());
afterEach(() => jest.restoreAllMocks());

function paystackFor(secretKey = standIn.secretKey, timeoutMs = 2000): PaystackConnector {
  return new PaystackConnector({ baseUrl: standIn.url, secretKey, webhookSecret: '', timeoutMs });
}

const sign = (rawBody: string, key: string) => createHmac('sha512', key).update(rawBody, 'utf8').digest('hex');

/** A successful NGN 1,500.00 card payment at the stand-in; returns our payment id and its reference. */
async function paidPayment(secretKey = standIn.secretKey): Promise<{ paymentId: string; reference: string }> {
  const paymentId = `pay_${randomBytes(16).toString('hex')}`;
  const card = PAYSTACK_TEST_CARDS.noValidation;
  const result = await paystackFor(secretKey).authorize({
    paymentId,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: { card_number: card.number, card_exp_month: '12', card_exp_year: '2030', card_cvc: card.cvv },
    email: EMAIL,
    phone: null,
    publicBaseUrl: 'https://api.switchyard.test',
    returnUrl: `https://api.switchyard.test/pay/${paymentId}/return`,
  });
  expect(result.status).toBe('Succeeded');
  return { paymentId, reference: paystackReference(paymentId) };
}

/** A paid payment with a dispute opened on it; the ref the core would pass. */
async function disputed(options: Parameters<PaystackStandIn['openDispute']>[1] = {}, secretKey = standIn.secretKey) {
  const payment = await paidPayment(secretKey);
  const dispute = standIn.openDispute(payment.reference, options, secretKey);
  const ref: DisputeRef = {
    connectorDisputeId: String(dispute.id),
    paymentId: payment.paymentId,
    connectorTransactionId: payment.reference,
    currency: 'NGN',
  };
  return { ...payment, dispute, ref };
}

async function outcome<T>(promise: Promise<T>): Promise<T | Error> {
  try {
    return await promise;
  } catch (err) {
    return err as Error;
  }
}

/* ------------------------------------------------------------------------------------------------ */

describe("Paystack's own dispute event samples", () => {
  const KEY = 'sk_test_samplesamplesamplesamplesample00';
  const parse = (file: string) => {
    const rawBody = readFileSync(path.join(EVENTS, file), 'utf8');
    return new PaystackConnector({ baseUrl: 'http://127.0.0.1:1', secretKey: KEY, webhookSecret: '' }).parseWebhook({
      rawBody,
      headers: { 'x-paystack-signature': sign(rawBody, KEY) },
    });
  };

  test('charge.dispute.create: an opened chargeback with its deadline', async () => {
    await expect(parse('charge-dispute-create.json')).resolves.toEqual({
      kind: 'dispute',
      eventId: 'charge.dispute.create:358950',
      connectorDisputeId: '358950',
      // `v3mjfgbnc19v97x` is not a reference this service made.
      paymentId: null,
      dispute: {
        connectorDisputeId: '358950',
        paymentId: null,
        connectorTransactionId: 'v3mjfgbnc19v97x',
        amount: 5800,
        currency: 'NGN',
        stage: 'dispute',
        status: 'dispute_opened',
        connectorStatus: 'awaiting-merchant-feedback',
        connectorReason: 'Customer complained about debit without value',
        connectorReasonCode: 'chargeback',
        challengeRequiredBy: '2020-11-25T18:00:00.000Z',
        createdAt: '2020-11-24T13:46:57.000Z',
      },
    });
  });

  test('charge.dispute.remind: a reminder of the same dispute', async () => {
    const event = await parse('charge-dispute-remind.json');
    expect(event).toMatchObject({ kind: 'dispute', reminder: true, connectorDisputeId: '358950', dispute: { status: 'dispute_opened' } });
    expect(event.eventId).toBe('charge.dispute.remind:358950:2020-11-24T18:00:02.000Z');
  });

  test('charge.dispute.resolve with auto-accepted: expired (nobody answered by dueAt)', async () => {
    await expect(parse('charge-dispute-resolve.json')).resolves.toMatchObject({
      kind: 'dispute',
      eventId: 'charge.dispute.resolve:358949',
      dispute: { status: 'dispute_expired', connectorStatus: 'resolved:auto-accepted', amount: 5700 },
    });
  });
});

describe("Paystack's API samples", () => {
  const sampleData = (file: string) =>
    (JSON.parse(readFileSync(path.join(FIXTURES, 'doc-code-snippets', 'src', 'api', 'disputes', file, 'response.json'), 'utf8'))['200'].data
      .data ?? {}) as Record<string, unknown>;

  test('the Resolve Dispute answer maps to accepted; the Fetch Dispute sample (status archived, currency null) is unknown', () => {
    expect(disputeFromPaystack(sampleData('resolve'))).toMatchObject({
      connectorDisputeId: '624',
      amount: 1002,
      currency: 'NGN',
      status: 'dispute_accepted',
      connectorStatus: 'resolved:merchant-accepted',
      connectorReasonCode: 'general',
    });
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    // `currency` null there: the transaction's NGN is used; `archived` is in no table.
    expect(disputeFromPaystack(sampleData('fetch'))).toMatchObject({
      amount: 39100,
      currency: 'NGN',
      status: 'dispute_opened',
      connectorStatus: 'archived',
    });
    expect(warn).toHaveBeenCalledWith('Paystack dispute status unknown', expect.objectContaining({ connector_status: 'archived' }));
  });

  test("the stand-in's answers match PaystackOSS/openapi's response schemas", async () => {
    const { dispute } = await disputed();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const fetchSchema = ajv.compile(paystackOpenApiSchema('components/schemas/DisputeFetchResponse.yaml') as object);
    const fetched = await (
      await fetch(`${standIn.url}/dispute/${dispute.id}`, { headers: { Authorization: `Bearer ${standIn.secretKey}` } })
    ).json();
    expect(fetchSchema(fetched) ? [] : fetchSchema.errors).toEqual([]);
    const uploadSchema = ajv.compile(paystackOpenApiSchema('components/schemas/DisputeUploadURLResponse.yaml') as object);
    const upload = await (
      await fetch(`${standIn.url}/dispute/${dispute.id}/upload_url?upload_filename=a.pdf`, {
        headers: { Authorization: `Bearer ${standIn.secretKey}` },
      })
    ).json();
    expect(uploadSchema(upload) ? [] : uploadSchema.errors).toEqual([]);
  });
});

describe('dispute webhooks from the stand-in', () => {
  test('create, remind and resolve name our payment; redelivery keeps the event id', async () => {
    const { paymentId, dispute } = await disputed();
    const paystack = paystackFor();
    const create = standIn.disputeWebhook(dispute.id, 'charge.dispute.create');
    const first = await paystack.parseWebhook(create);
    const again = await paystack.parseWebhook(create);
    expect(first).toEqual(again);
    expect(first).toMatchObject({
      kind: 'dispute',
      eventId: `charge.dispute.create:${dispute.id}`,
      connectorDisputeId: String(dispute.id),
      paymentId,
      dispute: { paymentId, amount: 150000, currency: 'NGN', status: 'dispute_opened', challengeRequiredBy: dispute.dueAt },
    });
    expect(first).not.toHaveProperty('reminder');

    const remind = await paystack.parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.remind'));
    expect(remind).toMatchObject({ kind: 'dispute', reminder: true, paymentId });
    expect(remind.eventId).toMatch(new RegExp(`^charge\\.dispute\\.remind:${dispute.id}:`));

    standIn.resolveDispute(dispute.id, 'merchant-accepted');
    await expect(paystack.parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.resolve'))).resolves.toMatchObject({
      eventId: `charge.dispute.resolve:${dispute.id}`,
      dispute: { status: 'dispute_accepted', connectorStatus: 'resolved:merchant-accepted' },
    });
  });

  test("another account's webhook is refused; a dispute event without data.id is malformed", async () => {
    const other = standIn.addAccount();
    const { dispute } = await disputed({}, other.secretKey);
    await expect(paystackFor().parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.create'))).rejects.toMatchObject({
      name: 'WebhookSignatureError',
    });
    await expect(
      paystackFor(other.secretKey).parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.create')),
    ).resolves.toMatchObject({
      kind: 'dispute',
    });
    const rawBody = JSON.stringify({ event: 'charge.dispute.create', data: { status: 'awaiting-merchant-feedback' } });
    await expect(
      paystackFor().parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody, standIn.secretKey) } }),
    ).rejects.toBeInstanceOf(WebhookPayloadError);
  });
});

describe('the status table', () => {
  const rows: [status: string, resolution: string | null, expected: DisputeStatus][] = [
    ...Object.entries(PAYSTACK_DISPUTE_STATUS).map(([s, m]) => [s, null, m.status] as [string, null, DisputeStatus]),
    ...Object.entries(PAYSTACK_DISPUTE_RESOLUTION).map(([r, m]) => ['resolved', r, m.status] as [string, string, DisputeStatus]),
  ];

  test('covers every Paystack status', () => {
    const covered = new Set(rows.map(([s]) => s));
    expect([...covered].sort()).toEqual([...PAYSTACK_DISPUTE_STATUSES].sort());
  });

  test.each(rows)('%s %s → %s (fetch and webhook)', async (status, resolution, expected) => {
    const { dispute, ref } = await disputed();
    standIn.setDisputeStatus(dispute.id, status, resolution);
    const paystack = paystackFor();
    const fetched = await paystack.fetchDispute(ref);
    expect(fetched).toMatchObject({ status: expected, stage: 'dispute', connectorStatus: resolution ? `${status}:${resolution}` : status });
    const event = await paystack.parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.resolve'));
    expect(event).toMatchObject({ kind: 'dispute', dispute: { status: expected } });
  });

  test.each([
    ['archived', null],
    ['resolved', 'bank-reversed'],
    ['resolved', null],
  ])('unknown %s %s: kept raw, dispute_opened, warned', async (status, resolution) => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const { dispute, ref } = await disputed();
    standIn.setDisputeStatus(dispute.id, status, resolution);
    const raw = resolution ? `${status}:${resolution}` : status;
    await expect(paystackFor().fetchDispute(ref)).resolves.toMatchObject({ status: 'dispute_opened', connectorStatus: raw });
    expect(warn).toHaveBeenCalledWith(
      'Paystack dispute status unknown',
      expect.objectContaining({ connector_dispute_id: String(dispute.id), connector_status: raw, mapped_to: 'dispute_opened' }),
    );
  });
});

describe('fetch, accept, evidence', () => {
  test('fetchDispute reads GET /dispute/:id', async () => {
    const { paymentId, reference, dispute, ref } = await disputed({ amount: 50000, dueAt: '2030-01-02T03:04:05.000Z' });
    await expect(paystackFor().fetchDispute(ref)).resolves.toEqual({
      connectorDisputeId: String(dispute.id),
      paymentId,
      connectorTransactionId: reference,
      amount: 50000,
      currency: 'NGN',
      stage: 'dispute',
      status: 'dispute_opened',
      connectorStatus: 'awaiting-merchant-feedback',
      connectorReason: 'Customer complained about debit without value',
      connectorReasonCode: 'chargeback',
      challengeRequiredBy: '2030-01-02T03:04:05.000Z',
      createdAt: expect.any(String),
    });
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: `/dispute/${dispute.id}`, authorized: true });
  });

  test('acceptDispute resolves it merchant-accepted with its refund_amount; a second accept sends nothing more', async () => {
    const { dispute, ref } = await disputed({ amount: 70000 });
    const paystack = paystackFor();
    await expect(paystack.acceptDispute(ref)).resolves.toMatchObject({ status: 'dispute_accepted', amount: 70000 });
    const after = standIn.dispute(dispute.id)!;
    expect(after).toMatchObject({ status: 'resolved', resolution: 'merchant-accepted' });
    expect(after.resolutions).toEqual([{ resolution: 'merchant-accepted', message: 'Merchant accepted', refund_amount: 70000 }]);
    expect(standIn.requests.every((r) => r.schemaErrors === null)).toBe(true);
    await expect(paystack.acceptDispute(ref)).resolves.toMatchObject({ status: 'dispute_accepted' });
    expect(standIn.dispute(dispute.id)!.resolutions).toHaveLength(1);
  });

  const file = { fileId: 'file_0123', filename: 'receipt.pdf', mediaType: 'application/pdf', content: Buffer.from('%PDF-1.4 receipt') };
  const evidence = {
    product_description: 'Two ceramic cups',
    customer_name: 'Ada Obi',
    shipping_address: '3a Ladoke Street, Ogbomoso',
    shipping_date: '2026-11-02T10:00:00Z',
    shipping_tracking_number: 'GIG-88812',
    refund_refusal_explanation: 'Delivered and signed for.',
  };

  test('evidence without submit: the file uploaded to the signed URL (without our key), the evidence recorded, still open', async () => {
    const { dispute, ref } = await disputed();
    const result = await paystackFor().submitDisputeEvidence({ ...ref, evidence, files: [file], submit: false });
    expect(result).toMatchObject({ status: 'dispute_opened' });
    const after = standIn.dispute(dispute.id)!;
    expect(after.uploads).toEqual([
      {
        fileName: expect.stringMatching(/^[a-z0-9]{20}$/),
        uploadFilename: 'receipt.pdf',
        contentType: 'application/pdf',
        size: file.content.length,
        sha256: createHash('sha256').update(file.content).digest('hex'),
      },
    ]);
    expect(after.evidence).toMatchObject({
      customer_email: EMAIL,
      customer_name: 'Ada Obi',
      customer_phone: '08000000000',
      service_details: 'Two ceramic cups\nTracking number: GIG-88812\nWhy no refund: Delivered and signed for.',
      delivery_address: '3a Ladoke Street, Ogbomoso',
      delivery_date: '2026-11-02T10:00:00.000Z',
    });
    expect(after.resolutions).toEqual([]);
    const upload = standIn.requests.find((r) => r.method === 'PUT' && r.path.startsWith('/_uploads/'))!;
    expect(upload).toMatchObject({ keyHint: null, status: 200 });
    expect(standIn.requests.find((r) => r.path.endsWith('/upload_url'))).toMatchObject({ query: '?upload_filename=receipt.pdf' });
    expect(standIn.requests.every((r) => r.schemaErrors === null)).toBe(true);
  });

  test('evidence with submit: declined with the uploaded file → challenged; the issuer then decides (won)', async () => {
    const { dispute, ref } = await disputed();
    const paystack = paystackFor();
    await expect(paystack.submitDisputeEvidence({ ...ref, evidence, files: [file], submit: true })).resolves.toMatchObject({
      status: 'dispute_challenged',
      connectorStatus: 'awaiting-bank-feedback',
    });
    const after = standIn.dispute(dispute.id)!;
    expect(after.resolutions).toEqual([
      { resolution: 'declined', message: 'Delivered and signed for.', refund_amount: 0, uploaded_filename: after.uploads[0]!.fileName },
    ]);
    standIn.resolveDispute(dispute.id, 'declined');
    await expect(paystack.parseWebhook(standIn.disputeWebhook(dispute.id, 'charge.dispute.resolve'))).resolves.toMatchObject({
      dispute: { status: 'dispute_won' },
    });
  });

  test('submit without a file is refused before any call (Paystack needs a document to decline)', async () => {
    const { ref } = await disputed();
    const before = standIn.requests.length;
    const err = await outcome(paystackFor().submitDisputeEvidence({ ...ref, evidence, files: [], submit: true }));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ code: 'evidence_file_required' });
    expect(standIn.requests.length).toBe(before);
  });
});

describe('failures', () => {
  test('a timeout is a ConnectorTechnicalError', async () => {
    const { ref } = await disputed();
    standIn.failNext({ method: 'GET', path: '/dispute/' }, 'hang_before_work');
    const err = await outcome(paystackFor(standIn.secretKey, 300).fetchDispute(ref));
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('a resolve answered 500 after the work is a ConnectorTechnicalError (the core reads it back)', async () => {
    const { dispute, ref } = await disputed();
    standIn.failNext({ method: 'PUT', path: `/dispute/${dispute.id}/resolve` }, 'error_500_after_work');
    expect(await outcome(paystackFor().acceptDispute(ref))).toBeInstanceOf(ConnectorTechnicalError);
    await expect(paystackFor().fetchDispute(ref)).resolves.toMatchObject({ status: 'dispute_accepted' });
  });

  test("an unknown or another account's dispute is a ConnectorRequestError (404)", async () => {
    const other = standIn.addAccount();
    const { ref } = await disputed({}, other.secretKey);
    const err = await outcome(paystackFor().fetchDispute(ref));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ code: 'entity_not_found' });
    expect(await outcome(paystackFor().acceptDispute({ ...ref, connectorDisputeId: '1' }))).toBeInstanceOf(ConnectorRequestError);
  });

  test('accepting a dispute already declined is refused (4xx)', async () => {
    const { dispute, ref } = await disputed();
    standIn.setDisputeStatus(dispute.id, 'awaiting-bank-feedback');
    const err = await outcome(paystackFor().acceptDispute(ref));
    expect(err).toBeInstanceOf(ConnectorRequestError);
  });
});
