/**
 * Stops the DynamoDB Local started by global-setup, then reports the contract coverage of the run
 * (test/helpers/contract-validator.ts `coverageReport`): the operations of docs/openapi.json no HTTP
 * test exercised, and those exercised without a success answer. A run of the whole HTTP suite
 * fails when an operation has no success answer exercised (the reasons: `CoverageReport`). Removes the
 * run's stage templates (test/infra/stage-template-cache.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { COVERAGE_DIR_ENV, coverageReport } from '../helpers/contract-validator';
import { STAGE_TEMPLATE_CACHE_DIR_ENV } from '../infra/stage-template-cache';

/**
 * jest's global teardown.
 * @throws Error when the whole HTTP suite ran and an operation had no success answer exercised
 */
export default async function globalTeardown(): Promise<void> {
  const dynamo = (globalThis as { __dynamo?: { pid?: number; stop(): Promise<void> } }).__dynamo;
  const javaCpu = dynamo?.pid ? processCpuSeconds(dynamo.pid) : undefined;
  await dynamo?.stop();
  if (javaCpu !== undefined) process.stdout.write(`\nDynamoDB Local (java) used ${javaCpu.toFixed(1)} CPU-seconds in this run.\n`);
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

/**
 * A process's user + system CPU time in seconds, from Linux's `/proc/<pid>/stat` (fields 14 and 15, in clock ticks
 * of 1/100 s: proc(5)); undefined elsewhere or once the process is gone. The run's CPU budget is measured, not guessed
 * (README, "Tests"), and the emulator is a process of its own that jest's timings do not show.
 */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
