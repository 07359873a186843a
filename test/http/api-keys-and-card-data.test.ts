import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey, putApiKey, revokeApiKey } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

// This file's handlers: no auth cache (revocation is visible at once), INFO logs with every event logged.
process.env.API_KEY_CACHE_SECONDS = '0';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';

const PAN = '5555555555554444';
const PAN_DECLINE = '4000000000000002';
const CVC = '7391';
const cardBody = (number: string) => ({
  card: { card_number: number, card_exp_month: '09', card_exp_year: String(new Date().getUTCFullYear() + 2), card_cvc: CVC },
});

let api: LocalApi;
const logs: string[] = [];
let writeSpy: jest.SpyInstance;

beforeAll(async () => {
  writeSpy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logs.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  api = await startLocalApi();
});
afterAll(async () => {
  writeSpy.mockRestore();
  await api.close();
});

async function scanAll(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    // A full table dump: test-only inspection of what rests in storage.
    const out = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('API keys', () => {
  test('two keys of one merchant work side by side; a revoked key is refused with the same 401 as an unknown one', async () => {
    const merchant = `mer_rotation${Date.now()}`;
    const oldKey = `sk_test_${'o'.repeat(8)}${Date.now()}`;
    const newKey = `sk_test_${'n'.repeat(8)}${Date.now()}`;
    await putApiKey(oldKey, merchant, 'old');
    await putApiKey(newKey, merchant, 'new');
    const created = await api.request('POST', '/customers', { key: oldKey, body: { name: 'rotating' } });
    expect((await api.request('GET', `/customers/${created.body.customer_id}`, { key: newKey })).status).toBe(200);

    await revokeApiKey(oldKey.slice(0, 16));
    const revoked = await api.request('GET', '/customers', { key: oldKey });
    const unknown = await api.request('GET', '/customers', { key: 'sk_test_neverissued000000' });
    const missing = await api.request('GET', '/customers', { key: null });
    const malformed = await api.request('GET', '/customers', { key: 'not a key' });
    for (const res of [revoked, unknown, missing, malformed]) expectError(res, 401, 'invalid_api_key');
    expect(revoked.body).toEqual(unknown.body);
    expect(missing.body).toEqual(unknown.body);
    expect((await api.request('GET', '/customers', { key: newKey })).status).toBe(200);
  });

  test('the stored key item holds a hash and a prefix, never the key', async () => {
    const key = `sk_test_storedcheck${Date.now()}`;
    await putApiKey(key, 'mer_storedcheck', 'check');
    const items = (await scanAll()).filter((i) => i.entity === 'api_key');
    const mine = items.find((i) => i.PK === `APIKEY#${hashApiKey(key)}`);
    expect(mine).toBeDefined();
    expect(mine!.prefix).toBe(key.slice(0, 16));
    expect(JSON.stringify(items)).not.toContain(key);
  });
});

describe('card data never rests anywhere', () => {
  test('payments keep last4, brand, expiry and a keyed fingerprint: same card, same fingerprint', async () => {
    const a = await api.request('POST', '/payments', {
      body: { amount: 100, currency: 'NGN', confirm: true, payment_method_data: cardBody(PAN) },
    });
    const b = await api.request('POST', '/payments', { body: { amount: 200, currency: 'NGN' } });
    const bConfirmed = await api.request('POST', `/payments/${b.body.payment_id}/confirm`, {
      body: { payment_method_data: cardBody(PAN) },
    });
    const c = await api.request('POST', '/payments', {
      body: { amount: 300, currency: 'NGN', confirm: true, payment_method_data: cardBody(PAN_DECLINE) },
    });
    expect(a.body.payment_method_data.card).toMatchObject({ last4: '4444', brand: 'mastercard', exp_month: 9 });
    expect(a.body.payment_method_data.card.fingerprint).toBe(bConfirmed.body.payment_method_data.card.fingerprint);
    expect(c.body.payment_method_data.card.fingerprint).not.toBe(a.body.payment_method_data.card.fingerprint);
    expect(c.body.status).toBe('Failed');
    for (const res of [a, bConfirmed, c]) {
      expect(res.text).not.toContain(PAN);
      expect(res.text).not.toContain(PAN_DECLINE);
      expect(res.text).not.toMatch(new RegExp(`"${CVC}"`));
    }
  });

  test('requests that carry card data and fail (validation, malformed JSON, idempotent retries) leave none behind', async () => {
    const headers = { 'Idempotency-Key': `card-${Date.now()}` };
    const body = { amount: 400, currency: 'GHS', confirm: true, payment_method_data: cardBody(PAN) };
    await api.request('POST', '/payments', { body, headers });
    await api.request('POST', '/payments', { body, headers }); // replay
    expectError(await api.request('POST', '/payments', { body: { ...body, amount: 401 }, headers }), 422);
    expectError(await api.request('POST', '/payments', { body: { ...body, currency: 'EUR' } }), 400);
    expectError(
      await api.request('POST', '/payments', {
        raw: `{"amount": 5, "payment_method_data": {"card": {"card_number": "${PAN}", "card_cvc": "${CVC}"`,
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  });

  test('a full table dump holds no card number and no CVC', async () => {
    const dump = JSON.stringify(await scanAll());
    expect(dump.length).toBeGreaterThan(1000);
    for (const pan of [PAN, PAN_DECLINE, '4242424242424242', '4111111111111111', '4000000000009995', '4000000000003220']) {
      expect(dump).not.toContain(pan);
    }
    expect(dump).not.toMatch(/"card_(number|cvc)":/); // no stored attribute of that name, at any depth
    expect(dump).not.toMatch(new RegExp(`"${CVC}"`));
  });

  test('the captured logs of this file (every event logged) hold no card number, CVC or API key', () => {
    const text = logs.join('');
    expect(text).toContain('[REDACTED]'); // events were logged, and redacted
    expect(text).toMatch(/"api-key":"\[REDACTED\]"/);
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(PAN_DECLINE);
    expect(text).not.toMatch(new RegExp(`\\\\?"${CVC}\\\\?"`));
    expect(text).not.toContain(api.apiKey);
  });
});

describe('stored free text refuses card numbers: connector labels and uploaded file names', () => {
  /** A multipart upload of a small PDF named `filename`. */
  function pdfUpload(filename: string): { raw: string; headers: Record<string, string> } {
    const boundary = `----switchyard${Date.now()}`;
    const raw = [
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
      '%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n\r\n',
      `--${boundary}--\r\n`,
    ].join('');
    return { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  test.each([
    '4242 4242 4242 4242',
    'acct 4242-4242-4242-4242',
    '5555555555554444',
  ])('connector_label %j: 400 naming connector_label, no account, no event', async (label) => {
    const before = (await api.request('GET', '/connector_accounts')).body.data.length;
    const res = await api.request('POST', '/connector_accounts', { body: { connector_name: 'sandbox', connector_label: label } });
    const error = expectError(res, 400, 'parameter_invalid');
    expect(error.param).toBe('connector_label');
    expect(res.text).not.toContain(label);
    expect((await api.request('GET', '/connector_accounts')).body.data).toHaveLength(before);
    const events = await api.request('GET', '/events?limit=100');
    expect(events.status).toBe(200);
    expect(JSON.stringify(events.body)).not.toContain(label.replace(/\D/g, '').slice(0, 8));
  });

  test('a connector label of digits that is no card number is kept', async () => {
    const res = await api.request('POST', '/connector_accounts', {
      body: { connector_name: 'sandbox', connector_label: 'Lagos 2024 1234' },
    });
    expect(res.status).toBe(200);
    expect(res.body.connector_label).toBe('Lagos 2024 1234');
  });

  test.each([
    '4242424242424242.pdf',
    '4242 4242 4242 4242.pdf',
    'scan-5555-5555-5555-4444.pdf',
    '４２４２４２４２４２４２４２４２.pdf',
  ])('a file named %j: 400 naming file, nothing stored', async (filename) => {
    const res = await api.request('POST', '/files', pdfUpload(filename));
    const error = expectError(res, 400, 'parameter_invalid');
    expect(error.param).toBe('file');
    expect(res.text).not.toContain('42424242');
    expect(res.text).not.toContain('55555555');
    expect(JSON.stringify(await scanAll())).not.toContain(filename.replace(/\\/g, '\\\\'));
  });

  test('a path sent as the name keeps only its last segment: a card number in a folder name is never stored', async () => {
    const res = await api.request('POST', '/files', pdfUpload('C:\\cards\\4242424242424242\\x.pdf'));
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe('x.pdf');
    expect(JSON.stringify(await scanAll())).not.toContain('4242424242424242');
  });

  test('a file name of digits that is no card number is kept', async () => {
    const res = await api.request('POST', '/files', pdfUpload('invoice 2024-000123.pdf'));
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe('invoice 2024-000123.pdf');
  });
});
