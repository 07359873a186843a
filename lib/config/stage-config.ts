import type { RoutingRule } from '../../shared/routing/routing-rules';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../../shared/webhooks/delivery-settings';

/**
 * Per-stage settings, read once at the top of the CDK app (bin/switchyard.ts)
 * and passed down. Plain data, so tests can read it too.
 */

/** Everything that differs between stages. */
export interface StageConfig {
  /** Stage name, part of every stack and resource name. */
  stage: string;
  /** Lambda memory in MB (CPU scales with it). */
  lambdaMemoryMb: number;
  /**
   * Lambda timeout in seconds (29: API Gateway HTTP APIs wait at most 30 s). Processor calls of
   * a request are raced against its own budget (30 s less 3 s, shared/operations/request-context.ts),
   * so a processor slower than that leaves an unknown outcome for the reconciler instead of a
   * cut connection; claims' 60 s lease outlasts this timeout.
   */
  lambdaTimeoutSeconds: number;
  /** Retention of function and access logs, in days (a value CloudWatch Logs accepts). */
  logRetentionDays: 7 | 14 | 30 | 90 | 365;
  /** API Gateway stage throttling: steady requests/second and burst. */
  throttle: { rateLimit: number; burstLimit: number };
  /** Alarm thresholds. */
  alarms: {
    /** 5xx responses as a fraction of requests (0.01 = 1 %). */
    api5xxRate: number;
    /** p99 API latency in milliseconds. */
    apiLatencyP99Ms: number;
    /** Lambda errors per function per 5 minutes. */
    lambdaErrors: number;
    /** Lambda throttles per function per 5 minutes. */
    lambdaThrottles: number;
    /** DynamoDB throttled requests per 5 minutes. */
    dynamoThrottles: number;
    /**
     * Bound, in seconds, on how long any operation (payment, refund, customer delete) may stay
     * open: the alarm fires when the reconciler's `OldestOpenOperationAgeSeconds` (Maximum, per
     * `kind`) exceeds it on one 5-minute datapoint. Default 1800 (30 minutes).
     */
    openOperationMaxAgeSeconds: number;
    /**
     * Bound, in seconds, on how long an event may wait for its webhook deliveries: the alarm
     * `…-Webhooks-OldestUndeliveredEventAge-Critical` fires when `OldestUndeliveredEventAgeSeconds`
     * (Maximum, series with only the `service` dimension) exceeds it on one 5-minute datapoint.
     * Default 3600 (1 hour).
     */
    undeliveredEventMaxAgeSeconds: number;
  };
  /**
   * Background reconciler (functions/reconciler/reconcile.ts, run every minute by EventBridge
   * Scheduler): operations younger than this many seconds are left to the request that opened
   * them. Passed to the function as `RECONCILE_MIN_AGE_SECONDS`. Default 60.
   */
  reconcileMinAgeSeconds: number;
  /**
   * Timeout of the reconciler function in seconds: its own budget, longer than
   * `lambdaTimeoutSeconds` because it calls processors one open operation after another and is
   * not behind API Gateway's 30 s limit. 300 (5 minutes).
   */
  reconcilerTimeoutSeconds: number;
  /**
   * Webhook retry schedule: the delays, in seconds, before each retry of a failed delivery (the
   * first attempt is immediate, from the table's stream); after the last one the delivery is
   * marked failed. Passed, comma-separated, as `WEBHOOK_RETRY_SCHEDULE_SECONDS` to the
   * `WebhookDelivery` function and to the reconciler (which sends the retries that fall due).
   * Default `[5, 300, 1800, 7200, 18000, 36000, 36000, 36000]`: 5 s, 5 min, 30 min, 2 h, 5 h,
   * then 10 h three times (about 37.6 hours in all).
   */
  webhookRetryScheduleSeconds: number[];
  /** RETAIN keeps the table when the stack is deleted; DESTROY removes it. */
  tableRemoval: 'RETAIN' | 'DESTROY';
  /** Whether DynamoDB deletion protection is on. */
  tableDeletionProtection: boolean;
  /** Prefix of API keys issued for this stage. */
  apiKeyPrefix: 'sk_test_' | 'sk_live_';
  /**
   * Routing rules (shared/routing/routing-rules.ts): per (currency, payment method) an
   * ordered list of connectors; the first rule that matches applies. Passed to the
   * functions as `ROUTING_RULES`.
   */
  routingRules: RoutingRule[];
}

