import { FAMILY_GROUPS, functionGroup, MAX_FUNCTIONS_PER_GROUP } from '../../lib/function-groups';
import { MAX_QUERY_LOG_GROUPS, SAVED_QUERIES } from '../../lib/monitoring/operations-queries';
import { ROUTES, type RouteDefinition } from '../../shared/api/routes';
import { cliShapedStage, measureLikeCli, type TemplateSize } from './cli-shaped-stage';

/**
 * Room to grow (docs/capacity.md "CloudFormation room"): every template of both stages, the API stack's nested stacks included
 * (each template file counted on its own), stays under 80 % of CloudFormation's per-template quotas,
 * with today's routes and with 45 more. "Resources: 500", "Outputs: 200", "Parameters: 200" per
 * template, "Template body size in an Amazon S3 object: 1 MB" (CloudFormation user guide,
 * "Understand CloudFormation quotas",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html; the CDK
 * uploads every template, nested ones included, to the bootstrap bucket, so the S3 limit applies).
 * Bytes are those of the template file as the app writes it, which is what is uploaded.
 *
 * The app is synthesized as `npx cdk synth` runs it (cdk.json, bin/switchyard.ts): path metadata on
 * every resource and the `AWS::CDK::Metadata` resource (the CLI's defaults), and the `service` tag.
 * Bundling is skipped: it changes asset hashes, not sizes. The test names carry the measured numbers. Today's dev and
 * prod are the run's shared CLI-shaped syntheses (test/infra/cli-shaped-stage.ts, which stacks.test.ts's cdk-nag check
 * reads too); the grown route table is synthesized here, once.
 */

const QUOTAS = { resources: 500, outputs: 200, parameters: 200, bytes: 1_000_000 } as const;
const SHARE = 0.8;

const percent = (value: number, quota: number) => `${Math.round((100 * value) / quota)} %`;
const describeSize = (t: TemplateSize) =>
  `${t.file}: ${t.resources} resources (${percent(t.resources, QUOTAS.resources)}), ${t.bytes.toLocaleString('en-US')} bytes (${percent(t.bytes, QUOTAS.bytes)}), ${t.outputs} outputs, ${t.parameters} parameters`;

/** Fails, naming the template and the count, when any template passes 80 % of a quota. */
function expectWithinBudget(sizes: TemplateSize[]): void {
  for (const t of sizes) {
    for (const key of ['resources', 'outputs', 'parameters', 'bytes'] as const) {
      expect({ template: t.file, [key]: t[key], within: t[key] <= QUOTAS[key] * SHARE }).toEqual({
        template: t.file,
        [key]: t[key],
        within: true,
      });
    }
  }
}

/**
 * Today's route table plus `count` routes: first the `payments` family grows until its group holds
 * {@link MAX_FUNCTIONS_PER_GROUP} functions (the largest a group may be), then a family that does not
 * exist (`growth_family`, a group of its own) takes the rest. Each added route is the heaviest kind: a
 * POST that writes, checks API keys and calls connectors (every grant and environment variable).
 */
function grownRoutes(count: number): RouteDefinition[] {
  const paymentsGroup = ROUTES.filter((r) => functionGroup(r) === FAMILY_GROUPS.payments).length;
  const intoPayments = Math.min(count, MAX_FUNCTIONS_PER_GROUP - paymentsGroup);
  const added = Array.from({ length: count }, (_, i): RouteDefinition => {
    const family = i < intoPayments ? 'payments/{payment_id}' : 'growth_family';
    return {
      method: 'POST',
      path: `/${family}/growth_${i}`,
      entry: 'functions/payments/confirm-payment.ts',
      name: `Growth${i}`,
      access: 'write',
      auth: true,
      connectors: true,
    };
  });
  return [...ROUTES, ...added];
}

const GROWTH = 45;
const measured = { dev: cliShapedStage('dev').sizes, prod: cliShapedStage('prod').sizes };
/** The grown dev stage: its template files measured, and the parent API template (JSON) the saved-query test reads. */
let grownApiTemplate: { Resources: Record<string, { Type: string; Properties: { Name: string; LogGroupNames: unknown[] } }> } | undefined;
const grown = measureLikeCli('dev', grownRoutes(GROWTH), false, (file, template) => {
  if (file === 'Switchyard-dev-Api.template.json') grownApiTemplate = template as typeof grownApiTemplate;
});

describe.each(['dev', 'prod'] as const)('%s: every template under 80 % of the per-template quotas', (stage) => {
  test.each(measured[stage].map((t) => [describeSize(t), t] as const))('%s', (_name, size) => {
    expectWithinBudget([size]);
  });
});

describe(`dev with ${GROWTH} more routes (the payments group filled to ${MAX_FUNCTIONS_PER_GROUP} functions, the rest in a new family): still under 80 %`, () => {
  test.each(grown.map((t) => [describeSize(t), t] as const))('%s', (_name, size) => {
    expectWithinBudget([size]);
  });

  test('a saved query over more than 50 log groups is split into parts of at most 50 (Logs Insights reads at most 50)', () => {
    // The grown stage's parent API template, which holds the saved queries.
    const queries = Object.values(grownApiTemplate!.Resources).filter((r) => r.Type === 'AWS::Logs::QueryDefinition');
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) expect(q.Properties.LogGroupNames.length).toBeLessThanOrEqual(MAX_QUERY_LOG_GROUPS);
    const connectorParts = queries.filter((q) => q.Properties.Name.startsWith(`switchyard-dev/${SAVED_QUERIES.connectorErrors.name}`));
    expect(connectorParts.map((q) => q.Properties.Name).sort()).toEqual([
      `switchyard-dev/${SAVED_QUERIES.connectorErrors.name} (1 of 2)`,
      `switchyard-dev/${SAVED_QUERIES.connectorErrors.name} (2 of 2)`,
    ]);
    const named = connectorParts.flatMap((q) => q.Properties.LogGroupNames.map((g) => JSON.stringify(g)));
    expect(new Set(named).size).toBe(named.length);
  });

  test('the added routes went where the grouping puts them: payments to its cap, the new family in a stack of its own', () => {
    const routes = grownRoutes(GROWTH);
    expect(routes.filter((r) => functionGroup(r) === 'Payments')).toHaveLength(MAX_FUNCTIONS_PER_GROUP);
    expect(routes.filter((r) => functionGroup(r) === 'GrowthFamily').length).toBeGreaterThan(0);
    expect(grown.filter((t) => t.file.includes('GrowthFamilyFunctions'))).toHaveLength(1);
    expect(grown.length).toBe(measured.dev.length + 1);
  });
});

test('the counts are of the deployed shape: one parent and one nested template per function group, besides the data stack', () => {
  for (const stage of ['dev', 'prod'] as const) {
    const files = measured[stage].map((t) => t.file);
    expect(files).toContain(`Switchyard-${stage}-Data.template.json`);
    expect(files).toContain(`Switchyard-${stage}-Api.template.json`);
    expect(files.filter((f) => f.endsWith('.nested.template.json')).length).toBeGreaterThanOrEqual(4);
    // Path metadata and version reporting, as `cdk synth` writes them.
    for (const t of measured[stage]) expect([t.file, t.cliShaped]).toEqual([t.file, true]);
  }
});
