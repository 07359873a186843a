import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { build } from 'esbuild';
import { stageRoutes } from '../../lib/api/route-functions';
import { BILLING_WORKER, RECONCILER } from '../../lib/background/background-work';
import { staticOutputs } from '../../lib/cold-start-merge';
import { STAGES } from '../../lib/config/stage-config';
import { connectorAccountsKeyAlias, connectorAccountsKeyArnParameterName } from '../../lib/data-stack';
import { WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_WORKER } from '../../lib/delivery/webhook-delivery';
import { bundleFunction, FUNCTION_ESBUILD_OPTIONS, type FunctionBundle } from '../../lib/function-bundling';
import { FALLBACK_GROUP, functionGroup } from '../../lib/function-groups';
import { BUNDLE_ALIASES, FUNCTION_NODE_OPTIONS } from '../../lib/function-runtime';
import {
  CONNECTOR_ACCOUNTS_KEY_ACTIONS,
  CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE,
  usesConnectorAccountsKey,
} from '../../lib/functions/connector-accounts-key';
import { functionCode } from '../../lib/functions/function-code';
import { TABLE_ACTIONS } from '../../lib/functions/table-access';
import { functionGroupDashboardName } from '../../lib/monitoring/function-group-monitoring';
import { buildApp } from '../../lib/switchyard-app';
import { chooseMemory, MEASUREMENTS } from '../../scripts/capacity/lambda-memory';
import {
  answersHead,
  FALLBACK_ROUTE,
  isConnectorWebhookRoute,
  OPENAPI_DOCUMENT_FILE,
  REDOC_SCRIPT_FILE,
  ROUTES,
} from '../../shared/api/routes';
import { sourceMappedStack } from '../../shared/observability/source-mapped-stack';
import { KMS_KEY_ARN_VARIABLE } from '../../shared/security/credential-encryption';
import { DEFAULT_OPEN_INDEX_SHARDS } from '../../shared/storage/item-keys';
import { TABLE_DEFINITION } from '../../shared/storage/table-definition';
import { cliShapedStage } from './cli-shaped-stage';
import {
  alarmContext,
  functionId,
  type Resource,
  stageDashboard,
  synthStage,
  WEBHOOK_DELIVERY_STUB_ENTRY,
  webhookDeliveryHandlerExists,
} from './synth-stage';

/**
 * Functions besides one per route: the `$default` 404, the background reconciler, the renewal worker
 * (`BillingWorker`), and webhook delivery's two (the stream fan-out `WebhookDelivery` and the queue's
 * `WebhookDeliveryWorker`; see synthStage).
 */
const EXTRA_FUNCTIONS = 5;

const dev = synthStage('dev');
const prod = synthStage('prod');

/** The API reference routes: the contract, the page rendering it, and Redoc's bundle. */
const REFERENCE_ROUTES = ['OpenApiDocument', 'ApiReference', 'ApiReferenceScript'].map((name) => ROUTES.find((r) => r.name === name)!);

