import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stageRoutes } from '../../lib/api/route-functions';
import { RECONCILER } from '../../lib/background/background-work';
import { PROD_THROTTLE, STAGES, type StageConfig, stageConfig, stageConnectors } from '../../lib/config/stage-config';
import { apiFunctionLogGroupName, apiLogGroupPrefix, FALLBACK_GROUP, functionGroup } from '../../lib/function-groups';
import {
  ACCOUNT_RATE_PANEL_ACCOUNTS,
  accountAuthorizationRateQuery,
  accountAuthorizationShortfallQuery,
} from '../../lib/monitoring/account-authorization-section';
import { CANARIES, canaryApiKeySecretName, canaryName } from '../../lib/monitoring/canaries';
import { connectorAccountTechnicalErrorsQuery } from '../../lib/monitoring/connector-accounts-section';
import { DASHBOARD_TITLES } from '../../lib/monitoring/dashboard-titles';
import { OPEN_OPERATION_KINDS } from '../../lib/monitoring/open-operations-section';
import { MAX_QUERY_LOG_GROUPS, QUERY_PLACEHOLDERS, SAVED_QUERIES } from '../../lib/monitoring/operations-queries';
import { payoutFailuresQuery } from '../../lib/monitoring/payouts-section';
import { RUNBOOK, RUNBOOK_DOC } from '../../lib/monitoring/runbooks';
import { FALLBACK_ROUTE, isSandboxRoute, ROUTES } from '../../shared/api/routes';
import {
  ACCOUNT_AUTHORIZATION_RATE_FLOOR,
  AUTHORIZATION_OUTCOMES,
  BUSINESS_METRICS,
  CONNECTOR_CALL_OUTCOMES,
} from '../../shared/observability/metrics';
import { REQUEST_LOG_FIELDS, REQUEST_LOG_MESSAGE } from '../../shared/observability/request-log';
import { configuredConnector, sandboxConnectorEnabled } from '../../shared/processor-call/connector-registry';
import { functionId, type Resource, stageDashboard, synthStage } from './synth-stage';

/**
 * Operations (docs/operations.md), operator side, on the synthesized templates of dev and prod (each synthesized once):
 * the business alarms and their thresholds (equal to the stage config) and runbook anchors (which
 * must exist in docs/operations.md), the dashboard's widgets and the metrics they read, the saved
 * Logs Insights queries and the Contributor Insights rule, the canaries, the sandbox switch and
 * prod's stage throttle.
 */

