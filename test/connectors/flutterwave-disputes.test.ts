/**
 * Flutterwave disputes: chargebacks through the adapter against the loopback stand-in
 * (test/helpers/flutterwave-stand-in.ts), and Flutterwave's published samples through the mapping.
 *
 * - `listDisputes(since)`: `GET /v3/chargebacks?currency=…&from=…&to=…&page=N` per currency, every page; another
 *   account's chargebacks never appear; chargebacks raised before the window are not listed.
 * - Every status and stage of `FLUTTERWAVE_DISPUTE_STATUS` / `FLUTTERWAVE_DISPUTE_STAGE`; an unknown status is kept raw,
 *   read as `dispute_opened`, with a warning.
 * - `fetchDispute`, `acceptDispute` (`PUT /v3/chargebacks/{id}` `{action: "accept", comment}`),
 *   `submitDisputeEvidence` (`{action: "decline", comment}` from the text fields; files refused before anything is sent;
 *   `submit: false` sends nothing).
 * - Faults: a timeout is a ConnectorTechnicalError, a 4xx a ConnectorRequestError.
 * Samples: fixtures/flutterwave/disputes/*.json (sources in fixtures/SOURCES.md, "Flutterwave disputes").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorRequestError, ConnectorTechnicalError, type DisputeRef } from '../../shared/connectors/connector';
import { connectorDisputeOf, declineCommentOf } from '../../shared/connectors/flutterwave/disputes';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_DISPUTE_STAGE, FLUTTERWAVE_DISPUTE_STATUS } from '../../shared/connectors/flutterwave/statuses';
import type { FlutterwaveChargeback } from '../../shared/connectors/flutterwave/wire-types';
import { CURRENCIES } from '../../shared/domain/money';
import { logger } from '../../shared/observability/logger';
import { type FlutterwaveStandIn, type FlutterwaveStandInAccount, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';

const FIXTURES = join(__dirname, 'fixtures', 'flutterwave', 'disputes');
const sample = <T>(name: string): T => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
const CARD = { card_number: '5531886652142950', card_exp_month: '9', card_exp_year: '2032', card_cvc: '564' };
const DAY = 24 * 60 * 60 * 1000;

let flw: FlutterwaveStandIn;
let A: FlutterwaveStandInAccount;
let B: FlutterwaveStandInAccount;

beforeAll(async () => {
  flw = await startFlutterwaveStandIn({ payments: true });
  A = flw.accounts()[0]!;
  B = flw.addAccount();
});
afterAll(async () => {
  await flw.close();
});
afterEach(() => {
  flw.reset();
  jest.restoreAllMocks();
});

function connectorOf(account: FlutterwaveStandInAccount, timeoutMs?: number): FlutterwaveConnector {
  return new FlutterwaveConnector({
    baseUrl: flw.url,
    secretKey: account.secretKey,
    encryptionKey: account.encryptionKey,
    webhookSecret: account.webhookHash,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/** A card payment charged at the stand-in (our payment id as `tx_ref`), and its Flutterwave transaction id. */
async function charged(paymentId: string, account = A): Promise<string> {
  const result = await connectorOf(account).authorize({
    paymentId,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: CARD,
    email: 'payer@example.com',
    publicBaseUrl: 'https://api.example.test',
    returnUrl: `https://api.example.test/pay/${paymentId}/return`,
  });
  expect(result.status).toBe('Succeeded');
  return result.connectorTransactionId!;
}

function refOf(cb: { id: number; txRef: string; transactionId: number }, currency: DisputeRef['currency'] = 'NGN'): DisputeRef {
  return { connectorDisputeId: String(cb.id), paymentId: cb.txRef, connectorTransactionId: String(cb.transactionId), currency };
}

const chargebackRequests = () => flw.requests.filter((r) => r.path.startsWith('/v3/chargebacks'));

