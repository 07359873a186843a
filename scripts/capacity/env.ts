/**
 * Environment of the capacity model, set on import: scripts/capacity.ts imports this module first,
 * so Powertools Logger/Metrics/Tracer (configured when imported) and the handlers see it.
 * A scratch table of its own (`switchyard-capacity-<random>`), logs silent, metrics off, the
 * sandbox's own delayed webhooks off (the model delivers the connector webhook itself).
 * `DYNAMODB_ENDPOINT` is kept when set (an already running DynamoDB Local is reused).
 */
import { randomUUID } from 'node:crypto';

process.env.TABLE_NAME = `switchyard-capacity-${randomUUID().slice(0, 8)}`;
process.env.POWERTOOLS_LOG_LEVEL = process.env.CAPACITY_LOG_LEVEL || 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.POWERTOOLS_TRACE_ENABLED = 'false';
process.env.SANDBOX_WEBHOOKS = 'off';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ||= 'us-east-1';
// The first request's API key read is the one measured; later requests of the run hit the cache.
process.env.API_KEY_CACHE_SECONDS = '3600';