/** GitHub's heading anchors of a Markdown file (lower case, punctuation dropped, spaces to hyphens). */
function markdownAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of readFileSync(resolve(file), 'utf8').split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (!heading) continue;
    anchors.add(
      heading[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

const ANCHORS = markdownAnchors(RUNBOOK_DOC);
const OPERATIONS_DOC = readFileSync(resolve(RUNBOOK_DOC), 'utf8');

/** A dashboard widget, as far as these tests read it. */
type Widget = { type: string; properties: { title?: string; markdown?: string; metrics?: unknown[] } };

test('docs/operations.md has a runbook section for every alarm anchor, and documents the saved queries', () => {
  for (const anchor of Object.values(RUNBOOK)) expect(ANCHORS).toContain(anchor);
  for (const q of Object.values(SAVED_QUERIES)) expect(OPERATIONS_DOC).toContain(`\`${q.name}\``);
  expect(OPERATIONS_DOC).toContain('money-safety.md#runbook-open-operations');
  expect(markdownAnchors('docs/money-safety.md')).toContain('runbook-open-operations');
});

test('stage config: prod runs without the sandbox (routing never names it), dev with it and its payment canary; prod throttle 25,000/5,000', () => {
  expect(STAGES.prod!.sandbox).toBe(false);
  expect(stageConnectors(STAGES.prod!)).not.toContain('sandbox');
  expect(STAGES.prod!.canaries.sandboxPayment).toBe(false);
  expect(STAGES.dev!.sandbox).toBe(true);
  expect(STAGES.dev!.canaries.sandboxPayment).toBe(true);
  expect(PROD_THROTTLE).toEqual({ rateLimit: 25_000, burstLimit: 5_000 });
  expect(STAGES.prod!.throttle).toEqual(PROD_THROTTLE);
  expect(ROUTES.filter(isSandboxRoute).map((r) => `${r.method} ${r.path}`)).toEqual([
    'POST /test_helpers/test_clocks',
    'GET /test_helpers/test_clocks/{test_clock_id}',
    'POST /test_helpers/test_clocks/{test_clock_id}/advance',
    'GET /sandbox/{kind}/{payment_id}',
    'POST /sandbox/{kind}/{payment_id}',
  ]);
});

test('a stage without the sandbox may neither route to it nor run the sandbox payment canary', () => {
  const stages = STAGES as Record<string, StageConfig>;
  try {
    stages.bad1 = { ...STAGES.prod!, stage: 'bad1', routingRules: [{ connectors: ['stripe', 'sandbox'] }] };
    expect(() => stageConfig('bad1')).toThrow(/sandbox: false but its routing rules name the sandbox/);
    stages.bad2 = { ...STAGES.prod!, stage: 'bad2', canaries: { sandboxPayment: true } };
    expect(() => stageConfig('bad2')).toThrow(/sandbox: false but enables the sandbox payment canary/);
  } finally {
    delete stages.bad1;
    delete stages.bad2;
  }
  expect(stageConfig('prod')).toBe(STAGES.prod);
});

test('registry: SANDBOX_CONNECTOR_ENABLED=false makes the sandbox not configured; unset keeps it', async () => {
  const before = process.env.SANDBOX_CONNECTOR_ENABLED;
  try {
    delete process.env.SANDBOX_CONNECTOR_ENABLED;
    expect(sandboxConnectorEnabled()).toBe(true);
    expect(await configuredConnector('sandbox')).toBeDefined();
    process.env.SANDBOX_CONNECTOR_ENABLED = 'false';
    expect(sandboxConnectorEnabled()).toBe(false);
    expect(await configuredConnector('sandbox')).toBeUndefined();
  } finally {
    if (before === undefined) delete process.env.SANDBOX_CONNECTOR_ENABLED;
    else process.env.SANDBOX_CONNECTOR_ENABLED = before;
  }
});

describe.each(['dev', 'prod'])('%s stage', (stage) => {
  const t = synthStage(stage);
  const config = STAGES[stage]!;
  const connectors = stageConnectors(config);
  const resources = t.api.toJSON().Resources as Record<string, Resource>;
  const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  const topicId = Object.keys(t.api.findResources('AWS::SNS::Topic'))[0]!;
  const alarmNamed = (name: string) => {
    const found = alarms.filter((a) => a.Properties.AlarmName === `Switchyard-${stage}-${name}`);
    expect(found).toHaveLength(1);
    return found[0]!.Properties;
  };
  /** The runbook anchor a description names; it must exist in docs/operations.md. */
  const runbookOf = (description: string) => {
    const m = /Runbook: docs\/operations\.md#([a-z0-9-]+)/.exec(description);
    expect(m).not.toBeNull();
    expect(ANCHORS).toContain(m![1]);
    return m![1];
  };
  /** The metric names and dimensions an alarm reads (its MetricStat queries). */
  const statsOf = (a: Record<string, any>) =>
    (a.Metrics as any[])
      .filter((m) => m.MetricStat)
      .map((m) => m.MetricStat.Metric as { MetricName: string; Dimensions: { Name: string; Value: string }[] });
  const dim = (m: { Dimensions: { Name: string; Value: string }[] }, name: string) => m.Dimensions.find((d) => d.Name === name)?.Value;

  test('connectors watched: those of the routing rules', () => {
    expect(connectors).toEqual(stage === 'prod' ? ['paystack', 'flutterwave', 'stripe'] : ['sandbox']);
  });

  test.each(
    stageConnectors(STAGES[stage]!),
  )('success rate of %s: below its anomaly band (stage stdDevs) on 3 of 3 five-minute periods, over all Authorizations outcomes', (c) => {
    const a = alarmNamed(`Connector-${c}-AuthorizationSuccessRate-Critical`);
    expect(a).toMatchObject({
      ComparisonOperator: 'LessThanLowerThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.Threshold).toBeUndefined();
    const band = (a.Metrics as any[]).find((m) => m.Id === a.ThresholdMetricId);
    const rate = (a.Metrics as any[]).find((m) => m.ReturnData && m.Id !== a.ThresholdMetricId);
    expect(band.Expression).toBe(`ANOMALY_DETECTION_BAND(${rate.Id},${config.alarms.authorizationSuccessBandStdDevs})`);
    expect(rate.Expression).toContain(`>= ${config.alarms.minRateVolumePerPeriod}, 100 *`);
    const stats = statsOf(a);
    expect(stats.map((m) => m.MetricName)).toEqual(AUTHORIZATION_OUTCOMES.map(() => BUSINESS_METRICS.authorizations));
    expect(stats.map((m) => dim(m, 'outcome'))).toEqual([...AUTHORIZATION_OUTCOMES]);
    for (const m of stats) expect(m.Dimensions.map((d) => d.Name).sort()).toEqual(['connector', 'outcome', 'service']);
    for (const m of stats) expect(dim(m, 'connector')).toBe(c);
    expect((a.Metrics as any[]).filter((m) => m.MetricStat).every((m) => m.MetricStat.Period === 300 && m.MetricStat.Stat === 'Sum')).toBe(
      true,
    );
    expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.connectorSuccessRate);
  });

  test.each(
    stageConnectors(STAGES[stage]!),
  )('technical error rate of %s: ConnectorCalls technical_error / all above the stage bound, 2 of 3 periods', (c) => {
    const a = alarmNamed(`Connector-${c}-TechnicalErrorRate-Critical`);
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      AlarmActions: [{ Ref: topicId }],
    });
    // The expression is in percent; the stage config holds the fraction.
    expect(a.Threshold).toBeCloseTo(config.alarms.connectorTechnicalErrorRate * 100, 10);
    const stats = statsOf(a);
    expect(stats.map((m) => m.MetricName)).toEqual(CONNECTOR_CALL_OUTCOMES.map(() => BUSINESS_METRICS.connectorCalls));
    expect(stats.map((m) => dim(m, 'outcome'))).toEqual([...CONNECTOR_CALL_OUTCOMES]);
    const rate = (a.Metrics as any[]).find((m) => m.ReturnData !== false && m.Expression);
    const technical = stats.findIndex((m) => dim(m, 'outcome') === 'technical_error');
    expect(rate.Expression).toMatch(
      new RegExp(`100 \\* \\(FILL\\(${(a.Metrics as any[]).filter((m) => m.MetricStat)[technical].Id}, 0\\)\\) /`),
    );
    expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.connectorTechnicalErrors);
  });

  test.each(
    stageConnectors(STAGES[stage]!),
  )('refunds failing at %s: RefundOutcomes outcome=failed Sum >= the stage bound per 5 minutes', (c) => {
    const a = alarmNamed(`Connector-${c}-RefundFailures-Critical`);
    expect(a).toMatchObject({
      Threshold: config.alarms.refundFailuresPerPeriod,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      AlarmActions: [{ Ref: topicId }],
    });
    const [m] = statsOf(a);
    expect(m!.MetricName).toBe(BUSINESS_METRICS.refundOutcomes);
    expect([dim(m!, 'connector'), dim(m!, 'outcome')]).toEqual([c, 'failed']);
    expect(a.Metrics[0].MetricStat).toMatchObject({ Period: 300, Stat: 'Sum' });
    expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.refundFailures);
  });

  test('connector accounts: one multi-time-series alarm on a Metrics Insights query, technical errors per merchant_connector_id at or above the stage bound, 2 of 3 five-minute periods', () => {
    const a = alarmNamed('ConnectorAccounts-TechnicalErrors-Critical');
    expect(a).toMatchObject({
      Threshold: config.alarms.connectorAccountTechnicalErrors,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.MetricName).toBeUndefined();
    // One query, no MetricStat: every series it returns (one per account) is a contributor of the alarm.
    expect(a.Metrics).toEqual([
      {
        Id: expect.any(String),
        Expression: connectorAccountTechnicalErrorsQuery(`Switchyard/${stage}`, 'switchyard'),
        Label: 'technical errors',
        Period: 300,
        ReturnData: true,
      },
    ]);
    expect(a.Metrics[0].Expression).toBe(
      `SELECT SUM(ConnectorCalls) FROM SCHEMA("Switchyard/${stage}", connector, merchant_connector_id, outcome, service) WHERE outcome = 'technical_error' AND service = 'switchyard' GROUP BY connector, merchant_connector_id ORDER BY SUM() DESC`,
    );
    expect(BUSINESS_METRICS.connectorCalls).toBe('ConnectorCalls');
    expect(CONNECTOR_CALL_OUTCOMES).toContain('technical_error');
    expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.connectorTechnicalErrors);
    expect(config.alarms.connectorAccountTechnicalErrors).toBeGreaterThan(1);
  });

  test('connector accounts: authorization rate, one multi-time-series alarm on the approvals each account lacked to reach the floor, at or above the stage bound, 2 of 3 five-minute periods', () => {
    const a = alarmNamed('ConnectorAccounts-AuthorizationRate-Critical');
    expect(a).toMatchObject({
      Threshold: config.alarms.accountAuthorizationShortfall,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.MetricName).toBeUndefined();
    expect(a.Metrics).toEqual([
      {
        Id: expect.any(String),
        Expression: accountAuthorizationShortfallQuery(`Switchyard/${stage}`, 'switchyard'),
        Label: 'approvals short',
        Period: 300,
        ReturnData: true,
      },
    ]);
    // One series per account (its own answers only), the largest shortfall first: the accounts that can breach are
    // among the 500 series a query returns, whatever the volume of the others.
    expect(a.Metrics[0].Expression).toBe(
      `SELECT SUM(AccountAuthorizationShortfall) FROM SCHEMA("Switchyard/${stage}", connector, merchant_connector_id, service) WHERE service = 'switchyard' GROUP BY connector, merchant_connector_id ORDER BY SUM() DESC`,
    );
    expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.accountAuthorizationRate);
    expect(a.AlarmDescription).toContain(`under ${ACCOUNT_AUTHORIZATION_RATE_FLOOR * 100} %`);
    // Volume guard: a bound of 1 would fire on two declines of two answers.
    expect(config.alarms.accountAuthorizationShortfall).toBeGreaterThan(1);
    expect(accountAuthorizationRateQuery('ns', 'switchyard')).toBe(
      `SELECT AVG(AccountAuthorizationRate) FROM SCHEMA("ns", connector, merchant_connector_id, service) WHERE service = 'switchyard' GROUP BY connector, merchant_connector_id ORDER BY AVG() ASC LIMIT ${ACCOUNT_RATE_PANEL_ACCOUNTS}`,
    );
  });

  test('payouts: failed or reversed payouts per connector account and per platform connector, one multi-time-series alarm each, at or above the stage bound, 2 of 3 five-minute periods', () => {
    for (const [name, scope] of [
      ['Accounts', 'account'],
      ['Platform', 'platform'],
    ] as const) {
      const a = alarmNamed(`Payouts-FailedOrReversed-${name}-Critical`);
      expect(a).toMatchObject({
        Threshold: config.alarms.payoutFailuresPerPeriod,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId }],
      });
      expect(a.Metrics).toEqual([
        {
          Id: expect.any(String),
          Expression: payoutFailuresQuery(`Switchyard/${stage}`, 'switchyard', scope),
          Label: expect.any(String),
          Period: 300,
          ReturnData: true,
        },
      ]);
      expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.payoutFailures);
    }
    expect(payoutFailuresQuery('ns', 'switchyard', 'account')).toBe(
      `SELECT SUM(PayoutOutcomes) FROM SCHEMA("ns", connector, merchant_connector_id, outcome, service) WHERE (outcome = 'failed' OR outcome = 'reversed') AND service = 'switchyard' GROUP BY connector, merchant_connector_id ORDER BY SUM() DESC`,
    );
    expect(BUSINESS_METRICS.payoutOutcomes).toBe('PayoutOutcomes');
  });

  test('open operations older than 30 minutes, per kind; undelivered webhooks past their schedule; money mismatches: thresholds from the stage config, runbook anchors', () => {
    expect(config.alarms.openOperationMaxAgeSeconds).toBe(1800);
    for (const kind of OPEN_OPERATION_KINDS) {
      const a = alarmNamed(`OpenOperations-OldestOpenOperationAge-${kind}-Critical`);
      expect(a.Threshold).toBe(config.alarms.openOperationMaxAgeSeconds);
      expect(statsOf(a)[0]!.MetricName).toBe(BUSINESS_METRICS.oldestOpenOperationAge);
      expect(runbookOf(a.AlarmDescription)).toBe(RUNBOOK.openOperationAge);
    }
    const webhooks = alarmNamed('Webhooks-OldestUndeliveredEventAge-Critical');
    expect(webhooks.Threshold).toBe(config.alarms.undeliveredEventMaxAgeSeconds);
    expect(runbookOf(webhooks.AlarmDescription)).toBe(RUNBOOK.webhookBacklog);
    // Undelivered webhooks older than 1 hour: a due delivery not attempted within the hour.
    const overdue = alarmNamed('Webhooks-OldestOverdueWebhookDelivery-Critical');
    expect(config.alarms.overdueWebhookDeliverySeconds).toBe(3600);
    expect(overdue.Threshold).toBe(config.alarms.overdueWebhookDeliverySeconds);
    expect(statsOf(overdue)[0]!.MetricName).toBe(BUSINESS_METRICS.oldestOverdueWebhookDelivery);
    expect(runbookOf(overdue.AlarmDescription)).toBe(RUNBOOK.webhookOverdue);
    const mismatches = alarms.filter((a) => /-MoneyMismatch-/.test(a.Properties.AlarmName));
    expect(mismatches.length).toBeGreaterThan(0);
    for (const a of mismatches) expect(runbookOf(a.Properties.AlarmDescription)).toBe(RUNBOOK.moneyMismatch);
    // The sandbox is not watched where it is switched off.
    expect(mismatches.some((a) => a.Properties.AlarmName.endsWith('-MoneyMismatch-sandbox-Critical'))).toBe(config.sandbox);
  });

  test('every alarm notifies the topic; every alarm naming a runbook names an existing section', () => {
    for (const a of alarms) {
      expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      if (String(a.Properties.AlarmDescription).includes('Runbook:')) runbookOf(a.Properties.AlarmDescription);
    }
  });

  test('canaries: GET /health every 5 minutes on every stage, the sandbox payment one where configured; each alarmed below 100 % success', () => {
    const canaries = Object.values(t.api.findResources('AWS::Synthetics::Canary')) as Resource[];
    const expected = [
      canaryName(stage, CANARIES.health.name),
      ...(config.canaries.sandboxPayment ? [canaryName(stage, CANARIES.sandboxPayment.name)] : []),
    ];
    expect(canaries.map((c) => c.Properties.Name).sort()).toEqual(expected.sort());
    for (const c of canaries) {
      expect(c.Properties).toMatchObject({
        Schedule: { Expression: 'rate(5 minutes)' },
        RuntimeVersion: CANARIES.runtime.name,
        Code: { Handler: 'index.handler' },
        StartCanaryAfterCreation: true,
      });
      expect(c.Properties.RunConfig.EnvironmentVariables.API_URL).toEqual({
        'Fn::GetAtt': [expect.stringMatching(/^HttpApi/), 'ApiEndpoint'],
      });
      // No API key in the template: the sandbox payment canary reads it from Secrets Manager at run time.
      expect(JSON.stringify(c.Properties)).not.toMatch(/sk_(test|live)_[A-Za-z0-9]/);
    }
    const checks = [
      { alarm: 'Canaries-HealthCanary-Critical', anchor: RUNBOOK.healthCanary, canary: canaryName(stage, CANARIES.health.name) },
      ...(config.canaries.sandboxPayment
        ? [
            {
              alarm: 'Canaries-SandboxPaymentCanary-Critical',
              anchor: RUNBOOK.sandboxPaymentCanary,
              canary: canaryName(stage, CANARIES.sandboxPayment.name),
            },
          ]
        : []),
    ];
    expect(alarms.filter((a) => /-Canaries-/.test(a.Properties.AlarmName))).toHaveLength(checks.length);
    for (const check of checks) {
      const a = alarmNamed(check.alarm);
      expect(a).toMatchObject({
        Threshold: 100,
        ComparisonOperator: 'LessThanThreshold',
        EvaluationPeriods: 2,
        DatapointsToAlarm: 2,
        TreatMissingData: 'breaching',
      });
      expect(a.Metrics[0].MetricStat).toMatchObject({
        Metric: { Namespace: 'CloudWatchSynthetics', MetricName: 'SuccessPercent' },
        Period: 300,
        Stat: 'Average',
      });
      expect(JSON.stringify(a.Metrics[0].MetricStat.Metric.Dimensions)).toContain('CanaryName');
      expect(runbookOf(a.AlarmDescription)).toBe(check.anchor);
    }
    if (config.canaries.sandboxPayment) {
      const sandbox = canaries.find((c) => c.Properties.Name === canaryName(stage, CANARIES.sandboxPayment.name))!;
      expect(sandbox.Properties.RunConfig.EnvironmentVariables.API_KEY_SECRET_ID).toBe(canaryApiKeySecretName(stage));
      const roleId = sandbox.Properties.ExecutionRoleArn['Fn::GetAtt'][0];
      const statements = (Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[])
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      expect(statements).toEqual([expect.objectContaining({ Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'] })]);
      expect(JSON.stringify(statements)).toContain(`secret:${canaryApiKeySecretName(stage)}-??????`);
    }
  });

  test('sandbox: prod deploys no /sandbox route or function and switches the connector off in every function that calls connectors; dev keeps both', () => {
    const routeKeys = (Object.values(t.api.findResources('AWS::ApiGatewayV2::Route')) as Resource[]).map(
      (r) => r.Properties.RouteKey as string,
    );
    // The hosted page's GET and POST, and the GET's HEAD (public GET pages answer HEAD: shared/api/routes.ts `answersHead`).
    expect(routeKeys.filter((k) => k.includes(' /sandbox/')).sort()).toEqual(
      config.sandbox ? ['GET /sandbox/{kind}/{payment_id}', 'HEAD /sandbox/{kind}/{payment_id}', 'POST /sandbox/{kind}/{payment_id}'] : [],
    );
    const fnIds = Object.keys(t.api.findResources('AWS::Lambda::Function'));
    for (const route of ROUTES.filter(isSandboxRoute)) {
      expect(fnIds.some((id) => id.startsWith(route.name) && /^[0-9A-F]{8}$/.test(id.slice(route.name.length)))).toBe(config.sandbox);
    }
    const connectorFunctions = [
      ...stageRoutes(config)
        .filter((r) => r.connectors)
        .map((r) => r.name),
      RECONCILER.name,
    ];
    for (const name of connectorFunctions) {
      expect(resources[functionId(t.api, name)]!.Properties.Environment.Variables.SANDBOX_CONNECTOR_ENABLED).toBe(
        config.sandbox ? undefined : 'false',
      );
    }
  });

  test('prod throttle from the stage config (25,000 rps, 5,000 burst); dev its own', () => {
    const stages = Object.values(t.api.findResources('AWS::ApiGatewayV2::Stage')) as Resource[];
    expect(stages).toHaveLength(1);
    expect(stages[0]!.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: config.throttle.rateLimit,
      ThrottlingBurstLimit: config.throttle.burstLimit,
    });
    if (stage === 'prod') expect(config.throttle).toEqual({ rateLimit: 25_000, burstLimit: 5_000 });
  });

  test("saved Logs Insights queries over the API functions' log groups (and the reconciler's), reading the request log fields", () => {
    const queries = Object.values(t.api.findResources('AWS::Logs::QueryDefinition')) as Resource[];
    // A query over more than 50 log groups is saved in parts, `<name> (k of n)`.
    const baseName = (name: string) => name.replace(/ \(\d+ of \d+\)$/, '');
    expect([...new Set(queries.map((q) => baseName(q.Properties.Name)))].sort()).toEqual(
      Object.values(SAVED_QUERIES)
        .map((q) => `switchyard-${stage}/${q.name}`)
        .sort(),
    );
    const logGroupId = (name: string) => {
      const ids = Object.keys(t.api.findResources('AWS::Logs::LogGroup')).filter((id) => id.startsWith(`${name}Logs`));
      expect(ids).toHaveLength(1);
      return ids[0]!;
    };
    // The route functions' log groups are named `/switchyard/<stage>/api/<group>/<function>`, so the
    // queries name them as strings; the reconciler's keeps its generated name.
    const routeFunctions = [
      ...stageRoutes(config).map((r) => ({ name: r.name, group: functionGroup(r) })),
      { name: FALLBACK_ROUTE.name, group: FALLBACK_GROUP },
    ];
    for (const { name, group } of routeFunctions) {
      expect(t.api.toJSON().Resources[logGroupId(name)].Properties.LogGroupName).toBe(`/switchyard/${stage}/api/${group}/${name}`);
    }
    // Only they are under the prefix the Contributor Insights rule reads (not the background functions' or access logs).
    const underPrefix = (Object.values(t.api.findResources('AWS::Logs::LogGroup')) as Resource[]).filter((g) =>
      String(g.Properties.LogGroupName ?? '').startsWith(apiLogGroupPrefix(stage)),
    );
    expect(underPrefix).toHaveLength(routeFunctions.length);
    // A query's log groups, its parts' in order when it was split.
    const byName = (name: string) => {
      const parts = queries
        .filter((q) => baseName(q.Properties.Name) === `switchyard-${stage}/${name}`)
        .sort((a, b) => String(a.Properties.Name).localeCompare(String(b.Properties.Name)));
      return { ...parts[0]!.Properties, LogGroupNames: parts.flatMap((q) => q.Properties.LogGroupNames as unknown[]) } as Record<
        string,
        any
      >;
    };
    // Each query names only the functions its question concerns: Logs Insights reads at most 50 log groups.
    const groupsOf = (keep: (r: { path: string; auth: boolean; connectors: boolean }) => boolean) =>
      stageRoutes(config)
        .filter(keep)
        .map((r) => apiFunctionLogGroupName(stage, functionGroup(r), r.name));
    const payment = byName(SAVED_QUERIES.payment.name);
    expect(payment.LogGroupNames).toEqual([
      ...groupsOf((r) => /^\/(payments|refunds|pay|sandbox|webhooks)(\/|$)/.test(r.path)),
      { Ref: logGroupId(RECONCILER.name) },
    ]);
    expect(payment.LogGroupNames).toContain(
      apiFunctionLogGroupName(
        stage,
        functionGroup(stageRoutes(config).find((r) => r.name === 'ReceiveAccountWebhook')!),
        'ReceiveAccountWebhook',
      ),
    );
    expect(payment.QueryString).toContain(`${REQUEST_LOG_FIELDS.paymentId} = "${QUERY_PLACEHOLDERS.paymentId}"`);
    const errors = byName(SAVED_QUERIES.connectorErrors.name);
    expect(errors.LogGroupNames).toEqual([...groupsOf((r) => r.connectors), { Ref: logGroupId(RECONCILER.name) }]);
    expect(errors.QueryString).toContain(`${REQUEST_LOG_FIELDS.connector} = "${QUERY_PLACEHOLDERS.connector}"`);
    const merchant = byName(SAVED_QUERIES.merchantRequests.name);
    expect(merchant.LogGroupNames).toEqual(groupsOf((r) => r.auth));
    for (const q of queries) expect((q.Properties.LogGroupNames as unknown[]).length).toBeLessThanOrEqual(MAX_QUERY_LOG_GROUPS);
    expect(merchant.QueryString).toContain(`${REQUEST_LOG_FIELDS.merchantId} = "${QUERY_PLACEHOLDERS.merchantId}"`);
    expect(merchant.QueryString).toContain(`message = "${REQUEST_LOG_MESSAGE}"`);
    // No webhook delivery log group in the API queries (they log no requests).
    expect(JSON.stringify(merchant)).not.toContain('WebhookDeliveryLogs');
    expect(JSON.stringify(merchant)).not.toContain('WebhookDeliveryWorkerLogs');
  });

  test("Contributor Insights: top merchants by requests, JSON log format over the API functions' log groups", () => {
    const rules = Object.values(t.api.findResources('AWS::CloudWatch::InsightRule')) as Resource[];
    // Two rules: this one, and the webhook delivery worker's failed attempts by merchant (webhooks.test.ts).
    expect(rules.map((r) => r.Properties.RuleName).sort()).toEqual(
      [
        `switchyard-${stage}-merchants-by-failed-webhook-attempts`,
        `switchyard-${stage}-top-merchants-by-requests`,
        // Disputes by connector account (billing.test.ts).
        `switchyard-${stage}-accounts-by-disputes-opened`,
        `switchyard-${stage}-accounts-by-disputes-near-deadline`,
        `switchyard-${stage}-accounts-by-disputes-expired`,
      ].sort(),
    );
    const requests = rules.filter((r) => r.Properties.RuleName === `switchyard-${stage}-top-merchants-by-requests`);
    expect(requests).toHaveLength(1);
    const { RuleName, RuleState, RuleBody } = requests[0]!.Properties;
    expect([RuleName, RuleState]).toEqual([`switchyard-${stage}-top-merchants-by-requests`, 'ENABLED']);
    // The body is JSON text naming the API functions' log groups by their prefix (a rule definition is at
    // most 8,192 characters: it does not grow with the routes).
    const body = JSON.parse(RuleBody);
    expect(RuleBody.length).toBeLessThan(1000);
    expect(apiLogGroupPrefix(stage)).toBe(`/switchyard/${stage}/api/`);
    expect(body).toEqual({
      Schema: { Name: 'CloudWatchLogRule', Version: 1 },
      LogGroupNames: [`/switchyard/${stage}/api/*`],
      LogFormat: 'JSON',
      Contribution: { Keys: [`$.${REQUEST_LOG_FIELDS.merchantId}`], Filters: [{ Match: '$.message', In: [REQUEST_LOG_MESSAGE] }] },
      AggregateOn: 'Count',
    });
  });

  test('dashboard: the "is money flowing" row first, then one section per connector, then the technical panels; titles and metric names', () => {
    const dashboard = stageDashboard(t.api, stage);
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const text = parts.map((p) => (typeof p === 'string' ? p : 'REF')).join('');
    const widgets = (JSON.parse(text) as { widgets: Widget[] }).widgets;
    const titles = widgets.map((w) => w.properties.title ?? w.properties.markdown ?? '');
    const at = (needle: string) => {
      const i = titles.findIndex((title) => title.startsWith(needle) || title.includes(needle));
      expect(i).toBeGreaterThanOrEqual(0);
      return i;
    };
    const top = [
      DASHBOARD_TITLES.paymentsPerMinute,
      DASHBOARD_TITLES.successRateByConnector,
      DASHBOARD_TITLES.openOperationsNow,
      DASHBOARD_TITLES.oldestOpenNow,
      DASHBOARD_TITLES.webhookBacklog,
    ];
    for (const title of top) expect(titles).toContain(title);
    const perConnector = connectors.flatMap((c) => [
      DASHBOARD_TITLES.connectorSuccessRate(c),
      DASHBOARD_TITLES.connectorTechnicalErrors(c),
      DASHBOARD_TITLES.connectorLatency(c),
      DASHBOARD_TITLES.connectorCircuit(c),
      DASHBOARD_TITLES.connectorRefundFailures(c),
    ]);
    for (const title of perConnector) at(title);
    at(DASHBOARD_TITLES.canaries);
    // Order: the money row, then the connectors, then the API's own panels.
    expect(at('Is money flowing?')).toBeLessThan(at(`Connector: ${connectors[0]}`));
    expect(Math.max(...top.map(at))).toBeLessThan(at(DASHBOARD_TITLES.connectorSuccessRate(connectors[0]!)));
    expect(at(DASHBOARD_TITLES.connectorRefundFailures(connectors.at(-1)!))).toBeLessThan(
      at(DASHBOARD_TITLES.connectorAccountTechnicalErrors),
    );
    expect(at(DASHBOARD_TITLES.connectorAccountTechnicalErrors)).toBeLessThan(at(DASHBOARD_TITLES.accountAuthorizationRate));
    expect(at(DASHBOARD_TITLES.accountAuthorizationRate)).toBeLessThan(at(DASHBOARD_TITLES.accountAuthorizationShortfall));
    expect(at(DASHBOARD_TITLES.accountAuthorizationShortfall)).toBeLessThan(at('API Gateway'));
    // The per-account panels chart the queries the alarm and the rate are defined by.
    expect(text).toContain(JSON.stringify(accountAuthorizationRateQuery(`Switchyard/${stage}`, 'switchyard')).slice(1, -1));
    expect(text).toContain(JSON.stringify(accountAuthorizationShortfallQuery(`Switchyard/${stage}`, 'switchyard')).slice(1, -1));
    // Every title says its unit.
    for (const title of [...top, ...perConnector, DASHBOARD_TITLES.canaries, DASHBOARD_TITLES.accountAuthorizationRate])
      expect(title).toMatch(/\((%|count|seconds|ms|0 closed)/);
    for (const metric of [
      BUSINESS_METRICS.paymentsCreated,
      BUSINESS_METRICS.paymentsSucceeded,
      BUSINESS_METRICS.paymentsFailed,
      BUSINESS_METRICS.authorizations,
      BUSINESS_METRICS.connectorCalls,
      BUSINESS_METRICS.connectorLatency,
      BUSINESS_METRICS.circuitState,
      BUSINESS_METRICS.circuitSkips,
      BUSINESS_METRICS.refundOutcomes,
      BUSINESS_METRICS.openOperations,
      BUSINESS_METRICS.oldestOpenOperationAge,
    ]) {
      expect(text).toContain(metric);
    }
    // The per-connector panels read their own connector's series.
    for (const c of connectors) expect(text).toContain(`"connector","${c}"`);
  });
});
