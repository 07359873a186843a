import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { App, type NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ALARM_DESTINATION_KEYS, STAGES } from '../../lib/config/stage-config';
import { WEBHOOK_DELIVERY } from '../../lib/delivery/webhook-delivery';
import { type BuildAppOptions, buildApp } from '../../lib/switchyard-app';
import { cachedForRun } from './stage-template-cache';

/** A synthesized CloudFormation resource, as template assertions return it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

/** A template as JSON. */
type TemplateJson = {
  Resources: Record<string, Resource & Record<string, unknown>>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown }>;
  [section: string]: unknown;
};

/**
 * The alarm destination tests synthesize stages with when the stage requires one (prod refuses to
 * synthesize without: lib/config/stage-config.ts, `withAlarmDestinations`): app context, as `-c` passes it.
 */
export const TEST_ALARM_CONTEXT = { alarmEmail: 'oncall@example.com' } as const;

/** {@link TEST_ALARM_CONTEXT} for a stage that requires an alarm destination, else nothing. */
export const alarmContext = (stage: string): Record<string, unknown> =>
  STAGES[stage]?.alarmDestinationRequired ? { ...TEST_ALARM_CONTEXT } : {};

/** A stand-in webhook delivery handler (test/infra/fixtures), for templates built before the real one exists. */
export const WEBHOOK_DELIVERY_STUB_ENTRY = 'test/infra/fixtures/webhook-delivery-stub.ts';

/** Whether the real webhook delivery handler exists (then `cdk synth` bundles and deploys it). */
export const webhookDeliveryHandlerExists = (): boolean => existsSync(resolve(process.cwd(), WEBHOOK_DELIVERY.entry));

/** The synthesized templates of one stage ({@link synthStage}). */
export interface SynthesizedStage {
  /** The data stack's template. */
  data: Template;
  /**
   * The API stack *flattened* ({@link flattenNestedStacks}): the parent template with every function
   * group's nested template merged in and the references between them resolved, so it reads like the
   * single API template before the split (a function's alarm names `{ Ref: <function id> }`, its role
   * policy names the parent's SSM parameter). For assertions on what the stage deploys as a whole.
   */
  api: Template;
  /** The parent API template alone (HTTP API, routes, stage dashboard, business alarms, background functions). */
  apiParent: Template;
  /** Each function group's nested template, by group name (lib/function-groups.ts). */
  groups: Map<string, Template>;
}

/** The templates of a {@link SynthesizedStage} as JSON, as the run's cache holds them (test/infra/stage-template-cache.ts). */
interface StageTemplatesJson {
  data: TemplateJson;
  api: TemplateJson;
  apiParent: TemplateJson;
  groups: [string, TemplateJson][];
}

/**
 * Synthesizes a stage without bundling (esbuild is exercised in cdk-cli-synth.test.ts and
 * stacks.test.ts, not here). The webhook delivery function is always in it: the real
 * handler module when it exists, else {@link WEBHOOK_DELIVERY_STUB_ENTRY} (the module only
 * names the asset; templates are otherwise the same). A stage that requires an alarm destination
 * (prod) gets {@link TEST_ALARM_CONTEXT} unless `context` says otherwise.
 *
 * Without options or context (what most infra suites assert on), each stage is synthesized once per jest run and
 * its templates shared between suites through test/infra/stage-template-cache.ts; with either, every call
 * synthesizes its own app.
 * @param context extra app context (e.g. what the CDK CLI sets: path metadata, version reporting)
 * @returns the templates of its data and API stacks (see {@link SynthesizedStage})
 * @throws what buildApp or the synthesis throws (an unknown stage, prod without an alarm destination in `context`)
 */
export function synthStage(stage: string, options: BuildAppOptions = {}, context: Record<string, unknown> = {}): SynthesizedStage {
  const json =
    Object.keys(options).length === 0 && Object.keys(context).length === 0
      ? cachedForRun(`stage-${stage}`, synthesisInputs(), () => synthesize(stage, {}, {}))
      : synthesize(stage, options, context);
  // Template.fromStack checked each synthesized template for cyclical dependencies (in synthesize); the flattened one
  // is a merge of them, never checked.
  const template = (t: TemplateJson) => Template.fromJSON(t, { skipCyclicalDependenciesCheck: true });
  return {
    data: template(json.data),
    api: template(json.api),
    apiParent: template(json.apiParent),
    groups: new Map(json.groups.map(([group, t]) => [group, template(t)])),
  };
}

/**
 * The environment lib/ reads while it synthesizes (lib/switchyard-app.ts: account and region; lib/config/stage-config.ts:
 * alarm destinations; lib/nag-acknowledgements.ts).
 */
const SYNTHESIS_ENV = [
  'CDK_DEFAULT_ACCOUNT',
  'CDK_DEFAULT_REGION',
  'NAG_SHOW_ALL',
  ...Object.values(ALARM_DESTINATION_KEYS).map((k) => k.env),
];

/** What, besides the code, a default synthesis depends on: {@link SYNTHESIS_ENV}'s values and whether the webhook delivery handler exists. */
export const synthesisInputs = () => [SYNTHESIS_ENV.map((k) => process.env[k] ?? null), webhookDeliveryHandlerExists()];

