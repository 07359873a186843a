import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { currentInvocation } from './invocation-scope';
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

  /**
   * The Lambda context last given to {@link addContext}. `declare`d: a field initialiser would run after
   * Powertools' constructor, which may already have logged, and reset it.
   */
  private declare lastContext: unknown;

  /**
   * Powertools' `addContext` (the invocation's function name, request id, ARN, memory and cold start
   * on every line), remembering which context it was.
   * @param context the invocation's Lambda context
   */
  public override addContext(context: Context): void {
    this.lastContext = context;
    super.addContext(context);
  }

  /**
   * Builds each line as Powertools does, after naming the invocation the line is written for: inside a
   * local invocation scope (several handlers interleaved in one process: shared/observability/invocation-scope.ts)
   * its own context, not the last one any handler set. On Lambda there is no scope and nothing changes.
   */
  protected override createAndPopulateLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): LogItem {
    const invocation = currentInvocation();
    if (invocation && invocation !== this.lastContext) this.addContext(invocation);
    return super.createAndPopulateLogItem(logLevel, input, extraInput);
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
