/**
 * Disputes end to end through the local API — gateway, handlers, DynamoDB Local (a table of this file's own),
 * the delivery queue and the table stream to a merchant's webhook endpoint — against the sandbox and the loopback
 * stand-ins of Stripe, Paystack and Flutterwave, each with its ledger per account:
 * 1. the sandbox disputes a payment made with its dispute test card; the scheduled worker records it (polling), the
 *    money is withheld (refunds refused), `dispute.reminder` comes before the deadline, evidence with Stripe's
 *    `winning_evidence` is submitted and decided won: the money comes back; every event reaches the merchant's
 *    endpoint, signed;
 * 2. accepted (the money stays out), and expired when nobody answers by the deadline;
 * 3. Stripe's signed `charge.dispute.*` webhooks on a merchant's account: recorded once (a replay changes nothing),
 *    moved to won, and an older event arriving late never undoes it;
 * 4. Paystack's `charge.dispute.create|remind|resolve` on a merchant's account, its deadline from `dueAt`;
 * 5. Flutterwave's chargebacks found by polling the merchant's account, and their outcome;
 * 6. refunds racing a dispute's arrival never let `amount_refunded + amount_disputed` exceed `amount_captured`;
 * 7. answering under faults: storage failing before the call (nothing changed, the processor not asked), the
 *    processor timing out after it accepted (503 outcome_unknown, then settled by the worker from the processor).
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../scripts/local/event-stream';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { runBillingWork } from '../../shared/operations/billing/renewal-worker';
import { recordDispute } from '../../shared/operations/disputes/dispute-ingestion';
import * as disputesRepository from '../../shared/storage/disputes-repository';
import { findPaymentOwner } from '../../shared/storage/payments-repository';
import { type FlutterwaveStandIn, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';
import { card, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

type Json = Record<string, any>;

const table = `switchyard-disputes-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;
const env = scopedEnv();
let api: LocalApi;
let stripe: StripeStandIn;
let paystack: PaystackStandIn;
let flutterwave: FlutterwaveStandIn;
let queue: LocalDeliveryQueue;
let stream: EventStream;
const receivers: WebhookReceiver[] = [];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table, { stream: true });
  [stripe, paystack, flutterwave] = await Promise.all([
    startStripeStandIn(),
    startPaystackStandIn(),
    startFlutterwaveStandIn({ payments: true }),
  ]);
  env.set({
    STRIPE_BASE_URL: stripe.url,
    PAYSTACK_BASE_URL: paystack.url,
    FLUTTERWAVE_BASE_URL: flutterwave.url,
    CONNECTOR_TIMEOUT_MS: '1500',
    CONNECTOR_CONFIG_CACHE_MS: '0',
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
    SANDBOX_WEBHOOK_DELAY_MS: '100',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1',
  });
  api = await startLocalApi();
  queue = await startDeliveryQueue();
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
});
afterAll(async () => {
  await stream?.stop();
  await queue?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await api?.close();
  await Promise.all([stripe?.close(), paystack?.close(), flutterwave?.close()]);
  env.restore();
  process.env.TABLE_NAME = savedTable;
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** One run of the scheduled worker at `nowMs` (real time by default): polling, reminders, deadlines. */
const work = (nowMs = Date.now()) => runBillingWork({ now: new Date(nowMs), deadlineMs: Date.now() + 60_000, publicBaseUrl: api.url });

