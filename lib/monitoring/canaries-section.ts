import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import type { CustomMetricWithAlarm } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import type { DashboardSectionProps } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { RUNBOOK, RUNBOOK_DOC, runbookRef } from './runbooks';

/** Props of {@link CanariesSection}. */
export interface CanariesSectionProps extends DashboardSectionProps {
  /** The stage's canaries (lib/monitoring/canaries.ts). */
  canaries: { health: Canary; sandboxPayment?: Canary };
}

/**
 * The "Synthetic checks" section: the canaries' success (CloudWatchSynthetics `SuccessPercent`,
 * Average per 5-minute run), each alarmed below 100 on 2 consecutive runs; a canary that stops
 * reporting is breaching (the check itself is gone).
 */
export class CanariesSection extends Construct {
  constructor(scope: Construct, id: string, props: CanariesSectionProps) {
    super(scope, id);
    const { canaries } = props;
    const checks: { canary: Canary; name: string; anchor: string; what: string }[] = [
      { canary: canaries.health, name: 'HealthCanary', anchor: RUNBOOK.healthCanary, what: 'GET /health' },
      ...(canaries.sandboxPayment
        ? [
            {
              canary: canaries.sandboxPayment,
              name: 'SandboxPaymentCanary',
              anchor: RUNBOOK.sandboxPaymentCanary,
              what: 'creating and confirming a sandbox payment',
            },
          ]
        : []),
    ];
    props.monitoring.monitorCustom({
      alarmFriendlyName: 'Canaries',
      humanReadableName: 'Synthetic checks',
      description: `CloudWatch Synthetics canaries, every 5 minutes. Runbooks: ${RUNBOOK_DOC}.`,
      metricGroups: [
        {
          title: DASHBOARD_TITLES.canaries,
          graphWidgetAxis: { label: '%', min: 0, max: 100 },
          metrics: checks.map(
            ({ canary, name, anchor, what }): CustomMetricWithAlarm => ({
              metric: canary.metricSuccessPercent({ period: Duration.minutes(5), statistic: 'Average', label: name }),
              alarmFriendlyName: name,
              addAlarm: {
                Critical: {
                  threshold: 100,
                  comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
                  additionalDescription: `The synthetic check ${what} failed on 2 consecutive runs (SuccessPercent below 100). ${runbookRef(anchor)}`,
                  period: Duration.minutes(5),
                  evaluationPeriods: 2,
                  datapointsToAlarm: 2,
                  treatMissingDataOverride: TreatMissingData.BREACHING,
                },
              },
            }),
          ),
        },
      ],
    });
  }
}