/** Builds and synthesizes the app (see {@link synthStage}); the templates as JSON. */
function synthesize(stage: string, options: BuildAppOptions, context: Record<string, unknown>): StageTemplatesJson {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...alarmContext(stage), ...context } });
  const webhookDeliveryEntry =
    options.webhookDeliveryEntry ?? (webhookDeliveryHandlerExists() ? WEBHOOK_DELIVERY.entry : WEBHOOK_DELIVERY_STUB_ENTRY);
  const stacks = buildApp(app, stage, { ...options, webhookDeliveryEntry });
  const apiParent = Template.fromStack(stacks.api).toJSON() as TemplateJson;
  const groups = [...stacks.api.functionGroups].map(
    ([group, nested]) => [group, Template.fromStack(nested).toJSON() as TemplateJson] as [string, TemplateJson],
  );
  const byGroup = new Map(groups);
  const nestedById = new Map(
    [...stacks.api.functionGroups].map(([group, nested]) => [nestedStackLogicalId(stacks.api, nested), byGroup.get(group)!]),
  );
  const api = flattenNestedStacks(apiParent, nestedById);
  return { data: Template.fromStack(stacks.data).toJSON() as TemplateJson, api, apiParent, groups };
}

/** The logical id, in its parent's template, of a nested stack's `AWS::CloudFormation::Stack` resource. */
function nestedStackLogicalId(parent: Stack, nested: NestedStack): string {
  return parent.resolve(nested.nestedStackResource!.logicalId) as string;
}

/** Whether `value` is a one-key object `{ [key]: … }` (an intrinsic function). */
const isIntrinsic = (value: unknown, key: string): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && key in value;

/** A deep copy of `value` with `replace` applied to every node (replacements are not visited again). */
function rewrite(value: unknown, replace: (node: unknown) => unknown | undefined): unknown {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, replace));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, replace)]));
  return value;
}

/**
 * One template equivalent to a parent and its nested stacks: the parent's resources (less the
 * `AWS::CloudFormation::Stack` resources) and each nested template's (less its `AWS::CDK::Metadata`),
 * with the references across the boundary resolved both ways: in the parent, `Fn::GetAtt` of a
 * nested stack's `Outputs.<name>` becomes that output's value; in a nested template, `Ref` of one of
 * its parameters becomes the value the parent passes for it. Logical ids must not collide.
 * @param nested each nested template by the logical id of its stack resource in the parent
 */
export function flattenNestedStacks(parent: TemplateJson, nested: Map<string, TemplateJson>): TemplateJson {
  const resources: TemplateJson['Resources'] = {};
  const fromNested = (id: string, node: unknown): unknown | undefined => {
    const template = nested.get(id)!;
    const params = (parent.Resources[id]!.Properties.Parameters ?? {}) as Record<string, unknown>;
    return rewrite(node, (n) =>
      isIntrinsic(n, 'Ref') && typeof n.Ref === 'string' && n.Ref in (template.Parameters ?? {}) ? params[n.Ref] : undefined,
    );
  };
  const inParent = (node: unknown): unknown =>
    rewrite(node, (n) => {
      if (!isIntrinsic(n, 'Fn::GetAtt')) return undefined;
      const [id, attribute] = n['Fn::GetAtt'] as [string, string];
      if (!nested.has(id) || !attribute.startsWith('Outputs.')) return undefined;
      const output = nested.get(id)!.Outputs?.[attribute.slice('Outputs.'.length)];
      if (!output) throw new Error(`nested stack ${id} has no output ${attribute}`);
      return fromNested(id, output.Value);
    });
  for (const [id, resource] of Object.entries(parent.Resources)) {
    if (nested.has(id)) continue;
    resources[id] = inParent(resource) as Resource;
  }
  for (const [stackId, template] of nested) {
    for (const [id, resource] of Object.entries(template.Resources)) {
      if (resource.Type === 'AWS::CDK::Metadata') continue;
      if (id in resources) throw new Error(`logical id ${id} is in the parent and in nested stack ${stackId}`);
      resources[id] = fromNested(stackId, resource) as Resource;
    }
  }
  return { ...parent, Resources: resources, Outputs: inParent(parent.Outputs ?? {}) as TemplateJson['Outputs'] };
}

/**
 * The logical id of a function (not its log group, role or invoke config) in an API template.
 * @param name the function's construct id, e.g. `CreatePayment` or `Reconciler`
 */
export function functionId(api: Template, name: string): string {
  const ids = Object.keys(api.findResources('AWS::Lambda::Function')).filter(
    (id) => id.startsWith(name) && /^[0-9A-F]{8}$/.test(id.slice(name.length)),
  );
  if (ids.length !== 1) throw new Error(`expected one function ${name}, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}

/** The stage dashboard (`Switchyard-<stage>`; not a function group's) of an API template. */
export function stageDashboard(api: Template, stage: string): Resource {
  const found = (Object.values(api.findResources('AWS::CloudWatch::Dashboard')) as Resource[]).filter(
    (d) => d.Properties.DashboardName === `Switchyard-${stage}`,
  );
  if (found.length !== 1) throw new Error(`expected one dashboard Switchyard-${stage}, found ${found.length}`);
  return found[0]!;
}
