/**
 * Stripe disputes against the loopback stand-in (test/helpers/stripe-stand-in.ts): `charge.dispute.*`
 * webhooks signed as Stripe signs them, through every status of `STRIPE_DISPUTE_STATUS`; `fetchDispute`,
 * `acceptDispute`, `submitDisputeEvidence` (with and without `submit`, with a file uploaded to `POST /v1/files`);
 * an unknown status kept raw; technical failures and refusals. Shapes: Stripe's OpenAPI fixture `resources.dispute`
 * (fixtures/stripe/disputes/openapi.fixtures3.dispute.extract.json, see fixtures/SOURCES.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConnectorRequestError,
  ConnectorTechnicalError,
  type DisputeRef,
  type WebhookEvent,
  WebhookSignatureError,
} from '../../shared/connectors/connector';
import { disputeFromStripe, stripeFilesBaseUrl } from '../../shared/connectors/stripe/disputes';
import { STRIPE_DISPUTE_STATUS } from '../../shared/connectors/stripe/statuses';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import type { StripeDispute } from '../../shared/connectors/stripe/wire-types';
import type { DisputeStage, DisputeStatus } from '../../shared/domain/dispute-vocabulary';
import { logger } from '../../shared/observability/logger';
import {
  type StandInDisputeEventType,
  type StripeStandIn,
  type StripeStandInAccount,
  startStripeStandIn,
} from '../helpers/stripe-stand-in';
import { RECORDED_DISPUTE_CREATED_EVENT } from './stripe-dispute-event';

const FIXTURES = join(__dirname, 'fixtures', 'stripe');
const fixtureText = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');

let standIn: StripeStandIn;
let other: StripeStandInAccount;
let seq = 0;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  other = standIn.addAccount();
});
beforeEach(() => {
  standIn.reset();
});
afterEach(() => {
  jest.restoreAllMocks();
});
afterAll(async () => {
  await standIn.close();
});

const adapter = (over: { secretKey?: string; webhookSecret?: string; timeoutMs?: number } = {}) =>
  new StripeConnector({
    baseUrl: standIn.url,
    secretKey: over.secretKey ?? standIn.secretKey,
    webhookSecret: over.webhookSecret ?? standIn.webhookSecret,
    timeoutMs: over.timeoutMs ?? 2000,
  });

/** A captured USD 1,500.00 card payment of the account; its PaymentIntent id and our payment id. */
async function capturedPayment(connector = adapter()): Promise<{ paymentId: string; pi: string }> {
  seq += 1;
  const paymentId = `pay_dispute_${Date.now()}_${seq}`;
  const result = await connector.authorize({
    paymentId,
    amount: 150000,
    currency: 'USD',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: { card_number: '4242424242424242', card_exp_month: '07', card_exp_year: '31', card_cvc: '314' },
    email: 'payer@example.com',
    publicBaseUrl: 'https://api.switchyard.test',
    returnUrl: `https://api.switchyard.test/pay/${paymentId}/return`,
  });
  expect(result.status).toBe('Succeeded');
  return { paymentId, pi: result.connectorTransactionId! };
}

const refOf = (disputeId: string, paymentId: string, pi: string): DisputeRef => ({
  connectorDisputeId: disputeId,
  paymentId,
  connectorTransactionId: pi,
  currency: 'USD',
});

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

