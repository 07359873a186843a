// CloudWatch Synthetics canary (syn-nodejs-puppeteer runtime, no browser used): GET <API_URL>/health
// must answer 200 with a JSON body. Deployed inline by lib/monitoring/canaries.ts; runbook: docs/operations.md,
// "Health canary failing". A thrown error marks the run failed (SuccessPercent < 100).
const synthetics = require('Synthetics');

exports.handler = async () => {
  await synthetics.executeStep('health', async () => {
    const res = await fetch(`${process.env.API_URL}/health`, { signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) throw new Error(`GET /health answered ${res.status}`);
    await res.json();
  });
};