describe.each([
  ['dev', dev],
  ['prod', prod],
])('%s stage', (stage, t) => {
  /** The stage's routes: every route-table entry, less the sandbox pages where the stage has no sandbox (prod). */
  const ROUTES = stageRoutes(STAGES[stage]!);
  test('one Lambda function and one route per route-table entry the stage deploys, plus the $default 404 (and the reconciler and the two webhook delivery functions)', () => {
    t.api.resourceCountIs('AWS::Lambda::Function', ROUTES.length + EXTRA_FUNCTIONS);
    t.api.resourceCountIs('AWS::ApiGatewayV2::Route', ROUTES.length + ROUTES.filter(answersHead).length + 1);
    for (const r of ROUTES) t.api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${r.method} ${r.path}` });
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
  });

  test('HEAD: each public GET page has a HEAD route to the same function as its GET (an HTTP API route takes only its method)', () => {
    const routes = Object.values(t.api.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    const target = (key: string) => routes.find((r) => r.Properties.RouteKey === key)?.Properties.Target;
    const heads = ROUTES.filter(answersHead);
    expect(heads.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/health', '/openapi.json', '/docs', '/docs/redoc.standalone.js', '/pay/{payment_id}/authenticate']),
    );
    for (const route of heads) {
      expect(target(`HEAD ${route.path}`)).toBeDefined();
      expect(target(`HEAD ${route.path}`)).toEqual(target(`GET ${route.path}`));
    }
    // Nothing else answers HEAD: an authenticated GET keeps the $default 404 for it.
    expect(routes.filter((r) => String(r.Properties.RouteKey).startsWith('HEAD ')).length).toBe(heads.length);
  });

  test("memory: the stage's size, or the size the memory model chose for the function (docs/capacity.md, Lambda memory and cost; prod only)", () => {
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const chosen = STAGES[stage]!.functionMemoryMb ?? {};
    expect(Object.keys(chosen).length > 0).toBe(stage === 'prod');
    for (const route of ROUTES) {
      const fn = fns[functionId(t.api, route.name)]!;
      expect(fn.Properties.MemorySize).toBe(chosen[route.name] ?? STAGES[stage]!.lambdaMemoryMb);
    }
    if (stage === 'prod') {
      // Exactly the sizes the memory model chooses from the measurements (scripts/capacity/lambda-memory.ts),
      // where they differ from the stage's own size: a new measurement that changes a choice must change prod.
      const modeled = Object.fromEntries(
        MEASUREMENTS.map((m) => [m.functionName, chooseMemory(m).chosen.memoryMb] as const).filter(
          ([, mb]) => mb !== STAGES[stage]!.lambdaMemoryMb,
        ),
      );
      expect(Object.keys(modeled).length).toBeGreaterThan(0);
      expect(chosen).toEqual(modeled);
    }
  });

  test('the API reference routes: public GETs whose functions get no table statement, no secret and no api-key grant', () => {
    const policies = Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[];
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    for (const route of REFERENCE_ROUTES) {
      t.api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${route.method} ${route.path}` });
      const fn = fns[functionId(t.api, route.name)]!;
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = policies
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      const actions = statements.flatMap((st: { Action: string | string[] }) => [st.Action].flat());
      // X-Ray tracing only: nothing on DynamoDB or Secrets Manager.
      expect(actions.filter((a: string) => !a.startsWith('xray:'))).toEqual([]);
      const env = fn.Properties.Environment.Variables;
      expect([env.CARD_FINGERPRINT_SECRET_ID, env.CONNECTOR_SECRETS_ID, env.ROUTING_RULES]).toEqual([undefined, undefined, undefined]);
    }
  });

  test('every function: Node.js 22 on arm64, X-Ray tracing, Powertools and the table name in its environment', () => {
    const fns = Object.values(t.api.findResources('AWS::Lambda::Function')) as Resource[];
    expect(fns).toHaveLength(ROUTES.length + EXTRA_FUNCTIONS);
    for (const fn of fns) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect([STAGES[stage]!.lambdaMemoryMb, ...Object.values(STAGES[stage]!.functionMemoryMb ?? {})]).toContain(fn.Properties.MemorySize);
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TABLE_NAME: `switchyard-${stage}`,
        POWERTOOLS_SERVICE_NAME: 'switchyard',
        POWERTOOLS_METRICS_NAMESPACE: `Switchyard/${stage}`,
      });
      // Cold start: no --enable-source-maps (Node would decode the whole map before the
      // handler runs); logged errors are source-mapped lazily from index.mjs.map instead.
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe(FUNCTION_NODE_OPTIONS);
      expect(String(fn.Properties.Environment.Variables.NODE_OPTIONS ?? '')).not.toContain('--enable-source-maps');
    }
  });

  test('the table equals the shared definition: keys, indexes, TTL, on-demand, PITR, AWS-managed encryption', () => {
    const tables = Object.values(t.data.findResources('AWS::DynamoDB::GlobalTable')) as Resource[];
    expect(tables).toHaveLength(1);
    const p = tables[0]!.Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: TABLE_DEFINITION.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: TABLE_DEFINITION.sortKey.name, KeyType: 'RANGE' },
    ]);
    expect(p.GlobalSecondaryIndexes).toEqual(
      TABLE_DEFINITION.globalSecondaryIndexes.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: g.sortKey.name, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true });
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    // The stream feeds webhook delivery: new images only.
    expect(p.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(p.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    // AWS-managed key (alias/aws/dynamodb): encryption on, no customer key named.
    expect(p.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
    expect(JSON.stringify(p)).not.toContain('KMSMasterKeyId');
  });

  test('no IAM statement has a wildcard action; read-only routes get only read actions; the reconciler gets exactly its table actions', () => {
    const policies = t.api.findResources('AWS::IAM::Policy') as Record<string, Resource>;
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource & { Properties: any }>;
    const roleOf = (fnId: string) => fns[fnId]!.Properties.Role['Fn::GetAtt'][0];
    type Statement = { Action: string | string[]; Condition?: Record<string, any> };
    const isDynamo = (s: Statement) => [s.Action].flat().every((a) => a.startsWith('dynamodb:'));
    const statementsOfRole = (roleId: string): Statement[] =>
      Object.values(policies)
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
    // Table access proper: statements without a leading-key condition.
    const actionsOfRole = (roleId: string) =>
      statementsOfRole(roleId)
        .filter((s) => !s.Condition)
        .flatMap((s) => [s.Action].flat());
    const all = Object.values(policies).flatMap((p) =>
      p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()),
    );
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) expect(a).not.toContain('*');
    for (const route of ROUTES) {
      const fnId = functionId(t.api, route.name);
      const dynamo = actionsOfRole(roleOf(fnId)).filter((a: string) => a.startsWith('dynamodb:'));
      expect(dynamo.sort()).toEqual([...TABLE_ACTIONS[route.access]].sort());
      // Authenticated routes may also note a key's last use and lease rate-limit tokens, on API-key
      // and rate-limit counter items only (read-only routes included: a GET is rate limited too).
      const conditional = statementsOfRole(roleOf(fnId)).filter((s) => s.Condition && isDynamo(s));
      expect(conditional).toHaveLength(route.auth ? 1 : 0);
      if (route.auth) {
        expect(conditional[0]).toMatchObject({
          Action: 'dynamodb:UpdateItem',
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'RATELIMIT#*'] } },
        });
      }
    }
    // The reconciler: reads, conditional writes and TransactWriteItems' per-item actions; no API-key statement.
    const reconcilerRole = roleOf(functionId(t.api, RECONCILER.name));
    const reconcilerDynamo = actionsOfRole(reconcilerRole).filter((a: string) => a.startsWith('dynamodb:'));
    expect(reconcilerDynamo.sort()).toEqual(
      [
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ].sort(),
    );
    expect([...TABLE_ACTIONS.settle].sort()).toEqual(reconcilerDynamo);
    expect(statementsOfRole(reconcilerRole).filter((s) => s.Condition && isDynamo(s))).toHaveLength(0);
  });

  test('every function gets the stage open-operations index shard count; prod has room for 10,000 payments/s', () => {
    for (const [stage, synth] of [
      ['dev', dev],
      ['prod', prod],
    ] as const) {
      const fns = Object.values(synth.api.findResources('AWS::Lambda::Function') as Record<string, Resource & { Properties: any }>);
      const ours = fns.filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
      expect(ours.length).toBeGreaterThan(20);
      for (const f of ours) expect(f.Properties.Environment.Variables.OPEN_INDEX_SHARDS).toBe(String(STAGES[stage]!.openIndexShards));
    }
    // docs/capacity.md: 129 shards keep GSI5 at or under 50 % at 10,000 payments/s.
    expect(STAGES.prod!.openIndexShards).toBeGreaterThanOrEqual(129);
    expect(STAGES.dev!.openIndexShards).toBe(DEFAULT_OPEN_INDEX_SHARDS);
  });

  test('HTTP API stage: throttling from the stage config and JSON access logs with retention', () => {
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({
        ThrottlingRateLimit: STAGES[stage]!.throttle.rateLimit,
        ThrottlingBurstLimit: STAGES[stage]!.throttle.burstLimit,
      }),
      AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') }),
    });
    const groups = Object.values(t.api.findResources('AWS::Logs::LogGroup')) as Resource[];
    expect(groups.length).toBe(ROUTES.length + EXTRA_FUNCTIONS + 1); // one per function + access logs
    for (const g of groups) expect(g.Properties.RetentionInDays).toBe(STAGES[stage]!.logRetentionDays);
  });

  test('a dashboard, and alarms on 5xx rate, p99 latency, Lambda errors and throttles, DynamoDB throttles, all to the alarm topic', () => {
    // The stage dashboard, and one per function group (lib/function-groups.ts) with its functions' panels.
    const groups = new Set(ROUTES.map(functionGroup)).add(FALLBACK_GROUP);
    t.api.resourceCountIs('AWS::CloudWatch::Dashboard', 1 + groups.size);
    t.apiParent.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    for (const [group, template] of t.groups) {
      template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: functionGroupDashboardName(stage, group) });
    }
    expect([...t.groups.keys()].sort()).toEqual([...groups].sort());
    t.api.resourceCountIs('AWS::SNS::Topic', 1);
    const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const topicId = Object.keys(t.api.findResources('AWS::SNS::Topic'))[0];
    for (const a of alarms) expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const metricNames = (a: Resource) => JSON.stringify(a.Properties.Metrics ?? a.Properties.MetricName ?? '');
    const count = (re: RegExp) => alarms.filter((a) => re.test(metricNames(a))).length;
    expect(count(/"MetricName":"5xx"/)).toBe(1);
    expect(alarms.filter((a) => /Latency-P99/.test(String(a.Properties.AlarmName)))).toHaveLength(1);
    expect(count(/"MetricName":"Errors"/)).toBe(ROUTES.length + EXTRA_FUNCTIONS);
    expect(count(/"MetricName":"Throttles"/)).toBe(ROUTES.length + EXTRA_FUNCTIONS);
    expect(count(/"MetricName":"ReadThrottleEvents"|"MetricName":"WriteThrottleEvents"|ThrottledRequests/)).toBeGreaterThanOrEqual(2);
    // A route function's alarms are in its group's stack, named after the group (never moved between
    // stacks under one name); the background functions' stay in the parent under their names.
    const alarmNames = alarms.map((a) => String(a.Properties.AlarmName));
    const routeFunctions = [
      ...ROUTES.map((r) => ({ name: r.name, group: functionGroup(r) })),
      { name: FALLBACK_ROUTE.name, group: FALLBACK_GROUP },
    ];
    for (const { name: fn, group } of routeFunctions) {
      for (const suffix of ['Fault-Count-Critical', 'Throttled-Count-Warning']) {
        const name = `Switchyard-${stage}-${group}-${fn}-${suffix}`;
        expect(alarmNames).toContain(name);
        t.groups.get(group)!.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: name });
      }
    }
    for (const name of [RECONCILER.name, BILLING_WORKER.name, WEBHOOK_DELIVERY.name, WEBHOOK_DELIVERY_WORKER.name]) {
      for (const suffix of ['Fault-Count-Critical', 'Throttled-Count-Warning']) {
        t.apiParent.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `Switchyard-${stage}-${name}-${suffix}` });
      }
    }
    const body = (d: Resource) => JSON.stringify(d.Properties.DashboardBody);
    const stageBody = body(stageDashboard(t.api, stage));
    for (const metric of [
      'PaymentsSucceeded',
      'PaymentsFailed',
      'Refunds',
      'RefundedAmountMinor',
      'ConnectorLatency',
      'ReadThrottleEvents',
      'ConsumedReadCapacityUnits',
      'SuccessfulRequestLatency',
      'ConcurrentExecutions',
      '5xx',
      '4xx',
      'p50',
      'p90',
      'p99',
    ]) {
      expect(stageBody).toContain(metric);
    }
    // The stage dashboard links every group dashboard; each group dashboard charts its functions.
    for (const [group, template] of t.groups) {
      expect(stageBody).toContain(`#dashboards:name=${functionGroupDashboardName(stage, group)}`);
      const groupBody = body(Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0] as Resource);
      for (const metric of ['Invocations', 'Errors', 'Throttles', 'ConcurrentExecutions', 'Duration']) expect(groupBody).toContain(metric);
      const members = ROUTES.filter((r) => functionGroup(r) === group).map((r) => r.name);
      for (const name of group === FALLBACK_GROUP ? [...members, FALLBACK_ROUTE.name] : members) expect(groupBody).toContain(`**[${name}]`);
    }
  });

  test('the keyed-hash key is a generated secret, readable only by the POST functions, the reconciler and the webhook delivery worker', () => {
    t.data.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: `switchyard-${stage}/card-fingerprint-key`,
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    for (const route of ROUTES) {
      const fn = fns[functionId(t.api, route.name)]!;
      const env = fn.Properties.Environment.Variables;
      // A POST, or a GET that signs or checks with the key (a payment link's checkout page, its return, the profile).
      const keyed = route.method === 'POST' || route.keyedHashes === true;
      expect(env.CARD_FINGERPRINT_SECRET_ID).toBe(keyed ? `switchyard-${stage}/card-fingerprint-key` : undefined);
    }
    expect(fns[functionId(t.api, RECONCILER.name)]!.Properties.Environment.Variables.CARD_FINGERPRINT_SECRET_ID).toBe(
      `switchyard-${stage}/card-fingerprint-key`,
    );
    // The worker signs (endpoint secrets are stored encrypted under the key); the stream fan-out only queues.
    expect(fns[functionId(t.api, WEBHOOK_DELIVERY_WORKER.name)]!.Properties.Environment.Variables.CARD_FINGERPRINT_SECRET_ID).toBe(
      `switchyard-${stage}/card-fingerprint-key`,
    );
    expect(fns[functionId(t.api, WEBHOOK_DELIVERY.name)]!.Properties.Environment.Variables.CARD_FINGERPRINT_SECRET_ID).toBeUndefined();
    // Read grants of the key: exactly the functions that name it in their environment.
    const policies = Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[];
    const readsKey = (fn: Resource) => {
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      return policies
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .some(
          (st) =>
            [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(st.Resource).includes(`:secret:switchyard-${stage}/card-fingerprint-key-??????`),
        );
    };
    const readers = Object.entries(fns)
      .filter(([, fn]) => readsKey(fn))
      .map(([id]) => id)
      .sort();
    const named = Object.entries(fns)
      .filter(([, fn]) => fn.Properties.Environment.Variables.CARD_FINGERPRINT_SECRET_ID)
      .map(([id]) => id)
      .sort();
    expect(readers).toEqual(named);
    expect(readers).toContain(functionId(t.api, WEBHOOK_DELIVERY_WORKER.name));
    expect(readers).not.toContain(functionId(t.api, WEBHOOK_DELIVERY.name));
    // No secret value in the template. The sandbox payment canary's inline script (dev) reads its
    // API key's SecretString at run time, by the secret's name: its code is checked on its own.
    const template = JSON.parse(JSON.stringify(t.api.toJSON())); // a copy: the template is shared by the tests
    const scripts: string[] = [];
    for (const r of Object.values(template.Resources as Record<string, Resource>)) {
      if (r.Type !== 'AWS::Synthetics::Canary') continue;
      scripts.push(r.Properties.Code.Script);
      r.Properties.Code.Script = '<canary script>';
    }
    expect(JSON.stringify(template)).not.toMatch(/SecretString|secretValue/);
    for (const script of scripts) expect(script).not.toMatch(/sk_(test|live)_[A-Za-z0-9]|secretValue/);
  });

  test('functions that call connectors (the reconciler too) get the stage routing rules and the processors-keys secret; others do not', () => {
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    for (const route of ROUTES) {
      const fn = fns[functionId(t.api, route.name)]!;
      const env = fn.Properties.Environment.Variables;
      if (route.connectors) {
        expect(JSON.parse(env.ROUTING_RULES)).toEqual(STAGES[stage]!.routingRules);
        expect(env.CONNECTOR_SECRETS_ID).toBe(`switchyard-${stage}/connectors`);
      } else {
        expect(env.ROUTING_RULES).toBeUndefined();
        expect(env.CONNECTOR_SECRETS_ID).toBeUndefined();
      }
    }
    const reconcilerEnv = fns[functionId(t.api, RECONCILER.name)]!.Properties.Environment.Variables;
    expect(JSON.parse(reconcilerEnv.ROUTING_RULES)).toEqual(STAGES[stage]!.routingRules);
    expect(reconcilerEnv.CONNECTOR_SECRETS_ID).toBe(`switchyard-${stage}/connectors`);
    t.data.hasResourceProperties('AWS::SecretsManager::Secret', { Name: `switchyard-${stage}/connectors` });
  });

  test('the connector-accounts KMS key: a customer-managed key with rotation, retained where the table is, its ARN in an SSM parameter', () => {
    const keys = t.data.findResources('AWS::KMS::Key') as Record<string, Resource & { UpdateReplacePolicy?: string }>;
    expect(Object.keys(keys)).toHaveLength(1);
    const [keyId, key] = Object.entries(keys)[0]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect([key.DeletionPolicy, key.UpdateReplacePolicy]).toEqual(stage === 'prod' ? ['Retain', 'Retain'] : ['Delete', 'Delete']);
    expect(STAGES[stage]!.tableRemoval).toBe(stage === 'prod' ? 'RETAIN' : 'DESTROY');
    t.data.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: connectorAccountsKeyAlias(stage),
      TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    t.data.hasResourceProperties('AWS::SSM::Parameter', {
      Name: connectorAccountsKeyArnParameterName(stage),
      Type: 'String',
      Value: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    t.data.hasOutput('ConnectorAccountsKeyArn', { Value: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    // The API stack resolves that parameter at deploy time (no CloudFormation export).
    expect(t.apiParent.toJSON().Parameters[keyParameterId(t.apiParent)]).toEqual({
      Type: 'AWS::SSM::Parameter::Value<String>',
      Default: connectorAccountsKeyArnParameterName(stage),
    });
  });

  test("the connector-accounts key: its ARN and GenerateDataKey + Decrypt, bound to an account's encryption context, only for the functions that call connectors, the processors' webhook receivers and the reconciler", () => {
    const fns = t.api.findResources('AWS::Lambda::Function') as Record<string, Resource>;
    const policies = Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[];
    type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Condition?: unknown };
    const statementsOf = (fnId: string): Statement[] => {
      const role = fns[fnId]!.Properties.Role['Fn::GetAtt'][0];
      return policies
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
    };
    const isKms = (st: Statement) => [st.Action].flat().some((a) => a.startsWith('kms:'));
    const keyArn = { Ref: keyParameterId(t.apiParent) };
    const expected = {
      Effect: 'Allow',
      Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
      Resource: keyArn,
      Condition: {
        Null: { 'kms:EncryptionContext:merchant_id': 'false', 'kms:EncryptionContext:merchant_connector_id': 'false' },
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['merchant_id', 'merchant_connector_id', 'aws-crypto-public-key'] },
      },
    };
    expect([...CONNECTOR_ACCOUNTS_KEY_ACTIONS]).toEqual(expected.Action);
    // The name the credential code reads (shared/security/credential-encryption.ts).
    expect(CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE).toBe('CONNECTOR_ACCOUNTS_KMS_KEY_ARN');
    expect(CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE).toBe(KMS_KEY_ARN_VARIABLE);
    // Who gets it: every route with connectors: true, the processors' webhook receivers, the reconciler.
    const webhookReceivers = ROUTES.filter(isConnectorWebhookRoute);
    expect(webhookReceivers.length).toBeGreaterThan(0);
    const granted = new Set([
      ...ROUTES.filter((r) => r.connectors).map((r) => r.name),
      ...webhookReceivers.map((r) => r.name),
      RECONCILER.name,
      // The renewal worker charges saved methods through merchants' accounts.
      BILLING_WORKER.name,
    ]);
    for (const route of ROUTES) expect(usesConnectorAccountsKey(route)).toBe(granted.has(route.name));
    const everyFunction = [
      ...ROUTES.map((r) => r.name),
      FALLBACK_ROUTE.name,
      RECONCILER.name,
      BILLING_WORKER.name,
      WEBHOOK_DELIVERY.name,
      WEBHOOK_DELIVERY_WORKER.name,
    ];
    expect(Object.keys(fns)).toHaveLength(everyFunction.length);
    for (const name of everyFunction) {
      const fnId = functionId(t.api, name);
      const env = fns[fnId]!.Properties.Environment.Variables;
      const kms = statementsOf(fnId).filter(isKms);
      if (granted.has(name)) {
        expect([name, env.CONNECTOR_ACCOUNTS_KMS_KEY_ARN]).toEqual([name, keyArn]);
        expect(kms).toEqual([expected]);
      } else {
        expect([name, env.CONNECTOR_ACCOUNTS_KMS_KEY_ARN]).toEqual([name, undefined]);
        expect([name, kms]).toEqual([name, []]);
      }
    }
    // No other role of the stage (canaries, the scheduler) has any KMS action; kms:Encrypt nowhere.
    const allKms = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]).filter(isKms);
    expect(allKms).toHaveLength(granted.size);
    expect(allKms.flatMap((st) => [st.Action].flat())).not.toContain('kms:Encrypt');
  });

  test("outputs: API URL, dashboard URL, alarm topic, table name, the reconciler schedule's dead-letter queue, webhook delivery's on-failure and dead-letter queues, the table stream", () => {
    for (const name of [
      'ApiUrl',
      'DashboardUrl',
      'AlarmTopicArn',
      'TableName',
      'ReconcilerDeadLetterQueueUrl',
      'WebhookDeliveryFailureQueueUrl',
      'WebhookDeliveryDeadLetterQueueUrl',
    ])
      t.api.hasOutput(name, {});
    t.data.hasOutput('TableName', {});
    t.data.hasOutput('TableStreamArn', {});
  });
});

