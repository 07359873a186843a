import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Powertools Tracer (AWS X-Ray). Active only inside Lambda; a no-op locally and in tests.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard' });
