import type { Stack } from 'aws-cdk-lib';
import { SlackChannelConfiguration } from 'aws-cdk-lib/aws-chatbot';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import { acknowledgeNagFindings } from '../nag-acknowledgements';

/**
 * Who is woken: the stage's alarm topic (`AlarmTopic`, TLS only), which every alarm notifies, and
 * its destinations, read at synth (lib/config/stage-config.ts, `withAlarmDestinations`): an email
 * subscription per address, and a Slack channel (AWS Chatbot) with a read-only guardrail when the
 * stage names one. Declared in the stack, not in this construct, so their logical ids are the ones
 * the stack has always given them.
 */
export class AlarmNotifications extends Construct {
  readonly alarmTopic: Topic;

  constructor(scope: Stack, id: string, props: { config: StageConfig }) {
    super(scope, id);
    const { config } = props;
    const alarmTopic = new Topic(scope, 'AlarmTopic', { displayName: `Switchyard ${config.stage} alarms`, enforceSSL: true });
    acknowledgeNagFindings(alarmTopic, [
      {
        id: 'AwsSolutions-SNS2',
        reason: 'Alarm notifications carry no customer data; server-side encryption with a customer KMS key is not needed.',
      },
    ]);
    for (const email of config.alarmDestinations.emails) alarmTopic.addSubscription(new EmailSubscription(email));
    if (config.alarmDestinations.slack)
      new SlackChannelConfiguration(scope, 'AlarmSlackChannel', {
        slackChannelConfigurationName: `switchyard-${config.stage}-alarms`,
        slackWorkspaceId: config.alarmDestinations.slack.workspaceId,
        slackChannelId: config.alarmDestinations.slack.channelId,
        notificationTopics: [alarmTopic],
        // Notifications only: the channel role has no policy, and the guardrail caps what a channel member could run.
        guardrailPolicies: [ManagedPolicy.fromAwsManagedPolicyName('CloudWatchReadOnlyAccess')],
      });
    this.alarmTopic = alarmTopic;
  }
}