describe('bundling (cold start)', () => {
  test('source maps without sourcesContent; the AWS SDK inside, its credential chain aliased to the environment-only provider; split', () => {
    expect(FUNCTION_ESBUILD_OPTIONS).toMatchObject({
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      format: 'esm',
      splitting: true,
    });
    expect(FUNCTION_ESBUILD_OPTIONS).not.toHaveProperty('external');
    const aliases = {
      '@aws-sdk/credential-provider-node': './lib/lambda-env-credentials.ts',
      '@aws-crypto/client-node': './lib/aws-crypto-client-node.ts',
    };
    expect(FUNCTION_ESBUILD_OPTIONS.alias).toEqual(aliases);
    expect(BUNDLE_ALIASES).toEqual(aliases);
  });

  test('split as deployed: connectors and the Encryption SDK in chunks loaded on first use, which work from the bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-split-'));
    try {
      const entry = join(dir, 'entry.ts');
      // A handler module that reaches a connector and the Encryption SDK only through the shared code's own imports.
      writeFileSync(
        entry,
        `import { connectorWithCredentials } from ${JSON.stringify(resolve('shared/processor-call/connector-registry'))};
import { decryptCredentials, encryptCredentials } from ${JSON.stringify(resolve('shared/security/credential-encryption'))};
export async function handler() {
  const context = { merchant_id: 'mer_split', merchant_connector_id: 'mca_split' };
  const sealed = await encryptCredentials({ api_key: 'sk_test_split' }, context);
  const opened = await decryptCredentials(sealed, context);
  const adapter = await connectorWithCredentials('paystack', opened);
  return { name: adapter?.name, sealedLength: sealed.length, same: opened.api_key === 'sk_test_split' };
}
`,
      );
      const out = join(dir, 'out');
      const built = bundleFunction(process.cwd(), entry, out);
      // The source files in what a cold start of a bundle loads.
      const coldStartInputs = (b: FunctionBundle) =>
        staticOutputs(b.metafile).flatMap((key) => Object.keys(b.metafile.outputs[key]!.inputs));
      const staticInputs = coldStartInputs(built);
      // What a cold start loads holds neither a connector's adapter nor the Encryption SDK ...
      expect(staticInputs.filter((i) => /connectors\/(paystack|stripe|flutterwave|sandbox)\//.test(i))).toEqual([]);
      expect(staticInputs.filter((i) => i.includes('node_modules/@aws-crypto/'))).toEqual([]);
      // The payment handler itself, as deployed: none of them, and no billing or webhook HTTP client either.
      const payment = bundleFunction(process.cwd(), 'functions/payments/create-payment.ts', join(dir, 'create'));
      const paymentInputs = coldStartInputs(payment);
      expect(paymentInputs.some((i) => i.endsWith('shared/operations/payments/create-payment.ts'))).toBe(true);
      expect(
        paymentInputs.filter((i) =>
          /connectors\/(paystack|stripe|flutterwave|sandbox)\/|node_modules\/@aws-crypto\/|node_modules\/undici\/|operations\/billing\/invoice-collection/.test(
            i,
          ),
        ),
      ).toEqual([]);
      // ... which are chunks of their own, named in the entry.
      const entrySource = readFileSync(built.entryFile, 'utf8');
      expect(entrySource).toMatch(/"\.\/paystack-connector-[A-Z0-9]+\.mjs"/);
      // Both load and work from the bundle, as Lambda runs it (no node_modules beside it).
      const run = promisify(execFile);
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { handler } = await import(${JSON.stringify(built.entryFile)}); console.log(JSON.stringify(await handler()));`,
        ],
        {
          cwd: tmpdir(),
          env: {
            PATH: process.env.PATH ?? '',
            CONNECTOR_ACCOUNTS_LOCAL_KEY: Buffer.alloc(32, 7).toString('base64'),
            POWERTOOLS_LOG_LEVEL: 'ERROR',
          },
        },
      );
      const answer = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(answer).toMatchObject({ name: 'paystack', same: true });
      expect(answer.sealedLength).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('without --enable-source-maps, stack frames of a bundle are mapped back to the TypeScript source on demand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-stack-map-'));
    try {
      const source = join(dir, 'failing.ts');
      writeFileSync(source, 'export function fail(): never {\n  throw new Error("boom");\n}\n');
      // The source map as the stack writes it: mappings only (sourcesContent false).
      await build({
        entryPoints: [source],
        outfile: join(dir, 'index.mjs'),
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        sourcemap: true,
        sourcesContent: false,
        logLevel: 'silent',
      });
      const run = promisify(execFile);
      const { stdout } = await run(process.execPath, [
        '--input-type=module',
        '-e',
        `import { fail } from ${JSON.stringify(join(dir, 'index.mjs'))}; try { fail(); } catch (e) { console.log(e.stack); }`,
      ]);
      expect(stdout).toMatch(/index\.mjs:1:\d+/);
      expect(sourceMappedStack(stdout, dir)).toMatch(/failing\.ts:2:\d+/);
      // Outside the given root (and outside Lambda, without LAMBDA_TASK_ROOT) nothing is rewritten.
      expect(sourceMappedStack(stdout, join(dir, 'elsewhere'))).toBe(stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the environment-only provider reads the variables Lambda sets and refuses when they are missing', async () => {
    const { defaultProvider } = await import('../../lib/lambda-env-credentials');
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' });
      await expect(defaultProvider({})()).resolves.toMatchObject({
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
        sessionToken: 'token',
      });
      delete process.env.AWS_ACCESS_KEY_ID;
      await expect(defaultProvider({})()).rejects.toMatchObject({ name: 'CredentialsProviderError' });
    } finally {
      process.env = saved;
    }
  });
});

describe('the API reference routes in the route table', () => {
  test('GET /openapi.json, GET /docs and GET /docs/redoc.standalone.js: public, no table access, no connectors', () => {
    expect(REFERENCE_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /openapi.json',
      'GET /docs',
      'GET /docs/redoc.standalone.js',
    ]);
    for (const route of REFERENCE_ROUTES) expect(route).toMatchObject({ access: 'none', auth: false, connectors: false });
    expect(TABLE_ACTIONS.none).toEqual([]);
    expect(REFERENCE_ROUTES.map((r) => r.assets ?? [])).toEqual([[OPENAPI_DOCUMENT_FILE], [], [REDOC_SCRIPT_FILE]]);
    // Only these routes carry assets, and every asset exists in the repository.
    expect(ROUTES.filter((r) => r.assets?.length).map((r) => r.name)).toEqual(['OpenApiDocument', 'ApiReferenceScript']);
    for (const file of [OPENAPI_DOCUMENT_FILE, REDOC_SCRIPT_FILE]) expect(readFileSync(resolve(file)).length).toBeGreaterThan(0);
  });

  test('bundled as the stack bundles them (esbuild, functionCode): index.mjs plus the assets, which the bundled handlers serve', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'switchyard-reference-bundle-'));
    try {
      const app = new App({ outdir });
      const stack = new Stack(app, 'ReferenceBundles');
      for (const route of REFERENCE_ROUTES) {
        new LambdaFunction(stack, route.name, {
          code: functionCode(process.cwd(), route.entry, route.assets),
          handler: 'index.handler',
          runtime: Runtime.NODEJS_22_X,
        });
      }
      app.synth();
      const fns = Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, Resource>;
      const run = promisify(execFile);
      for (const route of REFERENCE_ROUTES) {
        const fn = Object.entries(fns).find(([id]) => functionIdMatches(id, route.name))![1];
        const dir = join(outdir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`);
        const assets = route.assets ?? [];
        expect(
          readdirSync(dir)
            // Chunks loaded on first use sit beside the entry, named by esbuild `<name>-<hash>.mjs` (lib/function-bundling.ts).
            .filter((f) => !/-[A-Z0-9]{8}\.mjs(\.map)?$/.test(f))
            .sort(),
        ).toEqual(['index.mjs', 'index.mjs.map', ...assets.map((a) => basename(a))].sort());
        for (const file of assets) expect(readFileSync(join(dir, basename(file))).equals(readFileSync(resolve(file)))).toBe(true);
        // The bundle itself, run as Lambda runs it (LAMBDA_TASK_ROOT = the code's directory, no node_modules).
        const invoke = `const { handler } = await import(${JSON.stringify(join(dir, 'index.mjs'))});
          const r = await handler({ version: '2.0', rawPath: ${JSON.stringify(route.path)}, headers: {}, requestContext: { requestId: 'r', http: { method: 'GET', path: ${JSON.stringify(route.path)} } } }, {});
          console.log(JSON.stringify({ status: r.statusCode, type: r.headers['content-type'], sha: (await import('node:crypto')).createHash('sha256').update(r.body).digest('hex') }));`;
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', invoke], {
          cwd: tmpdir(),
          env: { PATH: process.env.PATH ?? '', LAMBDA_TASK_ROOT: dir, POWERTOOLS_LOG_LEVEL: 'ERROR' },
        });
        const answer = JSON.parse(stdout.trim().split('\n').pop()!);
        expect(answer.status).toBe(200);
        if (assets[0]) {
          expect(answer.sha).toBe(
            createHash('sha256')
              .update(readFileSync(resolve(assets[0])))
              .digest('hex'),
          );
          expect(answer.type).toBe(assets[0] === REDOC_SCRIPT_FILE ? 'text/javascript; charset=utf-8' : 'application/json');
        } else {
          expect(answer.type).toBe('text/html; charset=utf-8');
        }
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 240_000);
});

