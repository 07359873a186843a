import type { RoutingRule } from '../../shared/operations/routing/routing-rules';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../../shared/webhooks/delivery-settings';

/**
 * Per-stage settings, read once at the top of the CDK app (bin/switchyard.ts)
 * and passed down. Plain data, so tests can read it too.
 */

/** Everything that differs between stages. */
export interface StageConfig {
  /** Stage name, part of every stack and resource name. */
  stage: string;
  /** Lambda memory in MB (CPU scales with it) of every function not named in {@link functionMemoryMb}. */
  lambdaMemoryMb: number;
  /**
   * Memory in MB of the functions whose size was chosen from measurement (docs/capacity.md, "Lambda memory
   * and cost", the model of `scripts/capacity/lambda-memory.ts`), by function name; the others get
   * {@link lambdaMemoryMb}. Valid sizes: 128–10,240 MB (AWS Lambda quotas).
   */
  functionMemoryMb?: Readonly<Record<string, number>>;
  /**
   * Lambda timeout in seconds (29: API Gateway HTTP APIs wait at most 30 s). Processor calls of
   * a request are raced against its own budget (30 s less 3 s, shared/operations/request-context.ts),
   * so a processor slower than that leaves an unknown outcome for the reconciler instead of a
   * cut connection; a claim's lease ends 3 s after the request that holds it (docs/money-safety.md, "Convergence").
   */
  lambdaTimeoutSeconds: number;
  /** Retention of function and access logs, in days (a value CloudWatch Logs accepts). */
  logRetentionDays: 7 | 14 | 30 | 90 | 365;
  /**
   * API Gateway stage throttling (the `$default` stage's default route settings): steady
   * requests/second and burst, for the whole API. Per-merchant limits are a separate layer:
   * docs/rate-limits.md. A stage limit above the account's regional quota is capped by that quota
   * (see {@link PROD_THROTTLE}).
   */
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * Partitions of the open-operations index (GSI5), passed to every function as `OPEN_INDEX_SHARDS`
   * (shared/storage/item-keys.ts). Sized by `npm run capacity` (docs/capacity.md: 26 at 2,000
   * payments/s, 129 at 10,000/s keep each partition at or under 50 %). Only ever raise it.
   */
  openIndexShards: number;
  /**
   * Whether the sandbox connector exists on this stage. `false` (prod): the sandbox's hosted-page
   * routes (`/sandbox/…`) and their functions are not deployed, and every function that calls
   * connectors gets `SANDBOX_CONNECTOR_ENABLED=false`, so shared/processor-call/connector-registry.ts treats `sandbox` as not
   * configured (routing answers `no_connector_available`, as for any connector without keys).
   * The routing rules of such a stage must not name `sandbox` (checked by {@link stageConfig}).
   */
  sandbox: boolean;
  /**
   * CloudWatch Synthetics canaries (lib/monitoring/canaries.ts; runbook docs/operations.md). The `/health`
   * canary runs on every stage; `sandboxPayment` adds one that creates and confirms a sandbox
   * payment every 5 minutes, with the API key an operator stores in the Secrets Manager secret
   * `switchyard-<stage>/canary-api-key` (only on stages with `sandbox: true`).
   */
  canaries: { sandboxPayment: boolean };
  /**
   * Where the stage's alarms go: e-mail addresses and/or an AWS Chatbot Slack channel, each
   * subscribed to the stage's alarm topic (`AlarmTopic`, lib/monitoring/alarm-notifications.ts). Not written here: the
   * stages below leave it empty and the app fills it at synth from CDK context or the environment
   * ({@link withAlarmDestinations}, keys in {@link ALARM_DESTINATION_KEYS}), e.g.
   * `npx cdk deploy --all -c stage=prod -c alarmEmail=oncall@example.com`.
   */
  alarmDestinations: AlarmDestinations;
  /**
   * Whether synthesis refuses this stage without an alarm destination: `true` on prod (nobody would be
   * woken), `false` on dev (its alarms then only change state in the CloudWatch console; pass a
   * destination to be told).
   */
  alarmDestinationRequired: boolean;
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
     * Both stages: the whole retry schedule plus 1 hour (`UNDELIVERED_ALARM_SECONDS`): the age counts
     * from a delivery's first failure, and a merchant endpoint that is down legitimately keeps its
     * deliveries open for the whole schedule; an hour past it, our retry machinery is stuck.
     */
    undeliveredEventMaxAgeSeconds: number;
    /**
     * Bound, in seconds, on how long a due webhook delivery may wait for its attempt: the alarm
     * `…-Webhooks-OldestOverdueWebhookDelivery-Critical` fires when the reconciler's
     * `OldestOverdueWebhookDeliverySeconds` (Maximum) exceeds it on one 5-minute datapoint. 3600 (the
     * alarm's definition, "undelivered webhooks older than 1 hour", measured from when the delivery was due, so a
     * merchant's failing endpoint — retried on schedule — never trips it; a retry not sent within the
     * hour it fell due means our delivery machinery is stuck or behind).
     */
    overdueWebhookDeliverySeconds: number;
    /**
     * Business alarm (docs/operations.md, "Connector success rate below its usual level"): width,
     * in standard deviations, of the CloudWatch anomaly detection band around each connector's
     * authorization success rate (`Authorizations` succeeded / all outcomes, 5-minute periods); the
     * alarm fires when the rate falls below the band on 3 of 3 periods. Source: CloudWatch's
     * default band is 2 standard deviations ("Using CloudWatch anomaly detection"); a ratio of a
     * few hundred attempts per period is noisier than a raw count, so 3 in prod (fewer false
     * alarms on normal decline swings) and 4 on dev (sparse sandbox traffic).
     */
    authorizationSuccessBandStdDevs: number;
    /**
     * Volume guard of the rate alarms (success rate, technical error rate): a connector's rate is
     * only computed, hence only alarmed on, in 5-minute periods with at least this many
     * authorizations (resp. processor calls). Source: below about 20 attempts one decline moves
     * the rate by 5 points or more, which is noise, not an incident; dev's canary makes 1 per
     * period, so dev uses 1 (every period with traffic counts).
     */
    minRateVolumePerPeriod: number;
    /**
     * Business alarm (docs/operations.md, "Connector technical error rate high"): the fraction of a
     * connector's processor calls that ended in a technical error (`ConnectorCalls`
     * outcome=technical_error / all outcomes, 5-minute periods) above which it fires, on 2 of 3
     * periods. Source: a confirm whose processor fails technically falls back to the next connector
     * of its rule once, and other operations are settled later by the reconciler (docs/connectors.md), so isolated errors cost nothing; 5 % (1 call in 20) in
     * prod is where fallbacks start carrying real traffic and the processor's status page usually
     * shows an incident. Dev: 20 % (the sandbox never fails technically; only a broken deploy would).
     */
    connectorTechnicalErrorRate: number;
    /**
     * Business alarm (docs/operations.md, "Refunds failing at the processor"): refunds a connector
     * reported failed (`RefundOutcomes` outcome=failed, Sum over 5 minutes) at or above which it
     * fires. Source: a processor refuses single refunds for ordinary reasons (card closed,
     * balance insufficient), which the merchant sees on the refund; 3 in 5 minutes for one
     * connector is a pattern (an account or balance problem at the processor) in prod; 5 on dev.
     */
    refundFailuresPerPeriod: number;
    /**
     * Business alarm (docs/operations.md, "Payouts failing or reversed"): payouts of one connector account (or one
     * connector on the stage's own account) that failed or came back reversed (`PayoutOutcomes` outcome=failed or
     * reversed, Sum over 5 minutes) at or above which `…-Payouts-FailedOrReversed-{Accounts,Platform}-Critical` fires,
     * on 2 of 3 periods. Source: single payouts fail for ordinary reasons the merchant sees on the payout (a closed
     * account, a wrong bank code); 3 in 5 minutes from one account is a pattern (its balance, its OTP, a bank down)
     * in prod; 5 on dev, where the sandbox's test accounts fail on purpose.
     */
    payoutFailuresPerPeriod: number;
    /**
     * Business alarm (runbook docs/operations.md, "Connector technical error rate high"): technical
     * errors of one merchant connector account (`ConnectorCalls` outcome=technical_error, Sum over 5
     * minutes, per `merchant_connector_id`) at or above which the multi-time-series alarm
     * `…-ConnectorAccounts-TechnicalErrors-Critical` fires for that account, on 2 of 3 periods. A count,
     * not a rate (lib/monitoring/connector-accounts-section.ts, `connectorAccountTechnicalErrorsQuery`). Source: a confirm
     * whose processor call fails technically falls back once, and a single timeout costs nothing
     * (see `connectorTechnicalErrorRate`); 5 in 5 minutes, twice in a quarter hour, is the platform bound
     * (5 %) reached by an account doing 100 calls per period, and a failure pattern for a smaller one.
     */
    connectorAccountTechnicalErrors: number;
    /**
     * Business alarm (runbook docs/operations.md, "Authorization rate of a connector account low"): approvals one
     * merchant connector account lacked to reach `ACCOUNT_AUTHORIZATION_RATE_FLOOR` (50 %) in 5 minutes
     * (`AccountAuthorizationShortfall` Sum = answers × (0.5 − rate), per `merchant_connector_id`) at or above which
     * `…-ConnectorAccounts-AuthorizationRate-Critical` fires for that account, on 2 of 3 periods
     * (lib/monitoring/account-authorization-section.ts). Source: 5 needs at least 10 issuer answers in the period (all
     * declined), or 50 at 40 %, so a small merchant's few ordinary declines never fire it, while an account that
     * stopped approving is caught within 10–15 minutes at 2 payments a minute.
     */
    accountAuthorizationShortfall: number;
    /**
     * Per-merchant alarm (runbook docs/operations.md, "A merchant's webhook endpoints are
     * failing"): failed webhook attempts of the single merchant with the most of them in 5 minutes
     * (Contributor Insights rule over the delivery worker's log lines, `MaxContributorValue`: one
     * alarm, no metric per merchant) at or above which `…-Webhooks-MerchantFailures-Warning` fires,
     * on 3 of 3 periods. 100: one merchant's endpoint failing every attempt of a steady stream of
     * events (the retry schedule alone makes a few failed attempts per event), for a quarter hour.
     */
    merchantWebhookFailures: number;
    /**
     * Disputes alarm (runbook docs/operations.md, "Disputes of a connector account"): disputes opened on the single connector account with the most of
     * them in an hour (Contributor Insights over the dispute log lines, `MaxContributorValue`) at or above which
     * `…-Disputes-AccountOpened-Warning` fires. 5: more than a merchant's normal chargeback rate at any volume these
     * stages carry; the card schemes' monitoring programmes start at about 1 % of transactions.
     */
    accountDisputesOpened: number;
  };
  /**
   * Webhook delivery worker ("Delivery isolation", docs/api.md; shared/webhooks/delivery-queue.ts):
   * - `maxConcurrency`: the SQS event source mapping's maximum concurrency (2–1000, Lambda developer
   *   guide, "Configuring maximum concurrency for Amazon SQS event sources"): batches (≤ 10 POSTs) in
   *   flight at once over all merchants — the worker's width.
   * - `lanes`: message groups per merchant for its deliveries to quick endpoints
   *   (`WEBHOOK_DELIVERY_LANES`): at most `lanes × 10` POSTs of one merchant at a time across all its
   *   endpoints, which is also a merchant's peak rate (`lanes × 10 / latency`).
   * - `slowLanes`: message groups per merchant for its slow endpoints (`WEBHOOK_SLOW_DELIVERY_LANES`);
   *   a slow endpoint holds one of them.
   * One merchant holds at most `2 + lanes + slowLanes` batches (its 2 fan-out lanes included), so the
   * worker stays free for others while fewer than `maxConcurrency / (lanes + slowLanes)` merchants
   * have slow or hanging endpoints at once.
   */
  webhookDelivery: { maxConcurrency: number; lanes: number; slowLanes: number };
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
   * Subscriptions' dunning (shared/domain/dunning.ts): `retryDays`, the days after a renewal's first
   * try when it is tried again (ascending, each 1–60; default 1, 3, 7: 4 tries over 7 days), and `dunningFinal`,
   * what the subscription becomes when they are exhausted (`canceled`, Stripe's default, or `unpaid`). Passed to
   * the renewal worker as `BILLING_RETRY_DAYS` and `BILLING_DUNNING_FINAL`.
   */
  billing: { retryDays: readonly number[]; dunningFinal: 'canceled' | 'unpaid' };
  /**
   * Webhook retry schedule: the delays, in seconds, before each retry of a failed delivery (the
   * first attempt is immediate, through the delivery queue); after the last one the delivery is
   * marked failed. Passed, comma-separated, as `WEBHOOK_RETRY_SCHEDULE_SECONDS` to the
   * `WebhookDeliveryWorker` function and to the reconciler (which hands the retries that fall due to the queue).
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
   * Routing rules (shared/operations/routing/routing-rules.ts): per (currency, payment method) an
   * ordered list of connectors; the first rule that matches applies. Passed to the
   * functions as `ROUTING_RULES`.
   */
  routingRules: RoutingRule[];
}

