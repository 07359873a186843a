/**
 * What README.md and docs/api.md show a new merchant, checked against what the API answers through the
 * local gateway (the code `npm start` serves): the masked credentials of a sandbox connector account
 * (README step 9), and the timeout test card's `pending_operation` — its `state` right after the confirm
 * and its lease (`lease_expires_at`), as the README's sample, the sandbox card table and the "Unknown
 * outcomes" example of docs/api.md describe them; and that its curl lines complete the sandbox's 3-D Secure page.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const apiDocs = readFileSync(join(process.cwd(), 'docs/api.md'), 'utf8');

/** The timeout test card of the sandbox (docs/api.md, "The sandbox connector"). */
const TIMEOUT_CARD = '4000000000000119';

test("README step 9's sandbox account shows the credentials the API answers for one", async () => {
  const shown = /"connector_name": "sandbox", "connector_account_details": (\{"api_key": [^}]*\})/.exec(readme);
  expect(shown).not.toBeNull();
  const key = await api.newMerchantKey();
  const created = await api.request('POST', '/connector_accounts', { key, body: { connector_name: 'sandbox', connector_label: 'readme' } });
  expect(created.status).toBe(200);
  const read = await api.request('GET', `/connector_accounts/${created.body.merchant_connector_id}`, { key });
  expect(read.body.connector_account_details).toEqual(JSON.parse(shown?.[1] as string));
});

/** A confirmed payment with the timeout card. */
const timeoutPayment = (key?: string) =>
  api.request('POST', '/payments', {
    ...(key ? { key } : {}),
    body: {
      amount: 7000,
      currency: 'NGN',
      confirm: true,
      payment_method_data: { card: { card_number: TIMEOUT_CARD, card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' } },
    },
  });

/** The timeout card's row of the sandbox card table in docs/api.md. */
const timeoutRow = apiDocs.split('\n').find((line) => line.startsWith(`| ${TIMEOUT_CARD} |`)) ?? '';

test('the timeout card: the state and lease README and docs/api.md describe are what the API answers', async () => {
  const before = Date.now();
  const res = await timeoutPayment();
  const after = Date.now();
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('Processing');
  const claim = res.body.pending_operation;

  // README's sample of the confirm's answer, and the card's row in docs/api.md: the state it answers with.
  const sample = /json pending_operation +# \{"operation":"authorize",.*"state":"([a-z_]+)"\}/.exec(readme);
  expect(sample?.[1]).toBe(claim.state);
  const row = timeoutRow;
  expect(row).toContain(`\`state\` is \`${claim.state}\` until its \`lease_expires_at\``);

  // docs/api.md's pending_operation example: the lease it shows after `started_at` is the lease a request gets
  // after it began (the request began between `before` and the gateway's invocation, which `started_at` follows).
  const example = /"started_at": "([^"]+)", "lease_expires_at": "([^"]+)"/.exec(apiDocs);
  const documentedLeaseMs = Date.parse(example?.[2] as string) - Date.parse(example?.[1] as string);
  const lease = Date.parse(claim.lease_expires_at);
  expect(lease).toBeGreaterThanOrEqual(before + documentedLeaseMs);
  expect(lease).toBeLessThanOrEqual(Math.min(after, Date.parse(claim.started_at)) + documentedLeaseMs);
  // The prose says the same number of seconds as the example.
  expect(apiDocs).toContain(`\`lease_expires_at\` is ${documentedLeaseMs / 1000} s after that request began`);
  expect(row).toContain(`(${documentedLeaseMs / 1000} s after the request began)`);
});

test('the timeout card with a connector to fall back to: answered Succeeded at once, as docs/api.md says', async () => {
  const key = await api.newMerchantKey();
  for (const label of ['first', 'second']) {
    const account = await api.request('POST', '/connector_accounts', { key, body: { connector_name: 'sandbox', connector_label: label } });
    expect(account.status).toBe(200);
  }
  const res = await timeoutPayment(key);
  expect(res.status).toBe(200);
  expect(timeoutRow).toContain(`the answer is \`${res.body.status}\` at once, with one attempt`);
  expect(res.body.attempts.map((a: { status: string }) => a.status)).toEqual([res.body.status]);
  expect(res.body.pending_operation).toBeNull();
});

test("README step 6's curl lines approve the sandbox's 3-D Secure page (they read the page's CSRF token first)", async () => {
  const lines = /\nJAR=\$\(mktemp\)[^\n]*\n(?:[^\n]*\n){2}/.exec(readme)?.[0];
  expect(lines).toContain('decision=approve');
  const res = await api.request('POST', '/payments', {
    body: {
      amount: 250000,
      currency: 'NGN',
      confirm: true,
      payment_method_data: { card: { card_number: '4000000000003220', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' } },
    },
  });
  expect(res.body.status).toBe('RequiresAction');
  const run = promisify(execFile);
  await run('bash', ['-euo', 'pipefail', '-c', lines as string], { env: { ...process.env, URL: res.body.next_action.redirect_to_url } });
  expect((await api.request('GET', `/payments/${res.body.payment_id}`)).body.status).toBe('Succeeded');
});