async function merchant() {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse> =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const ok = async (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json> => {
    const res = await request(method, path, body, headers);
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const disputesOf = async (paymentId: string): Promise<[Json, ...Json[]]> => (await ok('GET', `/disputes?payment_id=${paymentId}`)).data;
  const events = async (type: string): Promise<Json[]> => (await ok('GET', `/events?type=${type}&limit=100`)).data;
  const connect = async (body: Json): Promise<{ mca: string; webhookUrl: string }> => {
    const a = await ok('POST', '/connector_accounts', body);
    return { mca: a.merchant_connector_id, webhookUrl: a.webhook_url };
  };
  return { key, request, ok, disputesOf, events, connect };
}

/** Posts a processor's signed webhook to a path of the API. */
const postWebhook = (path: string, signed: { rawBody: string; headers: Record<string, string> }) =>
  api.request('POST', path, { raw: signed.rawBody, headers: signed.headers, key: null });

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;

/** Money invariant of a payment: refunded + disputed ≤ captured. */
function expectMoneyHolds(p: Json) {
  expect(p.amount_refunded + p.amount_disputed).toBeLessThanOrEqual(p.amount_captured);
}

describe('1–2. the sandbox: a dispute test card, end to end', () => {
  test('opened by polling, money withheld, reminded, challenged with winning evidence, won: money back; every event at the endpoint', async () => {
    const m = await merchant();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = await m
      .ok('POST', '/webhook_endpoints', { url: receiver.url, enabled_events: ['dispute.*'] })
      .catch(async () => m.ok('POST', '/webhook_endpoints', { url: receiver.url }));
    const p = await m.ok('POST', '/payments', {
      amount: 10_000,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000000259'),
    });
    expect(p).toMatchObject({ status: 'Succeeded', connector: 'sandbox', amount_disputed: 0, disputes: [] });

    await work();
    const [d] = await m.disputesOf(p.payment_id);
    expect(d).toMatchObject({
      dispute_id: expect.stringMatching(/^dp_/),
      payment_id: p.payment_id,
      amount: 10_000,
      currency: 'NGN',
      dispute_stage: 'dispute',
      dispute_status: 'dispute_opened',
      connector: 'sandbox',
      merchant_connector_id: null,
      connector_status: 'needs_response',
      connector_reason: 'fraudulent',
      amount_held: 10_000,
    });
    const deadline = Date.parse(d.challenge_required_by);
    expect(deadline - Date.parse(d.created_at)).toBeGreaterThan(6 * DAY);
    // The money is withheld: nothing is left to refund.
    let payment = await m.ok('GET', `/payments/${p.payment_id}`);
    expect(payment).toMatchObject({ amount_disputed: 10_000, disputes: [{ dispute_id: d.dispute_id, dispute_status: 'dispute_opened' }] });
    expect((await m.request('POST', `/payments/${p.payment_id}/refund`, { amount: 1 })).status).toBe(400);
    // A second run records nothing twice.
    await work();
    expect(await m.disputesOf(p.payment_id)).toHaveLength(1);
    expect(await m.events('dispute.opened')).toHaveLength(1);

    // Before the deadline: one reminder, however many runs.
    await work(deadline - HOUR);
    await work(deadline - HOUR + 60_000);
    expect(await m.events('dispute.reminder')).toHaveLength(1);

    const answered = await m.ok('POST', `/disputes/${d.dispute_id}/evidence`, {
      evidence: { uncategorized_text: 'winning_evidence', customer_name: 'Ada Obi' },
      submit: true,
    });
    expect(answered).toMatchObject({
      dispute_status: 'dispute_challenged',
      evidence: { uncategorized_text: 'winning_evidence', customer_name: 'Ada Obi' },
    });
    expect(answered.evidence_submitted_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 250));
    await work();
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_won', amount_held: 0 });
    payment = await m.ok('GET', `/payments/${p.payment_id}`);
    expect(payment).toMatchObject({ amount_disputed: 0, disputes: [{ dispute_id: d.dispute_id, dispute_status: 'dispute_won' }] });
    expect((await m.request('POST', `/payments/${p.payment_id}/refund`, { amount: 1000 })).status).toBe(200);

    const got = await receiver.waitFor(
      (rs) => ['dispute.opened', 'dispute.reminder', 'dispute.challenged', 'dispute.won'].every((t) => rs.some((w) => typeOf(w) === t)),
      30_000,
    );
    for (const w of got.filter((x) => typeOf(x).startsWith('dispute.'))) {
      const e = new Webhook(endpoint.secret).verify(w.body, w.headers) as Json;
      expect(e.data.dispute_id).toBe(d.dispute_id);
    }
  });

  test('accepted: the money stays out; a second accept is refused; an unanswered one expires at its deadline', async () => {
    const m = await merchant();
    const a = await m.ok('POST', '/payments', {
      amount: 7_000,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000000259'),
    });
    const b = await m.ok('POST', '/payments', {
      amount: 3_000,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000000259'),
    });
    await work();
    const [da] = await m.disputesOf(a.payment_id);
    const [db] = await m.disputesOf(b.payment_id);
    const accepted = await m.ok('POST', `/disputes/${da.dispute_id}/accept`);
    expect(accepted).toMatchObject({ dispute_status: 'dispute_accepted', amount_held: 7_000 });
    expect((await m.ok('GET', `/payments/${a.payment_id}`)).amount_disputed).toBe(7_000);
    const again = await m.request('POST', `/disputes/${da.dispute_id}/accept`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('dispute_unexpected_state');
    expect(await m.events('dispute.accepted')).toHaveLength(1);

    await work(Date.parse(db.challenge_required_by) + 60_000);
    expect(await m.ok('GET', `/disputes/${db.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_expired', amount_held: 3_000 });
    expect(await m.events('dispute.expired')).toHaveLength(1);
    // Lists by status and by payment.
    expect((await m.ok('GET', '/disputes?dispute_status=dispute_expired')).data.map((d: Json) => d.dispute_id)).toEqual([db.dispute_id]);
    expect((await m.ok('GET', '/disputes')).data).toHaveLength(2);
    expect((await m.request('GET', `/disputes/${db.dispute_id}`, undefined)).status).toBe(200);
    const other = await merchant();
    expect((await other.request('GET', `/disputes/${db.dispute_id}`)).status).toBe(404);
  });
});

describe('evidence files', () => {
  /** Uploads a file with `POST /files` (multipart, as Stripe's). */
  const upload = (m: Awaited<ReturnType<typeof merchant>>, name: string, bytes: Buffer) => {
    const boundary = `----switchyard${randomUUID().replace(/-/g, '')}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return api.request('POST', '/files', {
      key: m.key,
      raw: body.toString('latin1'),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  };

  test('a receipt uploaded with POST /files reaches the processor with the evidence; another merchant’s file is refused', async () => {
    const m = await merchant();
    const p = await m.ok('POST', '/payments', {
      amount: 2_500,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000000259'),
    });
    await work();
    const [d] = await m.disputesOf(p.payment_id);
    const uploaded = await upload(m, 'receipt.pdf', Buffer.from('%PDF-1.4\n% a receipt\n%%EOF\n', 'latin1'));
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ file_id: expect.stringMatching(/^file_/), purpose: 'dispute_evidence', type: 'pdf' });

    const other = await merchant();
    const foreign = await upload(other, 'other.pdf', Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1'));
    const refused = await m.request('POST', `/disputes/${d.dispute_id}/evidence`, { evidence: { receipt: foreign.body.file_id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'resource_missing', param: 'evidence' });
    expect((await m.ok('GET', `/disputes/${d.dispute_id}`)).evidence).toEqual({});

    const saved = await m.ok('POST', `/disputes/${d.dispute_id}/evidence`, { evidence: { receipt: uploaded.body.file_id } });
    expect(saved).toMatchObject({
      dispute_status: 'dispute_opened',
      evidence: { receipt: uploaded.body.file_id },
      evidence_submitted_at: null,
    });
    const submitted = await m.ok('POST', `/disputes/${d.dispute_id}/evidence`, {
      evidence: { uncategorized_text: 'losing_evidence' },
      submit: true,
    });
    expect(submitted).toMatchObject({
      dispute_status: 'dispute_challenged',
      evidence: { receipt: uploaded.body.file_id, uncategorized_text: 'losing_evidence' },
    });
    // The sandbox (the processor) holds the file it was given, named by our id.
    const { getSandboxDispute } = await import('../../shared/storage/sandbox-disputes-repository');
    expect(Object.keys((await getSandboxDispute(p.payment_id))!.evidence)).toContain(`file:${uploaded.body.file_id}`);
    await new Promise((r) => setTimeout(r, 250));
    await work();
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_lost', amount_held: 2_500 });
    // No bytes in any answer.
    expect(JSON.stringify(await m.ok('GET', `/files/${uploaded.body.file_id}`))).not.toContain('a receipt');
  });
});

describe('3. Stripe: signed charge.dispute.* webhooks on a merchant account', () => {
  test('recorded once, won, and a late older event changes nothing', async () => {
    const m = await merchant();
    const account = stripe.addAccount();
    const { mca, webhookUrl } = await m.connect({
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
    });
    const path = new URL(webhookUrl).pathname;
    const p = await m.ok('POST', '/payments', {
      amount: 5_000,
      currency: 'USD',
      confirm: true,
      merchant_connector_id: mca,
      payment_method_data: card('4242424242424242'),
    });
    expect(p.status).toBe('Succeeded');
    const du = stripe.openDispute(p.connector_transaction_id, {}, account.secretKey);
    const created = stripe.disputeEvent(du.id, 'charge.dispute.created');
    const first = await postWebhook(path, created);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ applied: true });
    const replay = await postWebhook(path, created);
    expect(replay.body).toMatchObject({ applied: false });
    const [d] = await m.disputesOf(p.payment_id);
    expect(d).toMatchObject({
      connector: 'stripe',
      merchant_connector_id: mca,
      connector_dispute_id: du.id,
      dispute_status: 'dispute_opened',
      amount_held: 5_000,
    });
    expect(Date.parse(d.challenge_required_by)).toBe((du as Json).evidence_details.due_by * 1000);

    const stale = stripe.disputeEvent(du.id, 'charge.dispute.updated');
    stripe.resolveDispute(du.id, 'won');
    expect((await postWebhook(path, stripe.disputeEvent(du.id, 'charge.dispute.closed'))).body).toMatchObject({ applied: true });
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_won', amount_held: 0 });
    // The older event (needs_response) arrives late: the outcome stands.
    expect((await postWebhook(path, stale)).body).toMatchObject({ applied: false });
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_won' });
    expect(await m.events('dispute.won')).toHaveLength(1);
    expect((await m.ok('GET', `/payments/${p.payment_id}`)).amount_disputed).toBe(0);
  });

  test('accept: Stripe times out after closing it → 503 outcome_unknown, then the worker reads it back: accepted, closed once at Stripe', async () => {
    const m = await merchant();
    const account = stripe.addAccount();
    const { mca, webhookUrl } = await m.connect({
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
    });
    const p = await m.ok('POST', '/payments', {
      amount: 4_000,
      currency: 'USD',
      confirm: true,
      merchant_connector_id: mca,
      payment_method_data: card('4242424242424242'),
    });
    const du = stripe.openDispute(p.connector_transaction_id, {}, account.secretKey);
    await postWebhook(new URL(webhookUrl).pathname, stripe.disputeEvent(du.id, 'charge.dispute.created'));
    const [d] = await m.disputesOf(p.payment_id);

    // Storage down before the call: nothing changed, Stripe not asked.
    const before = stripe.requests.length;
    jest
      .spyOn(disputesRepository, 'writeDisputeChange')
      .mockRejectedValueOnce(Object.assign(new Error('storage down'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } }));
    const down = await m.request('POST', `/disputes/${d.dispute_id}/accept`);
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(stripe.requests.slice(before).some((r) => r.path.includes('/close'))).toBe(false);
    jest.restoreAllMocks();

    stripe.failNext({ method: 'POST', path: `/v1/disputes/${du.id}/close`, secretKey: account.secretKey }, 'hang_after_work');
    const res = await m.request('POST', `/disputes/${d.dispute_id}/accept`);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('outcome_unknown');
    expect(res.body.error.message).not.toMatch(/nothing was changed/i);
    expect(stripe.disputesOf(account.secretKey).find((x) => x.id === du.id)?.status).toBe('lost');
    expect((await m.ok('GET', `/disputes/${d.dispute_id}`)).dispute_status).toBe('dispute_opened');
    // After the answer's lease: the worker reads it back.
    await work(Date.now() + 2 * 60_000);
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_accepted', amount_held: 4_000 });
    expect(stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/disputes/${du.id}/close`).length).toBe(1);
  });
});

describe('7. answering when storage fails after the processor did the work', () => {
  test('evidence submitted at Stripe, its write lost → 503 outcome_unknown (never "nothing changed"); the worker records it challenged; submitted once', async () => {
    const m = await merchant();
    const account = stripe.addAccount();
    const { mca, webhookUrl } = await m.connect({
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
    });
    const p = await m.ok('POST', '/payments', {
      amount: 3_300,
      currency: 'USD',
      confirm: true,
      merchant_connector_id: mca,
      payment_method_data: card('4242424242424242'),
    });
    const du = stripe.openDispute(p.connector_transaction_id, {}, account.secretKey);
    await postWebhook(new URL(webhookUrl).pathname, stripe.disputeEvent(du.id, 'charge.dispute.created'));
    const [d] = await m.disputesOf(p.payment_id);
    const real = disputesRepository.writeDisputeChange;
    let writes = 0;
    jest.spyOn(disputesRepository, 'writeDisputeChange').mockImplementation(async (merchantId, w) => {
      writes += 1;
      // 1: the answer's claim (kept); 2: the processor's answer (lost).
      if (writes === 2) throw Object.assign(new Error('storage down'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } });
      return real(merchantId, w);
    });
    const res = await m.request('POST', `/disputes/${d.dispute_id}/evidence`, {
      evidence: { product_description: 'A pair of shoes, delivered', customer_name: 'Ada Obi' },
      submit: true,
    });
    jest.restoreAllMocks();
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('outcome_unknown');
    expect(stripe.disputesOf(account.secretKey).find((x) => x.id === du.id)?.status).toBe('under_review');
    expect((await m.ok('GET', `/disputes/${d.dispute_id}`)).dispute_status).toBe('dispute_opened');
    // A new answer is refused while the first one's lease holds.
    expect((await m.request('POST', `/disputes/${d.dispute_id}/accept`)).status).toBe(409);
    await work(Date.now() + 2 * 60_000);
    const settled = await m.ok('GET', `/disputes/${d.dispute_id}`);
    expect(settled.dispute_status).toBe('dispute_challenged');
    expect(settled.evidence_submitted_at).not.toBeNull();
    expect(stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/disputes/${du.id}`)).toHaveLength(1);
  });
});

describe('4. Paystack: charge.dispute.create|remind|resolve on a merchant account', () => {
  test('opened with its dueAt, reminded once per reminder, resolved merchant-accepted', async () => {
    const m = await merchant();
    const { secretKey } = paystack.addAccount();
    const { mca, webhookUrl } = await m.connect({ connector_name: 'paystack', connector_account_details: { api_key: secretKey } });
    const path = new URL(webhookUrl).pathname;
    const p = await m.ok('POST', '/payments', {
      amount: 20_000,
      currency: 'NGN',
      confirm: true,
      merchant_connector_id: mca,
      email: 'ada@example.com',
      payment_method_data: card(PAYSTACK_TEST_CARDS.noValidation.number),
    });
    expect(p.status).toBe('Succeeded');
    const dueAt = new Date(Date.now() + 16 * HOUR).toISOString();
    const dispute = paystack.openDispute(paystackReference(p.payment_id), { dueAt }, secretKey);
    expect((await postWebhook(path, paystack.disputeWebhook(dispute.id, 'charge.dispute.create'))).body).toMatchObject({ applied: true });
    const [d] = await m.disputesOf(p.payment_id);
    expect(d).toMatchObject({
      connector: 'paystack',
      merchant_connector_id: mca,
      dispute_status: 'dispute_opened',
      challenge_required_by: dueAt,
    });
    expect((await postWebhook(path, paystack.disputeWebhook(dispute.id, 'charge.dispute.remind'))).status).toBe(200);
    expect(await m.events('dispute.reminder')).toHaveLength(1);
    paystack.resolveDispute(dispute.id, 'merchant-accepted');
    expect((await postWebhook(path, paystack.disputeWebhook(dispute.id, 'charge.dispute.resolve'))).body).toMatchObject({ applied: true });
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_accepted', amount_held: 20_000 });
    // Signed with another account's key: refused, nothing applied.
    const other = paystack.addAccount();
    const forged = paystack.disputeWebhook(dispute.id, 'charge.dispute.create');
    const otherMerchant = await merchant();
    const { webhookUrl: otherUrl } = await otherMerchant.connect({
      connector_name: 'paystack',
      connector_account_details: { api_key: other.secretKey },
    });
    const wrong = await postWebhook(new URL(otherUrl).pathname, forged);
    expect(wrong.status).toBe(401);
    expect(await otherMerchant.ok('GET', '/disputes')).toMatchObject({ data: [] });
  });
});

describe('5. Flutterwave: chargebacks found by polling', () => {
  test('a chargeback on a merchant account is recorded by the worker, then its outcome', async () => {
    const m = await merchant();
    const a = flutterwave.addAccount();
    const { mca } = await m.connect({
      connector_name: 'flutterwave',
      connector_account_details: { api_key: a.secretKey, key1: a.encryptionKey },
    });
    const p = await m.ok('POST', '/payments', {
      amount: 15_000,
      currency: 'NGN',
      confirm: true,
      merchant_connector_id: mca,
      email: 'ada@example.com',
      payment_method_data: card('5531886652142950'),
    });
    expect(p.status).toBe('Succeeded');
    const cb = flutterwave.openChargeback(p.payment_id, {}, a.secretKey);
    await work();
    const [d] = await m.disputesOf(p.payment_id);
    expect(d).toMatchObject({
      connector: 'flutterwave',
      merchant_connector_id: mca,
      dispute_status: 'dispute_opened',
      amount_held: 15_000,
    });
    await work();
    expect(await m.disputesOf(p.payment_id)).toHaveLength(1);
    flutterwave.resolveChargeback(cb.id, 'lost');
    await work();
    expect(await m.ok('GET', `/disputes/${d.dispute_id}`)).toMatchObject({ dispute_status: 'dispute_lost', amount_held: 15_000 });
    expect(await m.events('dispute.lost')).toHaveLength(1);
  });
});

describe('answers and reports at the edges', () => {
  test('an inquiry (nothing held) accepted is recorded accepted; a stale report never takes a challenged dispute back to opened', async () => {
    const m = await merchant();
    const inquiry = await m.ok('POST', '/payments', {
      amount: 1_200,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000001976'),
    });
    const chargeback = await m.ok('POST', '/payments', {
      amount: 1_300,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4000000000000259'),
    });
    await work();
    const [i] = await m.disputesOf(inquiry.payment_id);
    expect(i).toMatchObject({ dispute_stage: 'pre_dispute', dispute_status: 'dispute_opened', amount_held: 0 });
    expect((await m.ok('GET', `/payments/${inquiry.payment_id}`)).amount_disputed).toBe(0);
    expect(await m.ok('POST', `/disputes/${i.dispute_id}/accept`)).toMatchObject({ dispute_status: 'dispute_accepted', amount_held: 0 });

    const [c] = await m.disputesOf(chargeback.payment_id);
    await m.ok('POST', `/disputes/${c.dispute_id}/evidence`, { evidence: { uncategorized_text: 'still deciding' }, submit: true });
    const mid = (await findPaymentOwner(chargeback.payment_id)) as string;
    // A report read before the evidence reached the processor.
    const stale = await recordDispute({
      merchantId: mid,
      connector: 'sandbox',
      merchantConnectorId: null,
      paymentId: chargeback.payment_id,
      dispute: {
        connectorDisputeId: c.connector_dispute_id,
        paymentId: chargeback.payment_id,
        connectorTransactionId: chargeback.connector_transaction_id,
        amount: 1_300,
        currency: 'NGN',
        stage: 'dispute',
        status: 'dispute_opened',
        connectorStatus: 'needs_response',
        connectorReason: 'fraudulent',
        connectorReasonCode: null,
        challengeRequiredBy: c.challenge_required_by,
        createdAt: c.created_at,
      },
    });
    expect(stale.applied).toBe(false);
    expect(await m.ok('GET', `/disputes/${c.dispute_id}`)).toMatchObject({
      dispute_status: 'dispute_challenged',
      connector_status: 'under_review',
    });
  });

  test('evidence a processor does not take (files at Flutterwave) → 400 evidence_not_accepted, nothing sent; Paystack reminders each announced', async () => {
    const m = await merchant();
    const a = flutterwave.addAccount();
    const { mca } = await m.connect({
      connector_name: 'flutterwave',
      connector_account_details: { api_key: a.secretKey, key1: a.encryptionKey },
    });
    const p = await m.ok('POST', '/payments', {
      amount: 9_000,
      currency: 'NGN',
      confirm: true,
      email: 'ada@example.com',
      merchant_connector_id: mca,
      payment_method_data: card('5531886652142950'),
    });
    flutterwave.openChargeback(p.payment_id, {}, a.secretKey);
    await work();
    const [d] = await m.disputesOf(p.payment_id);
    const boundary = `----sy${randomUUID().replace(/-/g, '')}`;
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n%%EOF\n\r\n--${boundary}--\r\n`;
    const file = (
      await api.request('POST', '/files', { key: m.key, raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
    ).body;
    const before = flutterwave.chargebacksOf(a.secretKey)[0]!.actions.length;
    const refused = await m.request('POST', `/disputes/${d.dispute_id}/evidence`, {
      evidence: { receipt: file.file_id, uncategorized_text: 'Delivered' },
      submit: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'evidence_not_accepted', param: 'evidence' });
    expect(flutterwave.chargebacksOf(a.secretKey)[0]!.actions).toHaveLength(before);
    // Nothing held the dispute: text alone is taken at once.
    expect(
      await m.ok('POST', `/disputes/${d.dispute_id}/evidence`, { evidence: { uncategorized_text: 'Delivered on time' }, submit: true }),
    ).toMatchObject({
      dispute_status: 'dispute_challenged',
    });

    const { secretKey } = paystack.addAccount();
    const ps = await m.connect({ connector_name: 'paystack', connector_account_details: { api_key: secretKey } });
    const pp = await m.ok('POST', '/payments', {
      amount: 8_000,
      currency: 'NGN',
      confirm: true,
      email: 'ada@example.com',
      merchant_connector_id: ps.mca,
      payment_method_data: card(PAYSTACK_TEST_CARDS.noValidation.number),
    });
    const pd = paystack.openDispute(paystackReference(pp.payment_id), {}, secretKey);
    const path = new URL(ps.webhookUrl).pathname;
    await postWebhook(path, paystack.disputeWebhook(pd.id, 'charge.dispute.create'));
    const before2 = (await m.events('dispute.reminder')).length;
    await postWebhook(path, paystack.disputeWebhook(pd.id, 'charge.dispute.remind'));
    await new Promise((r) => setTimeout(r, 5));
    paystack.setDisputeStatus(pd.id, 'awaiting-merchant-feedback');
    await postWebhook(path, paystack.disputeWebhook(pd.id, 'charge.dispute.remind'));
    expect((await m.events('dispute.reminder')).length - before2).toBe(2);
  });
});

describe('6. refunds racing a dispute', () => {
  test('amount_refunded + amount_disputed never exceeds amount_captured, whichever lands first', async () => {
    const m = await merchant();
    for (let i = 0; i < 8; i += 1) {
      const p = await m.ok('POST', '/payments', {
        amount: 10_000,
        currency: 'NGN',
        confirm: true,
        payment_method_data: card('4242424242424242'),
      });
      const mid = (await findPaymentOwner(p.payment_id)) as string;
      const [refund] = await Promise.all([
        m.request('POST', `/payments/${p.payment_id}/refund`, { amount: 6_000 + i * 100 }),
        recordDispute({
          merchantId: mid,
          connector: 'sandbox',
          merchantConnectorId: null,
          paymentId: p.payment_id,
          dispute: {
            connectorDisputeId: `race_${i}_${randomUUID()}`,
            paymentId: p.payment_id,
            connectorTransactionId: p.connector_transaction_id,
            amount: 10_000,
            currency: 'NGN',
            stage: 'dispute',
            status: 'dispute_opened',
            connectorStatus: 'needs_response',
            connectorReason: 'fraudulent',
            connectorReasonCode: null,
            challengeRequiredBy: null,
            createdAt: null,
          },
        }),
      ]);
      const after = await m.ok('GET', `/payments/${p.payment_id}`);
      expectMoneyHolds(after);
      // Whichever came first took what it could; together they hold all of it: a refund first leaves the dispute
      // what was left; a dispute first leaves the refund nothing (refused).
      expect(after.amount_refunded + after.amount_disputed).toBe(10_000);
      if (refund.status === 200) expect(after.amount_refunded).toBe(6_000 + i * 100);
      else {
        expect(refund.status).toBe(400);
        expect(after.amount_refunded).toBe(0);
      }
    }
  });
});