/** Where a stage's alarms go ({@link StageConfig.alarmDestinations}). */
export interface AlarmDestinations {
  /** E-mail addresses subscribed to the alarm topic (each recipient confirms the subscription once, from SNS's e-mail). */
  emails: string[];
  /**
   * An AWS Chatbot (Amazon Q Developer in chat applications) Slack channel: the workspace must first be
   * authorized in the Chatbot console, which shows its id; the channel id ends the channel's link.
   */
  slack?: { workspaceId: string; channelId: string };
}

/**
 * CDK context keys (`-c key=value`, or `context` in cdk.json) and, when a key is absent from the
 * context, the environment variables read for {@link StageConfig.alarmDestinations}. `alarmEmail`
 * takes one address or several, comma-separated; the Slack channel needs both of its ids.
 */
export const ALARM_DESTINATION_KEYS = {
  email: { context: 'alarmEmail', env: 'SWITCHYARD_ALARM_EMAIL' },
  slackWorkspaceId: { context: 'slackWorkspaceId', env: 'SWITCHYARD_SLACK_WORKSPACE_ID' },
  slackChannelId: { context: 'slackChannelId', env: 'SWITCHYARD_SLACK_CHANNEL_ID' },
} as const;

/** No alarm destination: what the stages declare before {@link withAlarmDestinations} fills them in. */
const NO_ALARM_DESTINATIONS: AlarmDestinations = { emails: [] };