describe('listDisputes', () => {
  it('pages through every currency, keeps to the window and to the account', async () => {
    const now = Date.now();
    for (let i = 0; i < 25; i += 1) flw.openChargeback(`pay_ngn_${i}`, { amount: 1000 + i, currency: 'NGN' });
    flw.openChargeback('pay_usd', { amount: 12.5, currency: 'USD' });
    flw.openChargeback('pay_old', { currency: 'NGN', createdAt: new Date(now - 10 * DAY).toISOString() });
    flw.openChargeback('pay_other_account', { currency: 'NGN' }, B.secretKey);

    const disputes = await connectorOf(A).listDisputes(new Date(now - 2 * DAY).toISOString());

    expect(disputes).toHaveLength(26);
    expect(new Set(disputes.map((d) => d.connectorDisputeId)).size).toBe(26);
    expect(disputes.map((d) => d.paymentId)).not.toContain('pay_old');
    expect(disputes.map((d) => d.paymentId)).not.toContain('pay_other_account');
    const usd = disputes.find((d) => d.paymentId === 'pay_usd')!;
    expect(usd).toMatchObject({ amount: 1250, currency: 'USD', status: 'dispute_opened', stage: 'dispute', connectorStatus: 'initiated' });
    const ngn = disputes.find((d) => d.paymentId === 'pay_ngn_3')!;
    expect(ngn).toMatchObject({ amount: 100300, currency: 'NGN' });
    expect(ngn.connectorTransactionId).toMatch(/^\d+$/);

    const queries = chargebackRequests().map((r) => new URLSearchParams(r.query));
    expect(chargebackRequests().every((r) => r.method === 'GET')).toBe(true);
    expect(new Set(queries.map((q) => q.get('currency')))).toEqual(new Set(CURRENCIES));
    expect(queries.filter((q) => q.get('currency') === 'NGN').map((q) => q.get('page'))).toEqual(['1', '2']);
    for (const q of queries) {
      expect(q.get('from')).toBe(new Date(now - 3 * DAY).toISOString().slice(0, 10));
      expect(q.get('to')).toBe(new Date(now + DAY).toISOString().slice(0, 10));
    }
  });

  it('returns nothing when no chargeback was raised', async () => {
    await expect(connectorOf(A).listDisputes(new Date().toISOString())).resolves.toEqual([]);
  });

  it.each(Object.entries(FLUTTERWAVE_DISPUTE_STATUS))('maps status %s to %s', async (status, expected) => {
    flw.openChargeback(`pay_${status}`, { status, amount: 500 });
    const [dispute] = await connectorOf(A).listDisputes(new Date(Date.now() - DAY).toISOString());
    expect(dispute).toMatchObject({ status: expected, connectorStatus: status, paymentId: `pay_${status}`, amount: 50000 });
  });

  it.each(Object.entries(FLUTTERWAVE_DISPUTE_STAGE))('maps stage %s to %s', async (stage, expected) => {
    flw.openChargeback('pay_stage', { stage });
    const [dispute] = await connectorOf(A).listDisputes(new Date(Date.now() - DAY).toISOString());
    expect(dispute?.stage).toBe(expected);
  });

  it('keeps an unknown status raw, reads it as dispute_opened and warns', async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    flw.openChargeback('pay_reversed', { status: 'reversed' });
    const [dispute] = await connectorOf(A).listDisputes(new Date(Date.now() - DAY).toISOString());
    expect(dispute).toMatchObject({ status: 'dispute_opened', connectorStatus: 'reversed' });
    expect(warn).toHaveBeenCalledWith(
      'Flutterwave chargeback has an unknown status or stage',
      expect.objectContaining({ connector_status: 'reversed', mapped_status: 'dispute_opened' }),
    );
  });
});

