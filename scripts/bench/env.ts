import { randomBytes } from 'node:crypto';

/**
 * Environment of the benchmark, set on import: scripts/bench.ts imports this
 * module first, so every later module (Powertools Logger/Metrics/Tracer read
 * their settings when constructed at import) and the gateway child process see it.
 * `DYNAMODB_ENDPOINT` is cleared here and set once the benchmark's own DynamoDB
 * Local is up, before any DynamoDB client is created.
 */
process.env.TABLE_NAME = process.env.BENCH_TABLE_NAME || 'switchyard-bench';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ||= 'us-east-1';
delete process.env.DYNAMODB_ENDPOINT;
// Connector account credentials (the active-algorithm round-trip count connects sandbox accounts) are
// encrypted under a fresh local key per run, never KMS (shared/security/credential-encryption.ts).
delete process.env.CONNECTOR_ACCOUNTS_KMS_KEY_ARN;
process.env.CONNECTOR_ACCOUNTS_LOCAL_KEY ||= randomBytes(32).toString('base64');
