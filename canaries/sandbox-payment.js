// CloudWatch Synthetics canary (syn-nodejs-puppeteer runtime, no browser used): creates a sandbox
// payment and confirms it with the sandbox's approving test card, every 5 minutes, on stages with
// the sandbox (lib/config/stage-config.ts `canaries.sandboxPayment`). The API key is read at run
// time from the Secrets Manager secret named by API_KEY_SECRET_ID (its SecretString: the key itself,
// or JSON {"api_key": "..."}); it is never in code. Runbook: docs/operations.md, "Sandbox payment
// canary failing". A thrown error marks the run failed (SuccessPercent < 100).
const synthetics = require('Synthetics');
const { SecretsManagerClient, GetSecretValueCommand } = require('@aws-sdk/client-secrets-manager');

const secrets = new SecretsManagerClient({});

async function apiKey() {
  const out = await secrets.send(new GetSecretValueCommand({ SecretId: process.env.API_KEY_SECRET_ID }));
  const raw = (out.SecretString ?? '').trim();
  const key = raw.startsWith('{') ? JSON.parse(raw).api_key : raw;
  if (!key) throw new Error(`secret ${process.env.API_KEY_SECRET_ID} holds no API key`);
  return key;
}

async function call(key, method, path, body) {
  const res = await fetch(`${process.env.API_URL}${path}`, {
    method,
    headers: { 'api-key': key, 'content-type': 'application/json', 'idempotency-key': `canary-${crypto.randomUUID()}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const answer = await res.json().catch(() => ({}));
  // Only the status and the error code are reported: never the key, never the card.
  if (res.status >= 300)
    throw new Error(`${method} ${path.replace(/pay_\w+/, '{payment_id}')} answered ${res.status} ${answer?.error?.code ?? ''}`);
  return answer;
}

exports.handler = async () => {
  const key = await apiKey();
  const payment = await synthetics.executeStep('create', () =>
    call(key, 'POST', '/payments', { amount: 100, currency: 'NGN', payment_method: 'card', description: 'synthetic check' }),
  );
  await synthetics.executeStep('confirm', async () => {
    const confirmed = await call(key, 'POST', `/payments/${payment.payment_id}/confirm`, {
      payment_method_data: { card: { card_number: '4242424242424242', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' } },
    });
    if (confirmed.status !== 'Succeeded') throw new Error(`confirmed payment is ${confirmed.status}, expected Succeeded`);
  });
};