describe('fetchDispute', () => {
  it('reads a chargeback of a charged payment by its transaction id, with its deadline', async () => {
    const transactionId = await charged('pay_fetch_1');
    const cb = flw.openChargeback('pay_fetch_1', {
      amount: 600,
      dueDate: '2030-01-02T15:59:59.000Z',
      comment: 'Cancelled merchandise/Service',
    });
    expect(String(cb.transactionId)).toBe(transactionId);

    const dispute = await connectorOf(A).fetchDispute(refOf(cb));

    expect(dispute).toEqual({
      connectorDisputeId: String(cb.id),
      paymentId: 'pay_fetch_1',
      connectorTransactionId: transactionId,
      amount: 60000,
      currency: 'NGN',
      stage: 'dispute',
      status: 'dispute_opened',
      connectorStatus: 'initiated',
      connectorReason: 'Cancelled merchandise/Service',
      connectorReasonCode: null,
      challengeRequiredBy: '2030-01-02T15:59:59.000Z',
      createdAt: cb.createdAt,
    });
    const [request] = chargebackRequests();
    expect(new URLSearchParams(request!.query).get('id')).toBe(transactionId);
  });

  it('gives a null deadline when Flutterwave gives no due_date', async () => {
    const cb = flw.openChargeback('pay_fetch_2', { dueDate: null });
    await expect(connectorOf(A).fetchDispute(refOf(cb))).resolves.toMatchObject({ challengeRequiredBy: null });
  });

  it('sees a resolution (won, lost)', async () => {
    const cb = flw.openChargeback('pay_fetch_3', {});
    flw.resolveChargeback(cb.id, 'won');
    await expect(connectorOf(A).fetchDispute(refOf(cb))).resolves.toMatchObject({ status: 'dispute_won' });
    flw.resolveChargeback(cb.id, 'lost', { stage: 'pre-arbitration' });
    await expect(connectorOf(A).fetchDispute(refOf(cb))).resolves.toMatchObject({ status: 'dispute_lost', stage: 'pre_arbitration' });
  });

  it("refuses another account's chargeback (chargeback_not_found)", async () => {
    const cb = flw.openChargeback('pay_fetch_b', {}, B.secretKey);
    const err = await connectorOf(A)
      .fetchDispute(refOf(cb))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('chargeback_not_found');
  });
});

describe('acceptDispute', () => {
  it('sends action accept with a comment; a retry answers the accepted chargeback', async () => {
    const cb = flw.openChargeback('pay_accept', { amount: 700 });
    const connector = connectorOf(A);

    const dispute = await connector.acceptDispute(refOf(cb));

    expect(dispute).toMatchObject({
      connectorDisputeId: String(cb.id),
      status: 'dispute_accepted',
      connectorStatus: 'accepted',
      paymentId: 'pay_accept', // the PUT answer has no tx_ref: taken from the ref
      connectorTransactionId: String(cb.transactionId),
      amount: 70000,
      currency: 'NGN',
    });
    expect(flw.chargebacks()[0]!.actions).toEqual([{ action: 'accept', comment: expect.stringContaining('pay_accept') }]);
    const put = chargebackRequests().find((r) => r.method === 'PUT')!;
    expect(put.path).toBe(`/v3/chargebacks/${cb.id}`);

    await expect(connector.acceptDispute(refOf(cb))).resolves.toMatchObject({ status: 'dispute_accepted' });
    expect(flw.chargebacks()[0]!.actions).toHaveLength(1);
  });

  it('throws the refusal for a chargeback already resolved otherwise', async () => {
    const cb = flw.openChargeback('pay_accept_lost', {});
    flw.resolveChargeback(cb.id, 'lost');
    const err = await connectorOf(A)
      .acceptDispute(refOf(cb))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('this_chargeback_has_already_been_lost');
  });
});

describe('submitDisputeEvidence', () => {
  const evidence = {
    product_description: 'Annual plan, delivered by e-mail',
    customer_email_address: 'payer@example.com',
    uncategorized_text: 'The customer downloaded the product twice.',
  };

  it('declines with the text evidence as the comment', async () => {
    const cb = flw.openChargeback('pay_decline', {});
    const dispute = await connectorOf(A).submitDisputeEvidence({ ...refOf(cb), evidence, files: [], submit: true });
    expect(dispute).toMatchObject({ status: 'dispute_challenged', connectorStatus: 'declined', paymentId: 'pay_decline' });
    const comment = declineCommentOf(evidence);
    expect(comment).toBe(
      'Product description: Annual plan, delivered by e-mail\nCustomer e-mail: payer@example.com\nOther: The customer downloaded the product twice.',
    );
    expect(flw.chargebacks()[0]!.actions).toEqual([{ action: 'decline', comment }]);
  });

  it('sends nothing with submit: false (Flutterwave keeps no draft) and returns the chargeback', async () => {
    const cb = flw.openChargeback('pay_draft', {});
    const dispute = await connectorOf(A).submitDisputeEvidence({ ...refOf(cb), evidence, files: [], submit: false });
    expect(dispute).toMatchObject({ status: 'dispute_opened' });
    expect(chargebackRequests().filter((r) => r.method === 'PUT')).toEqual([]);
    expect(flw.chargebacks()[0]!.actions).toEqual([]);
  });

  it('refuses files before anything is sent (evidence_files_unsupported)', async () => {
    const cb = flw.openChargeback('pay_files', {});
    const file = { fileId: 'file_1', filename: 'receipt.pdf', mediaType: 'application/pdf', content: Buffer.from('%PDF-1.4') };
    for (const request of [
      { ...refOf(cb), evidence, files: [file], submit: true },
      { ...refOf(cb), evidence: { ...evidence, receipt: 'file_1' }, files: [], submit: true },
      { ...refOf(cb), evidence, files: [file], submit: false },
    ]) {
      const err = await connectorOf(A)
        .submitDisputeEvidence(request)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorRequestError);
      expect((err as ConnectorRequestError).code).toBe('evidence_files_unsupported');
    }
    expect(flw.requests).toEqual([]);
  });

  it('refuses evidence without text (evidence_comment_required), sending nothing', async () => {
    const cb = flw.openChargeback('pay_empty', {});
    const err = await connectorOf(A)
      .submitDisputeEvidence({ ...refOf(cb), evidence: { uncategorized_text: '  ' }, files: [], submit: true })
      .catch((e: unknown) => e);
    expect((err as ConnectorRequestError).code).toBe('evidence_comment_required');
    expect(flw.requests).toEqual([]);
  });
});

