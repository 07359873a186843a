import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, CfnInsightRule, ComparisonOperator, GraphWidget, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DISPUTE_LOG_MESSAGES } from '../../shared/observability/dispute-log';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { RUNBOOK, runbookRef } from './runbooks';

/** Props of {@link DisputesSection}. */
export interface DisputesSectionProps extends DashboardSectionProps {
  /** The log groups where disputes are recorded (the processors' webhook receivers, the dispute answers, the renewal worker). */
  logGroups: ILogGroup[];
}

/**
 * The "Disputes" section: three Contributor Insights rules over the log lines disputes write
 * (shared/observability/dispute-log.ts), each counting by connector account (`$.account`): disputes opened,
 * reminders sent (disputes near their deadline, unanswered) and disputes expired. The dashboard row charts the
 * worst account of each; alarms: an account receiving `alarms.accountDisputesOpened` or more disputes in an hour
 * (Warning: a merchant's fraud or fulfilment problem), and any dispute expiring unanswered (Warning: money lost by
 * not answering). One series per rule however many accounts; the rules' reports name the accounts. The rules and
 * alarms are declared in the stage monitoring's scope ({@link sectionResourceScope}).
 */
export class DisputesSection extends Construct {
  constructor(scope: Construct, id: string, props: DisputesSectionProps) {
    super(scope, id);
    const { monitoring, logGroups } = props;
    const owner = sectionResourceScope(this);
    const { stage, alarms } = props.config;
    monitoring.addLargeHeader('Disputes');
    const rule = (id: string, slug: string, message: string) => {
      const ruleName = `switchyard-${stage}-accounts-by-${slug}`;
      const r = new CfnInsightRule(owner, id, {
        ruleName,
        ruleState: 'ENABLED',
        ruleBody: Stack.of(this).toJsonString({
          Schema: { Name: 'CloudWatchLogRule', Version: 1 },
          LogGroupNames: logGroups.map((g) => g.logGroupName),
          LogFormat: 'JSON',
          Contribution: { Keys: ['$.account'], Filters: [{ Match: '$.message', In: [message] }] },
          AggregateOn: 'Count',
        }),
      });
      return { r, ruleName };
    };
    const opened = rule('DisputesOpenedRule', 'disputes-opened', DISPUTE_LOG_MESSAGES.opened);
    const reminded = rule('DisputesNearDeadlineRule', 'disputes-near-deadline', DISPUTE_LOG_MESSAGES.reminded);
    const expired = rule('DisputesExpiredRule', 'disputes-expired', DISPUTE_LOG_MESSAGES.expired);
    const worst = (ruleName: string, label: string, period: Duration) =>
      new MathExpression({ expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")`, usingMetrics: {}, period, label });
    const hour = Duration.hours(1);
    const openedWorst = worst(opened.ruleName, 'disputes opened on the most disputed account (per hour)', hour);
    const remindedWorst = worst(reminded.ruleName, 'disputes near their deadline on one account (per hour)', hour);
    const expiredWorst = worst(expired.ruleName, 'disputes expired unanswered on one account (per hour)', hour);
    const threshold = alarms.accountDisputesOpened;
    const openedAlarm = new Alarm(owner, 'AccountDisputesOpened', {
      alarmName: `Switchyard-${stage}-Disputes-AccountOpened-Warning`,
      alarmDescription: `One connector account received ${threshold} or more disputes in an hour (Contributor Insights rule ${opened.ruleName}, MaxContributorValue; its report names the account). Tell the merchant. ${runbookRef(RUNBOOK.disputes)}`,
      metric: openedWorst,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    openedAlarm.node.addDependency(opened.r);
    openedAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
    const expiredAlarm = new Alarm(owner, 'DisputesExpired', {
      alarmName: `Switchyard-${stage}-Disputes-Expired-Warning`,
      alarmDescription: `A dispute expired without an answer (Contributor Insights rule ${expired.ruleName}): its money stays with the cardholder. Check that its merchant is told of disputes (dispute.opened and dispute.reminder reach its endpoint). ${runbookRef(RUNBOOK.disputes)}`,
      metric: expiredWorst,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    expiredAlarm.node.addDependency(expired.r);
    expiredAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
    monitoring.addWidget(
      new GraphWidget({
        title: `Disputes by connector account: the most disputed, near their deadline, expired (per hour; alarm at ${threshold} opened, 1 expired)`,
        width: 24,
        height: 6,
        left: [openedWorst, remindedWorst, expiredWorst],
        leftYAxis: { label: 'count', min: 0, showUnits: false },
      }),
    );
  }
}