/**
 * The production routing: NGN and GHS to Paystack (Flutterwave as fallback), KES
 * mobile money to Flutterwave then Paystack, USD cards to Stripe then Paystack,
 * ZAR and KES cards to Paystack then Stripe; anything else to Paystack.
 */
export const PRODUCTION_ROUTING_RULES: RoutingRule[] = [
  { currency: 'NGN', connectors: ['paystack', 'flutterwave'] },
  { currency: 'GHS', connectors: ['paystack', 'flutterwave'] },
  { currency: 'KES', payment_method: 'mobile_money', connectors: ['flutterwave', 'paystack'] },
  { currency: 'USD', payment_method: 'card', connectors: ['stripe', 'paystack'] },
  { currency: 'ZAR', payment_method: 'card', connectors: ['paystack', 'stripe'] },
  { currency: 'KES', payment_method: 'card', connectors: ['paystack', 'stripe'] },
  { connectors: ['paystack', 'flutterwave'] },
];

/**
 * The default webhook retry schedule ({@link StageConfig.webhookRetryScheduleSeconds}): the one
 * the delivery code uses (shared/webhooks/delivery-settings.ts), about 3 days.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS: readonly number[] = DEFAULT_RETRY_SCHEDULE_SECONDS;

/**
 * A delivery still open this long after its event outlived its whole retry schedule (plus an
 * hour): the delivery machinery, not a merchant's endpoint, is stuck.
 */
const UNDELIVERED_ALARM_SECONDS = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) + 3600;

/** The known stages. Add one here to deploy it with `-c stage=<name>`. */
export const STAGES: Readonly<Record<string, StageConfig>> = {
  dev: {
    stage: 'dev',
    lambdaMemoryMb: 512,
    lambdaTimeoutSeconds: 29,
    logRetentionDays: 14,
    throttle: { rateLimit: 50, burstLimit: 100 },
    alarms: {
      api5xxRate: 0.05,
      apiLatencyP99Ms: 3000,
      lambdaErrors: 10,
      lambdaThrottles: 5,
      dynamoThrottles: 10,
      openOperationMaxAgeSeconds: 1800,
      undeliveredEventMaxAgeSeconds: UNDELIVERED_ALARM_SECONDS,
    },
    reconcileMinAgeSeconds: 60,
    reconcilerTimeoutSeconds: 300,
    webhookRetryScheduleSeconds: [...DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS],
    tableRemoval: 'DESTROY',
    tableDeletionProtection: false,
    apiKeyPrefix: 'sk_test_',
    // dev runs on the sandbox; copy prod's rules here to try the processors' test modes.
    routingRules: [{ connectors: ['sandbox'] }],
  },
  prod: {
    stage: 'prod',
    lambdaMemoryMb: 1024,
    lambdaTimeoutSeconds: 29,
    logRetentionDays: 365,
    throttle: { rateLimit: 500, burstLimit: 1000 },
    alarms: {
      api5xxRate: 0.01,
      apiLatencyP99Ms: 1500,
      lambdaErrors: 1,
      lambdaThrottles: 1,
      dynamoThrottles: 1,
      openOperationMaxAgeSeconds: 1800,
      undeliveredEventMaxAgeSeconds: UNDELIVERED_ALARM_SECONDS,
    },
    reconcileMinAgeSeconds: 60,
    reconcilerTimeoutSeconds: 300,
    webhookRetryScheduleSeconds: [...DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS],
    tableRemoval: 'RETAIN',
    tableDeletionProtection: true,
    apiKeyPrefix: 'sk_live_',
    routingRules: PRODUCTION_ROUTING_RULES,
  },
};

/**
 * The config of a stage.
 * @throws Error naming the known stages when `stage` is not one of them
 */
export function stageConfig(stage: string): StageConfig {
  const config = STAGES[stage];
  if (!config)
    throw new Error(`Unknown stage '${stage}'. Known stages: ${Object.keys(STAGES).join(', ')} (see lib/config/stage-config.ts).`);
  return config;
}

/** Stack names: `Switchyard-<stage>-Data` (stateful) and `Switchyard-<stage>-Api` (stateless). */
export const stackNames = (stage: string) => ({ data: `Switchyard-${stage}-Data`, api: `Switchyard-${stage}-Api` });
