/**
 * Starts one in-memory DynamoDB Local for the whole test run and publishes the table's
 * definition; each test file's jest environment creates a table of its own from it
 * (test/setup/file-table-environment.cjs). Workers inherit the endpoint through the
 * environment. Within its table, a test file works as its own merchants.
 * Raises the per-merchant rate limit defaults for the run (docs/rate-limits.md), and the DynamoDB client's
 * connect and request timeouts (a loaded machine must not turn a slow loopback connect into a failed request).
 * Also makes the directory where the HTTP suites record which (operation, status) pairs of
 * docs/openapi.json they exercised (test/helpers/contract-validator.ts), read by global-teardown.
 * Connector account credentials are encrypted under a fresh local key per run, never KMS
 * (shared/security/credential-encryption.ts): jest starts its workers after this returns and they
 * inherit process.env (as DYNAMODB_ENDPOINT reaches them); test/unit/credential-encryption.test.ts
 * checks the key arrives. And the directory where the infra suites share each stage's templates
 * (test/infra/stage-template-cache.ts), removed by global-teardown.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '@jest/types';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local';
import { KMS_KEY_ARN_VARIABLE, LOCAL_KEY_VARIABLE, newLocalWrappingKey } from '../../shared/security/credential-encryption';
import { createTableInput, TABLE_DEFINITION } from '../../shared/storage/table-definition';
import { COVERAGE_DIR_ENV } from '../helpers/contract-validator';
import { STAGE_TEMPLATE_CACHE_DIR_ENV } from '../infra/stage-template-cache';
import { TABLE_DEFINITION_ENV } from './file-table-environment.cjs';
import { warmTransformCache } from './transform-cache-warmup';

/** jest's global setup: DynamoDB Local, the table, the contract coverage directory, the credentials key. */
export default async function globalSetup(_globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // CRITICAL: only an unhandled error (an API's 500: shared/http/error-mapper.ts) is printed, so a 500 shows its cause.
  process.env.POWERTOOLS_LOG_LEVEL = process.env.POWERTOOLS_LOG_LEVEL || 'CRITICAL';
  process.env.TABLE_NAME = 'switchyard-test';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  // The suites' merchants burst far above the per-merchant defaults (200 reads, 100 writes a second):
  // the stage defaults are raised for the run; test/http/rate-limits.test.ts sets limits per merchant.
  process.env.RATE_LIMIT_READ_PER_SECOND ||= '100000';
  process.env.RATE_LIMIT_WRITE_PER_SECOND ||= '100000';
  // A lease slower than RATE_LIMIT_LEASE_TIMEOUT_MS (1,000 ms in a stage) admits the request (fail open); on a starved
  // worker a lease to DynamoDB Local can take that long, and the page limits' tests then saw every page served.
  // Outages still fail open at once: tests inject them as errors (test/helpers/fault-harness.ts), not as waits.
  process.env.RATE_LIMIT_LEASE_TIMEOUT_MS ||= '15000';
  // The delivery worker's endpoint cache (1 s by default) is off for the suites that change an
  // endpoint and expect the next event to see it at once; test/http/fan-out-endpoint-cache.test.ts
  // turns it on and tests it.
  process.env.WEBHOOK_ENDPOINT_CACHE_MS ||= '0';
  // DynamoDB Local is on loopback, but a worker's event loop starved by the other workers can see a connect that
  // succeeded only after the client's 1,000 ms connect timer: the request then fails though nothing was wrong.
  // The run gives the client generous timeouts (shared/storage/client.ts `storageTimeouts`); deployed stages keep theirs.
  process.env.DYNAMODB_CONNECTION_TIMEOUT_MS ||= '15000';
  process.env.DYNAMODB_REQUEST_TIMEOUT_MS ||= '60000';
  process.env[COVERAGE_DIR_ENV] = mkdtempSync(join(tmpdir(), 'switchyard-contract-'));
  // Each stage's default templates, synthesized once per run and shared by the infra suites (test/infra/stage-template-cache.ts).
  process.env[STAGE_TEMPLATE_CACHE_DIR_ENV] = mkdtempSync(join(tmpdir(), 'switchyard-stage-templates-'));
  // The JVM's start is mostly waiting: jest's transform cache is filled meanwhile (test/setup/transform-cache-warmup.ts).
  const [dynamo] = await Promise.all([startDynamoDbLocal({ inMemory: true }), warmTransformCache(projectConfig)]);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  delete process.env[KMS_KEY_ARN_VARIABLE];
  process.env[LOCAL_KEY_VARIABLE] = newLocalWrappingKey();
  // Each test file gets a table of its own, created by its jest environment (test/setup/file-table-environment.cjs)
  // from this definition; TABLE_NAME above is only the fallback of code that runs outside a test file.
  process.env[TABLE_DEFINITION_ENV] = JSON.stringify({ create: createTableInput(''), ttlAttribute: TABLE_DEFINITION.timeToLiveAttribute });
  (globalThis as { __dynamo?: { stop(): Promise<void> } }).__dynamo = dynamo;
}