/** The parent API template's parameter resolving the connector-accounts key ARN from SSM. */
function keyParameterId(apiParent: Template): string {
  const ids = Object.keys(apiParent.toJSON().Parameters).filter((id) => /^SsmParameterValue.*connectoraccountskmskeyarn/i.test(id));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/** Whether a logical id is the function `name`'s (construct id + 8 hex digits; not `name`Logs, nor a longer name's). */
function functionIdMatches(id: string, name: string): boolean {
  return id.startsWith(name) && /^[0-9A-F]{8}$/.test(id.slice(name.length));
}

test('prod retains the table with deletion protection; dev destroys it', () => {
  const [prodTable] = Object.values(prod.data.findResources('AWS::DynamoDB::GlobalTable')) as Resource[];
  const [devTable] = Object.values(dev.data.findResources('AWS::DynamoDB::GlobalTable')) as Resource[];
  expect(prodTable!.DeletionPolicy).toBe('Retain');
  expect(prodTable!.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
  expect(devTable!.DeletionPolicy).toBe('Delete');
  expect(devTable!.Properties.Replicas[0].DeletionProtectionEnabled).toBe(false);
});

test('stack names carry the stage; an unknown stage is refused', () => {
  expect(() => buildApp(new App(), 'qa')).toThrow(/Unknown stage 'qa'/);
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...alarmContext('prod') } });
  const { data, api } = buildApp(app, 'prod');
  expect([data.stackName, api.stackName]).toEqual(['Switchyard-prod-Data', 'Switchyard-prod-Api']);
});

