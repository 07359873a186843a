import type { Stack } from 'aws-cdk-lib';
import {
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { answersHead } from '../../shared/api/routes';
import type { StageConfig } from '../config/stage-config';
import { acknowledgeNagFindings } from '../nag-acknowledgements';
import type { RouteFunctions } from './route-functions';

/**
 * A Lambda proxy integration (payload format 2.0) of an HTTP API route that adds no permission.
 * `HttpLambdaIntegration` (aws-cdk-lib 2.276 `aws-apigatewayv2-integrations`) adds the function's
 * invoke permission in the *route's* scope (`handler.addPermission(…, { scope: options.scope })`), so
 * with the function in a nested stack every route would still bring a permission to the parent
 * template; {@link HttpApiRoutes} declares the same permission next to the function instead.
 * The integration keeps `HttpLambdaIntegration`'s construct id (`<name>Integration`), hence its logical
 * id: routes and integrations are updated in place, never recreated (a route key cannot exist twice in
 * an API, so a recreated route would collide with the old one during the update).
 */
class LambdaProxyIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
  ) {
    super(id);
  }

  override bind(): HttpRouteIntegrationConfig {
    return { type: HttpIntegrationType.AWS_PROXY, uri: this.handler.functionArn, payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 };
  }
}

/** Props of {@link HttpApiRoutes}. */
export interface HttpApiRoutesProps {
  config: StageConfig;
  /** The functions the routes integrate (lib/api/route-functions.ts). */
  routeFunctions: RouteFunctions;
}

/**
 * The HTTP API (`switchyard-<stage>`) and its routes: one route per route function, integrated by
 * {@link LambdaProxyIntegration} (a public GET page gets its HEAD route too), the `$default` route
 * to the 404 function, and API Gateway's permission to invoke each function, declared beside the
 * function in its group's nested stack. Its stage is `ApiStage` (lib/api/api-stage.ts).
 *
 * The API is declared in the stack, not in this construct (its routes and integrations under it), so
 * their logical ids are the ones the stack has always given them: routes are updated in place.
 */
export class HttpApiRoutes extends Construct {
  readonly api: HttpApi;

  constructor(scope: Stack, id: string, props: HttpApiRoutesProps) {
    super(scope, id);
    const { config, routeFunctions } = props;
    const api = new HttpApi(scope, 'HttpApi', {
      apiName: `switchyard-${config.stage}`,
      createDefaultStage: false,
      defaultIntegration: new LambdaProxyIntegration('NotFoundIntegration', routeFunctions.notFound),
    });
    this.api = api;
    /**
     * API Gateway's permission to invoke a route's function (`path`; none: the `$default` route), scoped
     * as HttpLambdaIntegration scopes it (source ARN `…:<api id>/*\/*<path>`: any stage and method),
     * but declared in the function's own stack: see LambdaProxyIntegration.
     */
    const allowApiInvoke = (fn: LambdaFunction, path?: string) =>
      fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: scope.formatArn({ service: 'execute-api', resource: api.apiId, resourceName: `*/*${path ?? ''}` }),
      });
    allowApiInvoke(routeFunctions.notFound);
    for (const { route, fn } of routeFunctions.functions) {
      allowApiInvoke(fn, route.path);
      api.addRoutes({
        path: route.path,
        // An HTTP API route takes only its own method, so a public GET page gets its HEAD route too
        // (same function; shared/api/routes.ts `answersHead`), or HEAD would reach `$default`'s 404.
        methods: answersHead(route) ? [HttpMethod[route.method], HttpMethod.HEAD] : [HttpMethod[route.method]],
        integration: new LambdaProxyIntegration(`${route.name}Integration`, fn),
      });
    }
    acknowledgeNagFindings(api, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is the api-key header checked by every handler against hashed keys in the table (see shared/http/authentication.ts); /health, /openapi.json and /docs (the API reference) are public by design.',
      },
    ]);
  }
}