describe('faults', () => {
  it('a timeout is a ConnectorTechnicalError', async () => {
    flw.failNext({ method: 'GET', path: '/v3/chargebacks' }, 'hang_before_work');
    const err = await connectorOf(A, 300)
      .listDisputes(new Date().toISOString())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
  });

  it('an accept whose answer is lost after the work is a ConnectorTechnicalError; reading back shows it accepted', async () => {
    const cb = flw.openChargeback('pay_lost_answer', {});
    flw.failNext({ method: 'PUT', path: '/v3/chargebacks' }, 'hang_after_work');
    const err = await connectorOf(A, 300)
      .acceptDispute(refOf(cb))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    await expect(connectorOf(A).fetchDispute(refOf(cb))).resolves.toMatchObject({ status: 'dispute_accepted' });
  });

  it('a 5xx is a ConnectorTechnicalError', async () => {
    const cb = flw.openChargeback('pay_500', {});
    flw.failNext({ method: 'PUT', path: '/v3/chargebacks' }, 'error_500_before_work');
    await expect(connectorOf(A).acceptDispute(refOf(cb))).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  it('a 4xx (a key that is no account) is a ConnectorRequestError', async () => {
    const bad = { ...A, secretKey: 'FLWSECK_TEST-nobody0000000000000000000000000000-X' };
    const err = await connectorOf(bad)
      .listDisputes(new Date().toISOString())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('invalid_authorization_key');
  });
});

describe("Flutterwave's published samples", () => {
  it('maps the "Get all Chargebacks" sample', () => {
    const list = sample<{ data: FlutterwaveChargeback[] }>('chargebacks-list.json');
    expect(connectorDisputeOf(list.data[0]!, { currency: 'NGN' })).toEqual({
      dispute: {
        connectorDisputeId: '1390',
        paymentId: '10',
        connectorTransactionId: '1554166',
        amount: 10000,
        currency: 'NGN',
        stage: 'dispute',
        status: 'dispute_lost',
        connectorStatus: 'lost',
        connectorReason: 'This is the payment',
        connectorReasonCode: null,
        challengeRequiredBy: '2020-09-23T15:59:59.000Z',
        createdAt: '2020-09-22T19:01:28.000Z',
      },
      statusKnown: true,
      stageKnown: true,
    });
  });

  it('maps the accept sample, taking the payment from the request (the answer has no tx_ref)', () => {
    const answer = sample<{ data: FlutterwaveChargeback }>('chargeback-accept.json');
    const { dispute } = connectorDisputeOf(answer.data, { currency: 'USD', paymentId: 'pay_x', connectorTransactionId: '42' });
    expect(dispute).toMatchObject({
      connectorDisputeId: '1591',
      paymentId: 'pay_x',
      connectorTransactionId: '42',
      amount: 10000,
      currency: 'USD',
      status: 'dispute_accepted',
      challengeRequiredBy: '2024-03-27T15:59:59.000Z',
    });
  });
});