describe('charge.dispute.* webhooks, signed by the stand-in as Stripe signs them', () => {
  const table: Array<[string, DisputeStage, DisputeStatus]> = [
    ['warning_needs_response', 'pre_dispute', 'dispute_opened'],
    ['warning_under_review', 'pre_dispute', 'dispute_challenged'],
    ['warning_closed', 'pre_dispute', 'dispute_cancelled'],
    ['needs_response', 'dispute', 'dispute_opened'],
    ['under_review', 'dispute', 'dispute_challenged'],
    ['won', 'dispute', 'dispute_won'],
    ['lost', 'dispute', 'dispute_lost'],
    ['appeal_needs_response', 'pre_arbitration', 'dispute_opened'],
    ['appeal_under_review', 'pre_arbitration', 'dispute_challenged'],
    ['prevented', 'pre_dispute', 'dispute_cancelled'],
  ];

  test('the table covers every status of stripe-node 23.1.0 Dispute.Status, and nothing else', () => {
    expect(Object.keys(STRIPE_DISPUTE_STATUS).sort()).toEqual(table.map(([s]) => s).sort());
  });

  test.each(table)('%s → %s / %s', async (stripeStatus, stage, status) => {
    const { pi } = await capturedPayment();
    const opened = standIn.openDispute(pi, { amount: 100000, reason: 'product_not_received', status: stripeStatus, dueBy: 1_900_000_000 });
    const signed = standIn.disputeEvent(opened.id, 'charge.dispute.updated');
    const event = await adapter().parseWebhook({ rawBody: signed.rawBody, headers: signed.headers });
    expect(event).toEqual({
      kind: 'dispute',
      eventId: signed.event.id,
      connectorDisputeId: opened.id,
      paymentId: null,
      dispute: {
        connectorDisputeId: opened.id,
        paymentId: null,
        connectorTransactionId: pi,
        amount: 100000,
        currency: 'USD',
        stage,
        status,
        connectorStatus: stripeStatus,
        connectorReason: 'product_not_received',
        connectorReasonCode: '10.4',
        challengeRequiredBy: iso(1_900_000_000),
        createdAt: iso(opened.created as number),
      },
    });
  });

  test.each<StandInDisputeEventType>([
    'charge.dispute.created',
    'charge.dispute.updated',
    'charge.dispute.closed',
    'charge.dispute.funds_withdrawn',
    'charge.dispute.funds_reinstated',
  ])('%s is a dispute event; no call is made', async (type) => {
    const { pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const calls = standIn.requests.length;
    const signed = standIn.disputeEvent(opened.id, type);
    const event = await adapter().parseWebhook({ rawBody: signed.rawBody, headers: signed.headers });
    expect(event).toMatchObject({ kind: 'dispute', connectorDisputeId: opened.id, dispute: { status: 'dispute_opened', amount: 150000 } });
    expect(standIn.requests).toHaveLength(calls);
  });

  test('a dispute moved by the issuer: opened, then won (charge.dispute.closed by default), then a redelivery maps alike', async () => {
    const { pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const first = standIn.disputeEvent(opened.id, 'charge.dispute.created');
    expect(await adapter().parseWebhook(first)).toMatchObject({ dispute: { status: 'dispute_opened', stage: 'dispute' } });
    expect(standIn.resolveDispute(opened.id, 'won').status).toBe('won');
    const closed = standIn.disputeEvent(opened.id);
    expect(closed.event.type).toBe('charge.dispute.closed');
    const mapped = await adapter().parseWebhook(closed);
    expect(mapped).toMatchObject({ eventId: closed.event.id, dispute: { status: 'dispute_won', connectorStatus: 'won' } });
    expect(await adapter().parseWebhook(closed)).toEqual(mapped);
  });

  test('an unknown status is kept raw in connectorStatus, maps to dispute_opened, and logs a warning', async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const { pi } = await capturedPayment();
    const opened = standIn.openDispute(pi, { status: 'needs_arbitration_response' });
    const signed = standIn.disputeEvent(opened.id);
    const event = (await adapter().parseWebhook(signed)) as Extract<WebhookEvent, { kind: 'dispute' }>;
    expect(event.dispute).toMatchObject({ stage: 'dispute', status: 'dispute_opened', connectorStatus: 'needs_arbitration_response' });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('unknown Stripe dispute status'),
      expect.objectContaining({ connectorStatus: 'needs_arbitration_response', connectorDisputeId: opened.id }),
    );
  });

  test("each account's dispute events are signed with that account's secret: another endpoint's secret refuses them", async () => {
    const mine = adapter({ secretKey: other.secretKey, webhookSecret: other.webhookSecret });
    const { pi } = await capturedPayment(mine);
    const opened = standIn.openDispute(pi, {}, other.secretKey);
    const signed = standIn.disputeEvent(opened.id);
    await expect(mine.parseWebhook(signed)).resolves.toMatchObject({ kind: 'dispute', connectorDisputeId: opened.id });
    await expect(adapter().parseWebhook(signed)).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  test('a dispute in a currency Switchyard never takes is acknowledged and ignored', async () => {
    const { pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const signed = standIn.disputeEvent(opened.id);
    const rawBody = signed.rawBody.replace('"currency": "usd"', '"currency": "eur"');
    const t = Math.floor(Date.now() / 1000);
    const { createHmac } = await import('node:crypto');
    const v1 = createHmac('sha256', standIn.webhookSecret).update(`${t}.${rawBody}`).digest('hex');
    await expect(adapter().parseWebhook({ rawBody, headers: { 'stripe-signature': `t=${t},v1=${v1}` } })).resolves.toMatchObject({
      kind: 'ignored',
    });
  });
});

describe("Stripe's published samples", () => {
  test("the OpenAPI fixture's Dispute (an inquiry, reason code in payment_method_details.card, no PaymentIntent) maps", () => {
    const extract = JSON.parse(fixtureText('disputes/openapi.fixtures3.dispute.extract.json')) as {
      source: Record<string, string>;
      resources: { dispute: StripeDispute };
    };
    expect(extract.source).toMatchObject({ repository: 'github.com/stripe/openapi', release_tag: 'v2436' });
    expect(disputeFromStripe(extract.resources.dispute)).toEqual({
      connectorDisputeId: 'dp_1Pgc71B7WZ01zgkWMevJiAUx',
      paymentId: null,
      connectorTransactionId: null,
      amount: 1000,
      currency: 'USD',
      stage: 'pre_dispute',
      status: 'dispute_opened',
      connectorStatus: 'warning_needs_response',
      connectorReason: 'general',
      connectorReasonCode: '10.4',
      challengeRequiredBy: '2024-08-14T23:59:59.000Z',
      createdAt: iso(1234567890),
    });
  });

  test('the recorded event.charge.dispute.created.json, signed, is a dispute event naming the PaymentIntent', async () => {
    const rawBody = fixtureText('event.charge.dispute.created.json');
    const t = Math.floor(Date.now() / 1000);
    const { createHmac } = await import('node:crypto');
    const v1 = createHmac('sha256', standIn.webhookSecret).update(`${t}.${rawBody}`).digest('hex');
    await expect(adapter().parseWebhook({ rawBody, headers: { 'stripe-signature': `t=${t},v1=${v1}` } })).resolves.toEqual(
      RECORDED_DISPUTE_CREATED_EVENT,
    );
  });

  test('file uploads go to files.stripe.com when the base URL is Stripe, else to the base URL itself', () => {
    expect(stripeFilesBaseUrl('https://api.stripe.com')).toBe('https://files.stripe.com');
    expect(stripeFilesBaseUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
  });
});

describe('fetchDispute, acceptDispute, submitDisputeEvidence', () => {
  test('fetchDispute reads GET /v1/disputes/:id with the PaymentIntent expanded: our payment id comes back', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi, { dueBy: 1_900_000_000 });
    const dispute = await adapter().fetchDispute(refOf(opened.id, paymentId, pi));
    expect(dispute).toMatchObject({
      connectorDisputeId: opened.id,
      paymentId,
      connectorTransactionId: pi,
      amount: 150000,
      status: 'dispute_opened',
      challengeRequiredBy: iso(1_900_000_000),
    });
    const request = standIn.requests.at(-1)!;
    expect(request).toMatchObject({
      method: 'GET',
      path: `/v1/disputes/${opened.id}`,
      idempotencyKey: null,
      form: { 'expand[0]': 'payment_intent' },
    });
  });

  test('acceptDispute closes it (→ lost, dispute_lost) under Idempotency-Key <id>:close; a retry replays it', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const ref = refOf(opened.id, paymentId, pi);
    const accepted = await adapter().acceptDispute(ref);
    expect(accepted).toMatchObject({ status: 'dispute_lost', connectorStatus: 'lost', paymentId });
    expect(standIn.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/disputes/${opened.id}/close`,
      idempotencyKey: `${opened.id}:close`,
    });
    await expect(adapter().acceptDispute(ref)).resolves.toEqual(accepted);
    expect(standIn.requests.at(-1)!.outcome).toBe('replayed');
    expect(standIn.disputesOf()).toEqual([expect.objectContaining({ id: opened.id, status: 'lost', closed: true, paymentId })]);
  });

  test('evidence without submit is staged: the dispute still needs a response', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const dispute = await adapter().submitDisputeEvidence({
      ...refOf(opened.id, paymentId, pi),
      evidence: { product_description: 'A 1,500 USD annual plan', customer_email_address: 'payer@example.com' },
      files: [],
      submit: false,
    });
    expect(dispute).toMatchObject({ status: 'dispute_opened', connectorStatus: 'needs_response' });
    expect(standIn.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/disputes/${opened.id}`,
      idempotencyKey: expect.stringMatching(new RegExp(`^${opened.id}:evidence:[0-9a-f]{32}$`)),
      form: {
        'evidence[product_description]': 'A 1,500 USD annual plan',
        'evidence[customer_email_address]': 'payer@example.com',
        submit: 'false',
      },
    });
    expect(standIn.disputesOf()[0]).toMatchObject({
      status: 'needs_response',
      submissionCount: 0,
      evidence: { product_description: 'A 1,500 USD annual plan', customer_email_address: 'payer@example.com' },
    });
  });

  test('evidence with a file and submit: the file goes to POST /v1/files (multipart, dispute_evidence), its id into evidence, → under_review', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const content = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a, 0x2d, 0x2d]);
    const dispute = await adapter().submitDisputeEvidence({
      ...refOf(opened.id, paymentId, pi),
      evidence: { receipt: 'file_ours_1', uncategorized_text: 'Delivered and used.' },
      files: [{ fileId: 'file_ours_1', filename: 'receipt "May".png', mediaType: 'image/png', content }],
      submit: true,
    });
    expect(dispute).toMatchObject({ status: 'dispute_challenged', connectorStatus: 'under_review', stage: 'dispute' });
    const [file] = standIn.filesOf();
    expect(file).toEqual({
      id: expect.stringMatching(/^file_/),
      purpose: 'dispute_evidence',
      filename: 'receipt %22May%22.png',
      mediaType: 'image/png',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      idempotencyKey: `${opened.id}:file:file_ours_1`,
    });
    const upload = standIn.requests.find((r) => r.path === '/v1/files')!;
    expect(upload).toMatchObject({ method: 'POST', form: { purpose: 'dispute_evidence' } });
    expect(standIn.requests.at(-1)!.form).toMatchObject({ 'evidence[receipt]': file!.id, submit: 'true' });
    expect(standIn.disputesOf()[0]).toMatchObject({
      status: 'under_review',
      submissionCount: 1,
      evidence: { receipt: file!.id, uncategorized_text: 'Delivered and used.' },
    });
  });

  test('a file field naming a file not handed over is refused before anything is sent', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const calls = standIn.requests.length;
    await expect(
      adapter().submitDisputeEvidence({
        ...refOf(opened.id, paymentId, pi),
        evidence: { receipt: 'file_missing' },
        files: [],
        submit: true,
      }),
    ).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'missing_evidence_file' });
    expect(standIn.requests).toHaveLength(calls);
  });

  test('a timeout is a ConnectorTechnicalError (fetch; accept, whose work was done: read back)', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const ref = refOf(opened.id, paymentId, pi);
    const slow = adapter({ timeoutMs: 300 });
    standIn.failNext({ method: 'GET', path: '/v1/disputes/' }, 'hang_before_work');
    await expect(slow.fetchDispute(ref)).rejects.toBeInstanceOf(ConnectorTechnicalError);
    standIn.failNext({ method: 'POST', path: `/v1/disputes/${opened.id}/close` }, 'hang_after_work');
    await expect(slow.acceptDispute(ref)).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.disputesOf()[0]!.status).toBe('lost'); // the work was done: the core reads it back
    await expect(adapter().fetchDispute(ref)).resolves.toMatchObject({ status: 'dispute_lost' });
  });

  test('a 5xx of the upload is a ConnectorTechnicalError and no evidence is sent', async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    standIn.failNext({ method: 'POST', path: '/v1/files' }, 'error_500_before_work');
    await expect(
      adapter().submitDisputeEvidence({
        ...refOf(opened.id, paymentId, pi),
        evidence: { receipt: 'f1' },
        files: [{ fileId: 'f1', filename: 'r.pdf', mediaType: 'application/pdf', content: Buffer.from('%PDF-1.7') }],
        submit: true,
      }),
    ).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(standIn.requests.some((r) => r.path === `/v1/disputes/${opened.id}`)).toBe(false);
    expect(standIn.disputesOf()[0]).toMatchObject({ status: 'needs_response', submissionCount: 0 });
  });

  test("a 4xx is a ConnectorRequestError: another account's dispute, an unknown one, a decided one", async () => {
    const { paymentId, pi } = await capturedPayment();
    const opened = standIn.openDispute(pi);
    const ref = refOf(opened.id, paymentId, pi);
    const otherAccount = adapter({ secretKey: other.secretKey });
    await expect(otherAccount.fetchDispute(ref)).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'resource_missing' });
    await expect(adapter().fetchDispute({ ...ref, connectorDisputeId: 'du_unknown' })).rejects.toBeInstanceOf(ConnectorRequestError);
    standIn.resolveDispute(opened.id, 'won');
    await expect(adapter().acceptDispute(ref)).rejects.toBeInstanceOf(ConnectorRequestError);
    await expect(
      adapter().submitDisputeEvidence({ ...ref, evidence: { uncategorized_text: 'late' }, files: [], submit: true }),
    ).rejects.toBeInstanceOf(ConnectorRequestError);
  });
});
