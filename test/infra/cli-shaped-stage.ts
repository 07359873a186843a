/**
 * A stage synthesized as `npx cdk synth` runs bin/switchyard.ts, without bundling: the CLI's context (path metadata,
 * version reporting), the `service` tag, and cdk-nag's AwsSolutions checks as a validation plugin. What two suites
 * assert on, from one synthesis per stage and run (test/infra/stage-template-cache.ts): the size of every template
 * file (test/infra/capacity.test.ts) and cdk-nag's verdict (test/infra/stacks.test.ts). cdk-nag only reads the app;
 * the templates are the same with it or without.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp, tagApp } from '../../lib/switchyard-app';
import type { RouteDefinition } from '../../shared/api/routes';
import { cachedForRun } from './stage-template-cache';
import { alarmContext, synthesisInputs } from './synth-stage';

/** What the CDK CLI adds to the app's context when it runs it (path metadata, version reporting); no bundling. */
export const CLI_CONTEXT = { 'aws:cdk:enable-path-metadata': true, 'aws:cdk:version-reporting': true, 'aws:cdk:bundling-stacks': [] };

/** One synthesized template file and its counts (sizes in bytes of the file as the app writes it). */
export interface TemplateSize {
  file: string;
  resources: number;
  outputs: number;
  parameters: number;
  bytes: number;
  /** Whether it is shaped as `cdk synth` writes it: an `AWS::CDK::Metadata` resource, `aws:cdk:path` on every resource. */
  cliShaped: boolean;
}

/** A stage synthesized as the CLI would ({@link cliShapedStage}). */
export interface CliShapedStage {
  /** Every template file of the assembly, by file name. */
  sizes: TemplateSize[];
  /**
   * cdk-nag's verdict: `null` when the synthesis passed the AwsSolutions checks (zero unacknowledged findings), else
   * the message of the error the synthesis threw (each finding: rule id, resource path).
   */
  nagFailure: string | null;
}

/**
 * Synthesizes a stage as the CLI would (see the module comment) and measures every template file of the assembly.
 * @param routes the route table (default shared/api/routes.ts)
 * @param nag whether cdk-nag's AwsSolutions checks run (then a finding throws, as the CLI's synthesis fails)
 * @param onTemplate called with each template file's name and parsed JSON, for assertions on what it holds
 * @returns each template file's counts
 * @throws what buildApp or the synthesis throws (cdk-nag's findings when `nag`)
 */
export function measureLikeCli(
  stage: string,
  routes?: readonly RouteDefinition[],
  nag = false,
  onTemplate?: (file: string, template: unknown) => void,
): TemplateSize[] {
  const app = new App({ context: { ...CLI_CONTEXT, ...alarmContext(stage) } });
  buildApp(app, stage, { routes });
  tagApp(app);
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const { directory } = app.synth();
  try {
    return readdirSync(directory)
      .filter((file) => file.endsWith('.template.json'))
      .sort()
      .map((file) => {
        const text = readFileSync(join(directory, file), 'utf8');
        const template = JSON.parse(text);
        onTemplate?.(file, template);
        const resources = Object.values(template.Resources ?? {}) as { Type: string; Metadata?: Record<string, unknown> }[];
        return {
          file,
          resources: Object.keys(template.Resources ?? {}).length,
          outputs: Object.keys(template.Outputs ?? {}).length,
          parameters: Object.keys(template.Parameters ?? {}).length,
          bytes: Buffer.byteLength(text),
          cliShaped:
            resources.some((r) => r.Type === 'AWS::CDK::Metadata') &&
            resources.every((r) => r.Type === 'AWS::CDK::Metadata' || typeof r.Metadata?.['aws:cdk:path'] === 'string'),
        };
      });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The stage's default app (today's routes; webhook delivery when its handler exists) synthesized as the CLI would,
 * cdk-nag included, once per jest run. When cdk-nag fails the synthesis, its message is kept and the stage is
 * synthesized again without it, so the sizes are still measured.
 * @throws what buildApp or a synthesis without cdk-nag throws
 */
export function cliShapedStage(stage: string): CliShapedStage {
  return cachedForRun(`cli-stage-${stage}`, synthesisInputs(), (): CliShapedStage => {
    try {
      return { sizes: measureLikeCli(stage, undefined, true), nagFailure: null };
    } catch (error) {
      return { sizes: measureLikeCli(stage), nagFailure: error instanceof Error ? error.message : String(error) };
    }
  });
}
