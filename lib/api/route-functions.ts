import { NestedStack, type Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { FALLBACK_ROUTE, isSandboxRoute, ROUTES, type RouteDefinition, type RouteEnvironmentNeed } from '../../shared/api/routes';
import type { StageConfig } from '../config/stage-config';
import { FALLBACK_GROUP, functionGroup, groupRoutes } from '../function-groups';
import { usesConnectorAccountsKey } from '../functions/connector-accounts-key';
import type { FunctionFactory } from '../functions/function-factory';
import { acknowledgeNagFindings } from '../nag-acknowledgements';
import { FILES_BUCKET_VARIABLE, filesBucketAccess } from './files-bucket-access';

/**
 * The routes a stage deploys: every entry of shared/api/routes.ts, less the sandbox's own
 * ({@link isSandboxRoute}) where the stage has no sandbox (`sandbox: false`, prod).
 */
export function stageRoutes(config: Pick<StageConfig, 'sandbox'>, routes: readonly RouteDefinition[] = ROUTES): readonly RouteDefinition[] {
  return config.sandbox ? routes : routes.filter((route) => !isSandboxRoute(route));
}

/**
 * The environment a route's function gets for the stage settings its route definition names
 * (shared/api/route-definition.ts `environment`): `webhookRetrySchedule` → `WEBHOOK_RETRY_SCHEDULE_SECONDS`, the
 * stage's webhook retry schedule as comma-separated seconds.
 */
export function routeEnvironment(
  needs: readonly RouteEnvironmentNeed[],
  settings: { webhookRetrySchedule: string },
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const need of needs) {
    if (need === 'webhookRetrySchedule') environment.WEBHOOK_RETRY_SCHEDULE_SECONDS = settings.webhookRetrySchedule;
  }
  return environment;
}

/** One route's function, in its group's nested stack. */
export interface RouteFunction {
  route: RouteDefinition;
  /** Its function group (lib/function-groups.ts), i.e. its nested stack. */
  group: string;
  fn: LambdaFunction;
}

/** Props of {@link RouteFunctions}. */
export interface RouteFunctionsProps {
  config: StageConfig;
  /** Builds each function (lib/functions/function-factory.ts). */
  factory: FunctionFactory;
  /** The route table, before the stage's sandbox filter ({@link stageRoutes}); default shared/api/routes.ts's `ROUTES`. */
  routes?: readonly RouteDefinition[];
  /** Name of the evidence files bucket; absent: no function gets `FILES_BUCKET` or any S3 statement. */
  filesBucketName?: string;
}

/**
 * The route functions: one Lambda function per route the stage deploys ({@link stageRoutes}) plus the
 * `$default` 404 function ({@link FALLBACK_ROUTE}), each in its group's nested stack (one
 * `NestedStack` per function group, lib/function-groups.ts; the 404 in {@link FALLBACK_GROUP}), built
 * by the function factory from its route definition (table access, api-key checks, keyed hashes for
 * POSTs, connectors, the connector-accounts key, assets, the stage settings it names), and the
 * evidence files bucket statements of the routes that touch it ({@link filesBucketAccess}).
 *
 * The nested stacks are declared in the stack, not in this construct, so their logical ids (and those
 * of everything in them) are the ones the stack has always given them.
 */
export class RouteFunctions extends Construct {
  /** The nested stack of each function group, by group name. */
  readonly groupStacks: ReadonlyMap<string, NestedStack>;
  /** The route functions, in route table order. */
  readonly functions: readonly RouteFunction[];
  /** The `$default` route's function (404 for every path no route matches). */
  readonly notFound: LambdaFunction;

  constructor(scope: Stack, id: string, props: RouteFunctionsProps) {
    super(scope, id);
    const { config, factory } = props;
    const routes = stageRoutes(config, props.routes);
    const groups = groupRoutes(routes, { [FALLBACK_GROUP]: 1 });
    const groupStacks = new Map<string, NestedStack>();
    for (const group of groups.keys()) {
      groupStacks.set(
        group,
        new NestedStack(scope, `${group}Functions`, { description: `Switchyard ${config.stage}: ${group} functions of the HTTP API` }),
      );
    }
    this.groupStacks = groupStacks;
    const webhookRetrySchedule = config.webhookRetryScheduleSeconds.join(',');
    const functions = routes.map((route) => ({
      route,
      group: functionGroup(route),
      fn: factory.makeFunction(
        groupStacks.get(functionGroup(route))!,
        {
          name: route.name,
          entry: route.entry,
          access: route.access,
          apiKeys: route.auth,
          keyedHashes: route.method === 'POST' || route.keyedHashes === true,
          connectors: route.connectors,
          connectorAccountsKey: usesConnectorAccountsKey(route),
          assets: route.assets,
          ...(route.environment?.length ? { environment: routeEnvironment(route.environment, { webhookRetrySchedule }) } : {}),
        },
        functionGroup(route),
      ),
    }));
    this.functions = functions;
    this.notFound = factory.makeFunction(
      groupStacks.get(FALLBACK_GROUP)!,
      {
        name: FALLBACK_ROUTE.name,
        entry: FALLBACK_ROUTE.entry,
        access: 'none',
        apiKeys: false,
        keyedHashes: false,
        connectors: false,
        connectorAccountsKey: false,
      },
      FALLBACK_GROUP,
    );
    // Evidence files: each route function's own statement on the bucket's objects (filesBucketAccess).
    if (props.filesBucketName) {
      const filesObjects = scope.formatArn({ service: 's3', region: '', account: '', resource: props.filesBucketName, resourceName: '*' });
      for (const { route, fn } of functions) {
        const actions = filesBucketAccess(route.name);
        if (!actions.length) continue;
        fn.addEnvironment(FILES_BUCKET_VARIABLE, props.filesBucketName);
        (fn as IGrantable).grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: [...actions], resources: [filesObjects] }));
        acknowledgeNagFindings(fn, [
          {
            id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${props.filesBucketName.replace(/\$\{Token\[AWS\.AccountId\.\d+\]\}/, '<AWS::AccountId>').replace(/\$\{Token\[AWS\.Region\.\d+\]\}/, '<AWS::Region>')}/*]`,
            reason:
              "Each file is its own object, `<merchant_id>/<file_id>`: the grant names this bucket's objects and only the route's own action.",
          },
        ]);
      }
    }
  }
}
