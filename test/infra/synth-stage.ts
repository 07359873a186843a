import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { WEBHOOK_DELIVERY } from '../../lib/api-stack';
import { type BuildAppOptions, buildApp } from '../../lib/switchyard-app';

/** A synthesized CloudFormation resource, as template assertions return it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

/** A stand-in webhook delivery handler (test/infra/fixtures), for templates built before the real one exists. */
export const WEBHOOK_DELIVERY_STUB_ENTRY = 'test/infra/fixtures/webhook-delivery-stub.ts';

/** Whether the real webhook delivery handler exists (then `cdk synth` bundles and deploys it). */
export const webhookDeliveryHandlerExists = (): boolean => existsSync(resolve(process.cwd(), WEBHOOK_DELIVERY.entry));

/**
 * Synthesizes a stage without bundling (esbuild is exercised by `cdk synth` in
 * cdk-cli-synth.test.ts, not here). The webhook delivery function is always in it: the real
 * handler module when it exists, else {@link WEBHOOK_DELIVERY_STUB_ENTRY} (the module only
 * names the asset; templates are otherwise the same).
 * @returns the app and the templates of its data and API stacks
 */
export function synthStage(stage: string, options: BuildAppOptions = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const webhookDeliveryEntry =
    options.webhookDeliveryEntry ?? (webhookDeliveryHandlerExists() ? WEBHOOK_DELIVERY.entry : WEBHOOK_DELIVERY_STUB_ENTRY);
  const stacks = buildApp(app, stage, { ...options, webhookDeliveryEntry });
  return { app, data: Template.fromStack(stacks.data), api: Template.fromStack(stacks.api) };
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