// The stage as found: the run's one CLI-shaped synthesis of it (test/infra/cli-shaped-stage.ts; capacity.test.ts
// measures its templates), cdk-nag included as bin/switchyard.ts applies it.
test.each([
  'dev',
  'prod',
])('cdk-nag AwsSolutions: zero unacknowledged findings (%s, as found (webhook delivery iff its handler exists))', (stage) => {
  expect(cliShapedStage(stage).nagFailure).toBeNull();
});

// Each case is a full synthesis with cdk-nag, run only when the real handler is missing (with the handler, 'as found'
// already synthesizes webhook delivery; the templates differ in the asset only). Both stages without webhook delivery
// are checked by test/infra/alarm-destinations.test.ts, whose dev and prod apps are built without it, cdk-nag included.
if (!webhookDeliveryHandlerExists()) {
  test.each([
    ['dev', 'with webhook delivery', WEBHOOK_DELIVERY_STUB_ENTRY],
    ['prod', 'with webhook delivery', WEBHOOK_DELIVERY_STUB_ENTRY],
  ] as const)('cdk-nag AwsSolutions: zero unacknowledged findings (%s, %s)', (stage, _label, webhookDeliveryEntry) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...alarmContext(stage) } });
    buildApp(app, stage, { webhookDeliveryEntry });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  });
}

test('cdk-nag would fail synthesis on an unacknowledged finding (the check above can fail)', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { api } = buildApp(app, 'dev');
  new (require('aws-cdk-lib/aws-sns').Topic)(api, 'UnencryptedTopicWithoutSslPolicy');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  expect(() => app.synth()).toThrow(/AwsSolutions-SNS3/);
});
