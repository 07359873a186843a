import { Logger } from '@aws-lambda-powertools/logger';
import { redactingReplacer } from './redaction';

/**
 * The service's structured JSON logger (Powertools for AWS Lambda). Level from
 * `POWERTOOLS_LOG_LEVEL` (tests set SILENT). Every record passes the redaction
 * replacer, so card numbers, CVCs and API keys never reach a log line, even when
 * events are logged (`POWERTOOLS_LOGGER_LOG_EVENT=true`) or an error carries a body.
 */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard',
  jsonReplacerFn: redactingReplacer,
});
