/**
 * Stops the DynamoDB Local started by global-setup, then reports the contract coverage of the run
 * (test/helpers/contract-validator.ts `coverageReport`): the operations of docs/openapi.json no HTTP
 * test exercised, and those exercised without a success answer. A run of the whole HTTP suite
 * fails when an operation has no success answer exercised (the reasons: `CoverageReport`). Removes the
 * run's stage templates (test/infra/stage-template-cache.ts).
 */
import { rmSync } from 'node:fs';
import { COVERAGE_DIR_ENV, coverageReport } from '../helpers/contract-validator';
import { STAGE_TEMPLATE_CACHE_DIR_ENV } from '../infra/stage-template-cache';

/**
 * jest's global teardown.
 * @throws Error when the whole HTTP suite ran and an operation had no success answer exercised
 */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: { stop(): Promise<void> } }).__dynamo?.stop();
  const templates = process.env[STAGE_TEMPLATE_CACHE_DIR_ENV];
  if (templates) rmSync(templates, { recursive: true, force: true });
  const dir = process.env[COVERAGE_DIR_ENV];
  if (!dir) return;
  try {
    const report = coverageReport(dir);
    if (report) process.stdout.write(`\n${report.text}\n`);
    if (report?.failure) throw new Error(report.failure);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
