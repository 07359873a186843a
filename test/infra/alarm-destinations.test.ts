import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ALARM_DESTINATION_KEYS, STAGES, withAlarmDestinations } from '../../lib/config/stage-config';
import { buildApp } from '../../lib/switchyard-app';
import type { Resource } from './synth-stage';

/**
 * The alarm topic reaches someone. A stage's alarm destinations come from CDK context
 * (`-c alarmEmail=…`, `-c slackWorkspaceId=… -c slackChannelId=…`) or the environment; prod refuses to
 * synthesize without one, dev does not require one.
 */

const ENV_KEYS = Object.values(ALARM_DESTINATION_KEYS).map((k) => k.env);
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
beforeEach(() => {
  for (const k of ENV_KEYS) delete process.env[k];
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

/** Builds a stage (no bundling, no webhook delivery) with the given context; optionally runs cdk-nag. */
function build(stage: string, context: Record<string, unknown>, nag = false): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const { api } = buildApp(app, stage, { webhookDeliveryEntry: false });
  if (nag) {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  }
  return Template.fromStack(api);
}

/** The logical id of the stage's alarm topic. */
function alarmTopicId(api: Template, stage: string): string {
  const ids = Object.entries(api.findResources('AWS::SNS::Topic'))
    .filter(([, t]) => (t as Resource).Properties.DisplayName === `Switchyard ${stage} alarms`)
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

test('prod refuses to synthesize without an alarm destination, naming the context keys', () => {
  expect(() => buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'prod')).toThrow(
    /Stage 'prod' needs at least one alarm destination.*-c alarmEmail=.*-c slackWorkspaceId=.*-c slackChannelId=/,
  );
  expect(STAGES.prod!.alarmDestinationRequired).toBe(true);
  expect(STAGES.dev!.alarmDestinationRequired).toBe(false);
});

// The dev and prod apps here have no webhook delivery: with cdk-nag they are also the check that both stages pass the
// AwsSolutions rules without it (test/infra/stacks.test.ts checks them as found).
test('dev synthesizes without a destination: its alarm topic has no subscriber, cdk-nag clean', () => {
  const api = build('dev', {}, true);
  alarmTopicId(api, 'dev');
  api.resourceCountIs('AWS::SNS::Subscription', 0);
  api.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 0);
});

test('prod with e-mail addresses and a Slack channel: each is subscribed to the alarm topic, cdk-nag clean', () => {
  const api = build(
    'prod',
    { alarmEmail: 'oncall@example.com, payments-ops@example.com', slackWorkspaceId: 'T0123ABCD', slackChannelId: 'C0456EFGH' },
    true,
  );
  const topic = alarmTopicId(api, 'prod');
  const subscriptions = Object.values(api.findResources('AWS::SNS::Subscription')) as Resource[];
  expect(subscriptions.map((s) => [s.Properties.Protocol, s.Properties.Endpoint, s.Properties.TopicArn])).toEqual([
    ['email', 'oncall@example.com', { Ref: topic }],
    ['email', 'payments-ops@example.com', { Ref: topic }],
  ]);
  api.hasResourceProperties('AWS::Chatbot::SlackChannelConfiguration', {
    ConfigurationName: 'switchyard-prod-alarms',
    SlackWorkspaceId: 'T0123ABCD',
    SlackChannelId: 'C0456EFGH',
    SnsTopicArns: [{ Ref: topic }],
    GuardrailPolicies: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/CloudWatchReadOnlyAccess']] }],
  });
});

test('prod with only a Slack channel synthesizes (no e-mail needed)', () => {
  const api = build('prod', { slackWorkspaceId: 'T0123ABCD', slackChannelId: 'C0456EFGH' });
  api.resourceCountIs('AWS::SNS::Subscription', 0);
  api.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 1);
});

test('the environment stands in for absent context keys; context wins', () => {
  const read = (context: Record<string, unknown>) => (key: string) => context[key];
  const env = { SWITCHYARD_ALARM_EMAIL: 'env@example.com', SWITCHYARD_SLACK_WORKSPACE_ID: 'TENV', SWITCHYARD_SLACK_CHANNEL_ID: 'CENV' };
  expect(withAlarmDestinations(STAGES.prod!, read({}), env).alarmDestinations).toEqual({
    emails: ['env@example.com'],
    slack: { workspaceId: 'TENV', channelId: 'CENV' },
  });
  expect(
    withAlarmDestinations(STAGES.prod!, read({ alarmEmail: ['a@example.com', 'b@example.com'] }), env).alarmDestinations.emails,
  ).toEqual(['a@example.com', 'b@example.com']);
  expect(withAlarmDestinations(STAGES.dev!, read({}), {}).alarmDestinations).toEqual({ emails: [] });
});

test('malformed destinations are refused', () => {
  const read = (context: Record<string, unknown>) => (key: string) => context[key];
  expect(() => withAlarmDestinations(STAGES.dev!, read({ alarmEmail: 'oncall' }), {})).toThrow(/'oncall' is not an e-mail address/);
  expect(() => withAlarmDestinations(STAGES.prod!, read({ slackWorkspaceId: 'T0123ABCD' }), {})).toThrow(
    /needs both -c slackWorkspaceId=… and -c slackChannelId=…/,
  );
  expect(() => withAlarmDestinations(STAGES.prod!, read({ slackWorkspaceId: 'T0123ABCD', slackChannelId: '#alarms' }), {})).toThrow(
    /slackChannelId '#alarms' is not a Slack id/,
  );
});
