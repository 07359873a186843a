/**
 * The floor of ./library-floor.ts plus Powertools Tracer (and through it the X-Ray SDK), as
 * every handler of the stack loads it (shared/observability/tracer.ts).
 */
import { Tracer } from '@aws-lambda-powertools/tracer';

export { handler } from './library-floor';

/** The tracer, exported so the bundler keeps it. */
export const tracer = new Tracer({ serviceName: 'floor' });
