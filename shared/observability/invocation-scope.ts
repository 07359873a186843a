import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';

/**
 * The Lambda context of the invocation the current code runs for, where several handlers share one
 * process: the local stack (`npm start`, the tests' gateway) invokes the route handlers, the webhook
 * fan-out and delivery workers and the scheduled jobs in one Node process, interleaved, and they all log
 * through the one service logger (shared/observability/logger.ts). Powertools keeps one Lambda context
 * per logger (`addContext`, replaced by each invocation's `injectLambdaContext`), so without a scope a
 * line written after an `await` names whichever function started last. Each local invocation runs inside
 * {@link runInvocation}; the logger stamps every line with {@link currentInvocation}'s context. On Lambda
 * nothing runs inside a scope (one invocation at a time per process, its context set by the middleware),
 * and the logger behaves as Powertools does. Built on Node's AsyncLocalStorage, which follows a call
 * across awaits, timers and promise callbacks (the same mechanism Lambda's runtime uses to scope the
 * context of concurrent invocations: `@aws/lambda-invoke-store`).
 */
const scope = new AsyncLocalStorage<Context>();

/**
 * Runs one invocation of a handler with its Lambda context as the scope's: every log line written by
 * that invocation, after any number of awaits, names its function and request id.
 * @param context the invocation's Lambda context
 * @param invoke calls the handler, e.g. `() => handler(event, context)`
 * @returns what `invoke` returns
 */
export function runInvocation<T>(context: Context, invoke: () => T): T {
  return scope.run(context, invoke);
}

/** The context of the invocation the calling code runs for, or undefined outside {@link runInvocation} (always on Lambda). */
export function currentInvocation(): Context | undefined {
  return scope.getStore();
}
