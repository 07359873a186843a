import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import { WebhookDelivery } from '../delivery/webhook-delivery';
import type { FunctionFactory } from '../functions/function-factory';
import { ReconcilerSchedule } from './reconciler-schedule';

/**
 * The background reconciler function: its logical name and its handler module (from the
 * repository root, exporting `handler`). Not an HTTP route; run by {@link ReconcilerSchedule}.
 */
export const RECONCILER = { name: 'Reconciler', entry: 'functions/reconciler/reconcile.ts' } as const;

/**
 * The renewal worker: renews subscriptions, retries failed renewals on the dunning schedule and sends
 * payment method expiry notices, every minute. Not an HTTP route; run by its own {@link ReconcilerSchedule}.
 */
export const BILLING_WORKER = { name: 'BillingWorker', entry: 'functions/billing/renewal-worker.ts' } as const;

/** Props of {@link BackgroundWork}. */
export interface BackgroundWorkProps {
  config: StageConfig;
  /** Builds the functions (lib/functions/function-factory.ts). */
  factory: FunctionFactory;
  /** The HTTP API: the background functions build hosted-page URLs on its endpoint. */
  api: IHttpApi;
  /** The webhook delivery stream handler module (see {@link WebhookDelivery}); `false`: no webhook delivery. */
  webhookDeliveryEntry: string | false;
}

/**
 * The stage's background work, the functions no HTTP route invokes, each in the stack beside what
 * runs it: the reconciler ({@link RECONCILER}), which settles operations left open (GSI5) and sends
 * the webhook retries that fall due, on its every-minute schedule with a dead-letter queue
 * (lib/background/reconciler-schedule.ts); webhook delivery, the table stream's consumer and its
 * queues and worker ({@link WebhookDelivery}, lib/delivery/webhook-delivery.ts), when deployed; and the
 * renewal worker ({@link BILLING_WORKER}) on a schedule of its own, so billing's volume or failures
 * never delay the reconciler's settling of open payments (and the reverse), with the stack output
 * naming its dead-letter queue.
 *
 * What it holds is declared in the stack, not in this construct, so the logical ids are the ones the
 * stack has always given them (the schedules' and alarms' fixed names never move).
 */
export class BackgroundWork extends Construct {
  readonly reconciler: LambdaFunction;
  readonly reconcilerSchedule: ReconcilerSchedule;
  /** Webhook delivery, when deployed. */
  readonly webhookDelivery?: WebhookDelivery;
  readonly billingWorker: LambdaFunction;
  readonly billingSchedule: ReconcilerSchedule;

  constructor(scope: Construct, id: string, props: BackgroundWorkProps) {
    super(scope, id);
    const { config, factory, api } = props;
    const stack = Stack.of(this);
    this.reconciler = factory.makeFunction(stack, {
      name: RECONCILER.name,
      entry: RECONCILER.entry,
      access: 'settle',
      apiKeys: false,
      keyedHashes: true,
      connectors: true,
      connectorAccountsKey: true,
      timeoutSeconds: config.reconcilerTimeoutSeconds,
      // A failed run is not retried by Lambda: the next scheduled run, a minute later, is the retry.
      asyncRetryAttempts: 0,
      // It also sends the webhook retries that fall due, on the stage's schedule.
      environment: {
        RECONCILE_MIN_AGE_SECONDS: String(config.reconcileMinAgeSeconds),
        WEBHOOK_RETRY_SCHEDULE_SECONDS: config.webhookRetryScheduleSeconds.join(','),
      },
    });
    this.reconcilerSchedule = new ReconcilerSchedule(stack, 'ReconcilerSchedule', { fn: this.reconciler, stage: config.stage });

    // Webhook delivery: new event items (the outbox) from the table's stream, at least once.
    if (props.webhookDeliveryEntry)
      this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
        config,
        factory,
        entry: props.webhookDeliveryEntry,
        reconciler: this.reconciler,
      });

    // The reconciler has no request to take the public URL from: a payment's hosted step page, should a
    // sync name a new step, is built on the API's own endpoint ($default stage: no stage path).
    this.reconciler.addEnvironment('PUBLIC_BASE_URL', api.apiEndpoint);

    this.billingWorker = factory.makeFunction(stack, {
      name: BILLING_WORKER.name,
      entry: BILLING_WORKER.entry,
      access: 'settle',
      apiKeys: false,
      keyedHashes: true,
      connectors: true,
      connectorAccountsKey: true,
      timeoutSeconds: config.reconcilerTimeoutSeconds,
      asyncRetryAttempts: 0,
      environment: {
        PUBLIC_BASE_URL: api.apiEndpoint,
        BILLING_RETRY_DAYS: config.billing.retryDays.join(','),
        BILLING_DUNNING_FINAL: config.billing.dunningFinal,
      },
    });
    this.billingSchedule = new ReconcilerSchedule(stack, 'BillingSchedule', {
      fn: this.billingWorker,
      stage: config.stage,
      job: 'billing',
      description: 'Runs the Switchyard renewal worker: renewals, dunning retries and payment method expiry notices that fell due.',
    });
    new CfnOutput(stack, 'BillingDeadLetterQueueUrl', {
      value: this.billingSchedule.deadLetterQueue.queueUrl,
      description: 'Renewal worker invocations EventBridge Scheduler could not deliver',
    });
  }
}
