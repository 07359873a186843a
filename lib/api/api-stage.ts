import type { Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpStage, type IHttpApi, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';

/** Props of {@link ApiStage}. */
export interface ApiStageProps {
  config: StageConfig;
  api: IHttpApi;
  /** How long the access logs are kept (the stage's `logRetentionDays`). */
  retention: RetentionDays;
}

/**
 * The HTTP API's `$default` stage (auto-deployed; no stage path in URLs) with the stage's throttling
 * and JSON access logs (`AccessLogs`: request id, source IP, route key, status, latencies, integration
 * error). Declared in the stack, not in this construct, so their logical ids are the ones the stack
 * has always given them.
 */
export class ApiStage extends Construct {
  readonly stage: HttpStage;

  constructor(scope: Stack, id: string, props: ApiStageProps) {
    super(scope, id);
    const { config } = props;
    const accessLogs = new LogGroup(scope, 'AccessLogs', { retention: props.retention });
    this.stage = new HttpStage(scope, 'DefaultStage', {
      httpApi: props.api,
      stageName: '$default',
      autoDeploy: true,
      // The stage's limits; the account's regional API Gateway quota caps them (PROD_THROTTLE in
      // lib/config/stage-config.ts). Per-merchant limits: docs/rate-limits.md.
      throttle: config.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
  }
}
