import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The service's structured JSON logger (Powertools for AWS Lambda). Level from
 * `POWERTOOLS_LOG_LEVEL` (tests set SILENT). Request and response bodies are
 * never logged, so card data and keys cannot reach the logs through it.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard' });
