import { Logger } from '@aws-lambda-powertools/logger';
import { redactEvent, redactingReplacer } from './redaction';
import { sourceMappedError } from './source-mapped-stack';

/**
 * The logger's JSON replacer: {@link redactingReplacer}, then errors get their stack mapped to the
 * TypeScript sources in Lambda ({@link sourceMappedError}; the functions run without
 * `--enable-source-maps`). Powertools then formats the error (name, location, message, stack, cause),
 * and the formatted strings pass this replacer again.
 * @returns the value to serialise in place of `value`
 */
export function loggerReplacer(key: string, value: unknown): unknown {
  const redacted = redactingReplacer(key, value);
  return redacted instanceof Error ? sourceMappedError(redacted) : redacted;
}

/**
 * Powertools Logger whose invocation-event logging (`POWERTOOLS_LOGGER_LOG_EVENT=true`, or
 * `injectLambdaContext(logger, { logEvent: true })`) logs the event redacted after parsing
 * ({@link redactEvent}): the body is decoded and parsed before anything is matched, so no
 * spelling of a key (JSON unicode escapes, percent-encoding, another case) and no query-parameter
 * or header name carries card data or a secret into a log line. Powertools' own implementation
 * logs the raw event, where only text patterns could be matched.
 */
export class RedactingLogger extends Logger {
  /**
   * Logs the invocation event, redacted, when event logging is on (same switch and message as
   * Powertools: `Lambda invocation event`, the event under `event`).
   * @param event the Lambda event as received
   * @param overwriteValue overrides `POWERTOOLS_LOGGER_LOG_EVENT` when a boolean
   */
  public override logEventIfEnabled(event: unknown, overwriteValue?: boolean): void {
    if (!this.shouldLogEvent(overwriteValue)) return;
    this.info('Lambda invocation event', { event: redactEvent(event) });
  }

  /** Child loggers (`createChild`) redact events the same way. */
  protected override createLogger(options?: ConstructorParameters<typeof Logger>[0]): Logger {
    return new RedactingLogger(options);
  }
}

/**
 * The service's structured JSON logger (Powertools for AWS Lambda). Level from
 * `POWERTOOLS_LOG_LEVEL` (tests set SILENT). Logged events are redacted after parsing
 * ({@link RedactingLogger}), and every record passes the redaction replacer, so card numbers,
 * CVCs and API keys never reach a log line, also when an error carries a body. Logged errors'
 * stacks point at the TypeScript sources in Lambda ({@link loggerReplacer}).
 */
export const logger = new RedactingLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'switchyard',
  jsonReplacerFn: loggerReplacer,
});