/** Loose e-mail shape: one `@`, no spaces or commas, a dot in the domain (SNS checks the rest by mailing it). */
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/**
 * The stage's config with its alarm destinations read from CDK context or the environment
 * ({@link ALARM_DESTINATION_KEYS}; context wins), added to any the stage declares.
 * @param readContext the app's context lookup (`app.node.tryGetContext`)
 * @param env the environment (default `process.env`)
 * @throws Error when an e-mail address is malformed, when only one of the Slack ids is given, or when
 *   the stage requires a destination ({@link StageConfig.alarmDestinationRequired}, prod) and has none;
 *   the message names the context keys
 */
export function withAlarmDestinations(
  config: StageConfig,
  readContext: (key: string) => unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): StageConfig {
  const read = (key: { context: string; env: string }): string[] => {
    const value = readContext(key.context) ?? env[key.env];
    const values = Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : String(value).split(',');
    return values.map((v) => v.trim()).filter((v) => v !== '');
  };
  const emails = [...new Set([...config.alarmDestinations.emails, ...read(ALARM_DESTINATION_KEYS.email)])];
  const bad = emails.filter((e) => !EMAIL.test(e));
  if (bad.length > 0) throw new Error(`Stage '${config.stage}': '${bad.join("', '")}' is not an e-mail address (context key alarmEmail).`);
  const [workspaceId] = read(ALARM_DESTINATION_KEYS.slackWorkspaceId);
  const [channelId] = read(ALARM_DESTINATION_KEYS.slackChannelId);
  if ((workspaceId === undefined) !== (channelId === undefined))
    throw new Error(`Stage '${config.stage}': an alarm Slack channel needs both -c slackWorkspaceId=… and -c slackChannelId=….`);
  for (const [key, id] of [
    ['slackWorkspaceId', workspaceId],
    ['slackChannelId', channelId],
  ] as const)
    if (id !== undefined && !/^[A-Za-z0-9]+$/.test(id)) throw new Error(`Stage '${config.stage}': ${key} '${id}' is not a Slack id.`);
  const slack = workspaceId && channelId ? { workspaceId, channelId } : config.alarmDestinations.slack;
  const alarmDestinations: AlarmDestinations = slack ? { emails, slack } : { emails };
  if (config.alarmDestinationRequired && emails.length === 0 && !slack)
    throw new Error(
      `Stage '${config.stage}' needs at least one alarm destination, or its alarms wake nobody: pass ` +
        `-c alarmEmail=<address>[,<address>…] and/or -c slackWorkspaceId=<id> -c slackChannelId=<id> ` +
        `(or the environment variables ${Object.values(ALARM_DESTINATION_KEYS)
          .map((k) => k.env)
          .join(', ')}); see docs/deploy.md.`,
    );
  return { ...config, alarmDestinations };
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

/**
 * Prod's API Gateway stage throttle, sized from docs/capacity.md's model: 10,000 payments/s across
 * merchants, each payment at least 2 requests (create and confirm; a retrieve or refund adds
 * more), so about 20,000 requests/s steady, rounded up to 25,000 with a 5,000 burst. The account
 * quota is lower by default: "Throttle quota per account, per Region across HTTP APIs, REST APIs,
 * WebSocket APIs, and WebSocket callback APIs: 10,000 requests per second (RPS) with an
 * additional burst capacity … maximum bucket capacity of 5,000 requests", raised through Service
 * Quotas (quota code L-8A5B8E43); 2,500/1,250 in some Regions (Amazon API Gateway developer guide,
 * "Amazon API Gateway quotas", https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html).
 * Until that quota is raised, the account quota, not this setting, is the ceiling. Per-merchant
 * limits: docs/rate-limits.md.
 */
export const PROD_THROTTLE = { rateLimit: 25_000, burstLimit: 5_000 } as const;

/** The known stages. Add one here to deploy it with `-c stage=<name>`. */
export const STAGES: Readonly<Record<string, StageConfig>> = {
  dev: {
    stage: 'dev',
    // dev synthesizes without a destination (its alarms then only show in the console); pass one to be told.
    alarmDestinations: NO_ALARM_DESTINATIONS,
    alarmDestinationRequired: false,
    lambdaMemoryMb: 512,
    lambdaTimeoutSeconds: 29,
    logRetentionDays: 14,
    throttle: { rateLimit: 50, burstLimit: 100 },
    openIndexShards: 16,
    sandbox: true,
    canaries: { sandboxPayment: true },
    alarms: {
      api5xxRate: 0.05,
      apiLatencyP99Ms: 3000,
      lambdaErrors: 10,
      lambdaThrottles: 5,
      dynamoThrottles: 10,
      openOperationMaxAgeSeconds: 1800,
      undeliveredEventMaxAgeSeconds: UNDELIVERED_ALARM_SECONDS,
      overdueWebhookDeliverySeconds: 3600,
      authorizationSuccessBandStdDevs: 4,
      minRateVolumePerPeriod: 1,
      connectorTechnicalErrorRate: 0.2,
      refundFailuresPerPeriod: 5,
      payoutFailuresPerPeriod: 5,
      connectorAccountTechnicalErrors: 5,
      accountAuthorizationShortfall: 5,
      merchantWebhookFailures: 100,
      accountDisputesOpened: 5,
    },
    // A merchant holds at most 3 + 1 delivery batches of 20: five merchants with hanging endpoints at once leave a fifth free.
    webhookDelivery: { maxConcurrency: 20, lanes: 3, slowLanes: 1 },
    reconcileMinAgeSeconds: 60,
    reconcilerTimeoutSeconds: 300,
    billing: { retryDays: [1, 3, 7], dunningFinal: 'canceled' },
    webhookRetryScheduleSeconds: [...DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS],
    tableRemoval: 'DESTROY',
    tableDeletionProtection: false,
    apiKeyPrefix: 'sk_test_',
    // dev runs on the sandbox; copy prod's rules here to try the processors' test modes.
    routingRules: [{ connectors: ['sandbox'] }],
  },
  prod: {
    stage: 'prod',
    // prod refuses to synthesize without one: -c alarmEmail=… and/or -c slackWorkspaceId=… -c slackChannelId=….
    alarmDestinations: NO_ALARM_DESTINATIONS,
    alarmDestinationRequired: true,
    lambdaMemoryMb: 1024,
    // Chosen by the memory model (docs/capacity.md): mostly CPU, these stay within 1.5× of their one-vCPU duration only
    // at 1,536–1,769 MB, for about the same price per invocation. ConfirmPayment and RefundPayment (half their time
    // waiting on DynamoDB) keep 1,024 MB.
    functionMemoryMb: { CreatePayment: 1769, GetPayment: 1536, ListPayments: 1536 },
    lambdaTimeoutSeconds: 29,
    logRetentionDays: 365,
    throttle: { ...PROD_THROTTLE },
    // 10,000 payments/s across merchants needs ≥ 129 (docs/capacity.md); 160 leaves room (39 %).
    openIndexShards: 160,
    sandbox: false,
    canaries: { sandboxPayment: false },
    alarms: {
      api5xxRate: 0.01,
      apiLatencyP99Ms: 1500,
      lambdaErrors: 1,
      lambdaThrottles: 1,
      dynamoThrottles: 1,
      openOperationMaxAgeSeconds: 1800,
      undeliveredEventMaxAgeSeconds: UNDELIVERED_ALARM_SECONDS,
      overdueWebhookDeliverySeconds: 3600,
      authorizationSuccessBandStdDevs: 3,
      minRateVolumePerPeriod: 20,
      connectorTechnicalErrorRate: 0.05,
      refundFailuresPerPeriod: 3,
      payoutFailuresPerPeriod: 3,
      connectorAccountTechnicalErrors: 5,
      accountAuthorizationShortfall: 5,
      merchantWebhookFailures: 100,
      accountDisputesOpened: 5,
    },
    // 200 batches, a merchant at most 8 + 2 of them: ten merchants with hanging endpoints at once still leave half the worker free.
    webhookDelivery: { maxConcurrency: 200, lanes: 8, slowLanes: 2 },
    reconcileMinAgeSeconds: 60,
    reconcilerTimeoutSeconds: 300,
    billing: { retryDays: [1, 3, 7], dunningFinal: 'canceled' },
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
  if (!config.sandbox && stageConnectors(config).includes('sandbox'))
    throw new Error(`Stage '${stage}' has sandbox: false but its routing rules name the sandbox connector.`);
  if (!config.sandbox && config.canaries.sandboxPayment)
    throw new Error(`Stage '${stage}' has sandbox: false but enables the sandbox payment canary.`);
  return config;
}

/**
 * The connectors a stage routes to, in first-seen order of its routing rules: the ones its
 * dashboard charts and its per-connector business alarms watch.
 */
export function stageConnectors(config: Pick<StageConfig, 'routingRules'>): string[] {
  return [...new Set(config.routingRules.flatMap((rule) => rule.connectors))];
}

/** Stack names: `Switchyard-<stage>-Data` (stateful) and `Switchyard-<stage>-Api` (stateless). */
export const stackNames = (stage: string) => ({ data: `Switchyard-${stage}-Data`, api: `Switchyard-${stage}-Api` });
