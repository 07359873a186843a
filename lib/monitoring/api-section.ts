import { Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { DashboardSectionProps } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';

/** Props of {@link ApiSection}. */
export interface ApiSectionProps extends DashboardSectionProps {
  api: IHttpApi;
  /** Names of the function groups' dashboards (lib/monitoring/function-group-monitoring.ts), linked below the API's panels. */
  functionDashboards?: string[];
}

/**
 * The API's traffic: cdk-monitoring-constructs' HTTP API panels (requests, 4xx/5xx, p50/p90/p99
 * latency) with the 5xx rate (Critical, above `alarms.api5xxRate`) and p99 latency (Warning, above
 * `alarms.apiLatencyP99Ms`) alarms; then a text widget linking each function group's dashboard, where
 * the route functions' panels and alarms are (they live in the groups' nested stacks:
 * lib/monitoring/function-group-monitoring.ts).
 */
export class ApiSection extends Construct {
  constructor(scope: Construct, id: string, props: ApiSectionProps) {
    super(scope, id);
    const { config, monitoring } = props;
    monitoring.monitorApiGatewayV2HttpApi({
      api: props.api,
      alarmFriendlyName: 'Api',
      add5xxRateAlarm: { Critical: { maxErrorRate: config.alarms.api5xxRate } },
      addLatencyP99Alarm: { Warning: { maxLatency: Duration.millis(config.alarms.apiLatencyP99Ms) } },
    });
    const dashboards = props.functionDashboards ?? [];
    if (!dashboards.length) return;
    const { region } = Stack.of(this);
    const link = (name: string) =>
      `[${name}](https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards:name=${name})`;
    monitoring.addWidget(
      new TextWidget({
        markdown: `### ${DASHBOARD_TITLES.functionDashboards}\nPanels of each API function (invocations, errors, latency, throttles, concurrency), one dashboard per function group; their alarms are on this stage's topic: ${dashboards.map(link).join(' · ')}`,
        width: 24,
        height: 2,
      }),
    );
  }
}
