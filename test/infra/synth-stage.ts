import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../lib/switchyard-app';

/** A synthesized CloudFormation resource, as template assertions return it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

/**
 * Synthesizes a stage without bundling (esbuild is exercised by `cdk synth` in
 * cdk-cli-synth.test.ts, not here).
 * @returns the app and the templates of its data and API stacks
 */
export function synthStage(stage: string) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stacks = buildApp(app, stage);
  return { app, data: Template.fromStack(stacks.data), api: Template.fromStack(stacks.api) };
}

/**
 * The logical id of a function (not its log group, role or invoke config) in an API template.
 * @param name the function's construct id, e.g. `CreatePayment` or `Reconciler`
 */
export function functionId(api: Template, name: string): string {
  const ids = Object.keys(api.findResources('AWS::Lambda::Function')).filter((id) => id.startsWith(name) && /^[0-9A-F]{8}$/.test(id.slice(name.length)));
  if (ids.length !== 1) throw new Error(`expected one function ${name}, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}
