import { Stack } from 'aws-cdk-lib';
import { CfnInsightRule } from 'aws-cdk-lib/aws-cloudwatch';
import { type ILogGroup, QueryDefinition, QueryString } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { REQUEST_LOG_FIELDS as F, REQUEST_LOG_MESSAGE } from '../../shared/observability/request-log';

/**
 * Placeholders in the saved queries: Logs Insights query definitions hold no parameters, so the
 * operator replaces the placeholder in the console before running (docs/operations.md, "Saved Logs
 * Insights queries"); the time range (e.g. the last hour) is picked in the console too.
 */
export const QUERY_PLACEHOLDERS = { paymentId: 'pay_REPLACE_ME', connector: 'REPLACE_ME', merchantId: 'mer_REPLACE_ME' } as const;

/**
 * The saved CloudWatch Logs Insights queries, by key: name (`switchyard-<stage>/<name>`, shown in
 * the console's "Saved queries" folder `switchyard-<stage>`) and query text. They read the fields
 * of the request log line (shared/observability/request-log.ts, {@link F}) and the service's other
 * structured log lines (Powertools Logger JSON: `level`, `message`, plus the line's own keys).
 */
export const SAVED_QUERIES = {
  payment: {
    name: 'everything-about-a-payment',
    query: new QueryString({
      fields: ['@timestamp', '@log', 'level', 'message', F.route, F.status, F.connector, F.refundId, F.merchantId, 'error', 'reason'],
      filterStatements: [`${F.paymentId} = "${QUERY_PLACEHOLDERS.paymentId}" or @message like "${QUERY_PLACEHOLDERS.paymentId}"`],
      sort: '@timestamp asc',
      limit: 1000,
    }),
  },
  connectorErrors: {
    name: 'errors-of-a-connector',
    query: new QueryString({
      fields: ['@timestamp', '@log', 'level', 'message', F.route, F.status, F.paymentId, F.refundId, F.merchantId, 'error', 'reason'],
      filterStatements: [
        `${F.connector} = "${QUERY_PLACEHOLDERS.connector}"`,
        `(level = "CRITICAL" or level = "ERROR" or level = "WARN" or ${F.status} >= 500)`,
      ],
      sort: '@timestamp desc',
      limit: 1000,
    }),
  },
  merchantRequests: {
    name: 'requests-of-a-merchant',
    query: new QueryString({
      fields: ['@timestamp', F.route, F.status, F.latencyMs, F.paymentId, F.refundId, F.customerId, F.connector, F.requestId],
      filterStatements: [`message = "${REQUEST_LOG_MESSAGE}"`, `${F.merchantId} = "${QUERY_PLACEHOLDERS.merchantId}"`],
      sort: '@timestamp desc',
      limit: 1000,
    }),
  },
} as const;

/** Props of {@link OperationsQueries}. */
export interface OperationsQueriesProps {
  stage: string;
  /** Log groups of the API functions that take a merchant's API key (`auth: true`): the merchant query's. */
  apiLogGroups: ILogGroup[];
  /**
   * The prefix every API function's log group name starts with, and no other's: the Contributor
   * Insights rule names it with a trailing `*` ("you can optionally use * at the end of a string to
   * include all log groups with names that start with that prefix", CloudWatch user guide,
   * "Contributor Insights rule syntax in CloudWatch"), so its definition does not grow with the routes.
   */
  apiLogGroupPrefix: string;
  /** Further log groups searched by the payment and connector queries (the reconciler's). */
  backgroundLogGroups: ILogGroup[];
  /**
   * The log groups of the routes a payment's story is told in (`/payments…`, `/refunds…`, `/pay/…`,
   * `/sandbox/…`, `/webhooks/…`): the payment query's, with the background ones.
   */
  paymentLogGroups: ILogGroup[];
  /** The log groups of the routes that call processors (`connectors: true`): the connector query's, with the background ones. */
  connectorLogGroups: ILogGroup[];
}

/**
 * Most log groups one Logs Insights query may read: 50 ("You can include up to 50 log groups", CloudWatch
 * Logs API reference, StartQuery `logGroupNames`). Each saved query names only the functions its question
 * concerns ({@link OperationsQueriesProps}); when those are more than 50 it is saved as several definitions
 * over 50 log groups each, named `<name> (k of n)`.
 */
export const MAX_QUERY_LOG_GROUPS = 50;

/**
 * Saves one query over `groups`, split into definitions of at most {@link MAX_QUERY_LOG_GROUPS} log groups.
 * @param id the construct id (a `k` suffix is added from the second part on)
 */
function savedQuery(scope: Construct, id: string, name: string, queryString: QueryString, groups: ILogGroup[]): void {
  const parts = Math.max(1, Math.ceil(groups.length / MAX_QUERY_LOG_GROUPS));
  for (let k = 0; k < parts; k += 1) {
    new QueryDefinition(scope, k === 0 ? id : `${id}${k + 1}`, {
      queryDefinitionName: parts === 1 ? name : `${name} (${k + 1} of ${parts})`,
      queryString,
      logGroups: groups.slice(k * MAX_QUERY_LOG_GROUPS, (k + 1) * MAX_QUERY_LOG_GROUPS),
    });
  }
}

/**
 * The stage's saved Logs Insights queries ({@link SAVED_QUERIES}, aws-logs `QueryDefinition` over
 * the log groups) and a Contributor Insights rule "top merchants by requests": CloudWatch Logs rule
 * syntax with `LogFormat: JSON`, counting request lines (`$.message` = {@link REQUEST_LOG_MESSAGE})
 * by `$.merchant_id` over the API functions' log groups, named by their prefix (CloudWatch user guide, "Contributor
 * Insights rule syntax in CloudWatch"; CloudFormation `AWS::CloudWatch::InsightRule`).
 */
export class OperationsQueries extends Construct {
  /** Name of the Contributor Insights rule. */
  readonly topMerchantsRuleName: string;

  constructor(scope: Construct, id: string, props: OperationsQueriesProps) {
    super(scope, id);
    const folder = `switchyard-${props.stage}`;
    savedQuery(this, 'PaymentQuery', `${folder}/${SAVED_QUERIES.payment.name}`, SAVED_QUERIES.payment.query, [
      ...props.paymentLogGroups,
      ...props.backgroundLogGroups,
    ]);
    savedQuery(this, 'ConnectorErrorsQuery', `${folder}/${SAVED_QUERIES.connectorErrors.name}`, SAVED_QUERIES.connectorErrors.query, [
      ...props.connectorLogGroups,
      ...props.backgroundLogGroups,
    ]);
    savedQuery(
      this,
      'MerchantRequestsQuery',
      `${folder}/${SAVED_QUERIES.merchantRequests.name}`,
      SAVED_QUERIES.merchantRequests.query,
      props.apiLogGroups,
    );
    this.topMerchantsRuleName = `${folder}-top-merchants-by-requests`;
    new CfnInsightRule(this, 'TopMerchantsRule', {
      ruleName: this.topMerchantsRuleName,
      ruleState: 'ENABLED',
      ruleBody: Stack.of(this).toJsonString({
        Schema: { Name: 'CloudWatchLogRule', Version: 1 },
        LogGroupNames: [`${props.apiLogGroupPrefix}*`],
        LogFormat: 'JSON',
        Contribution: {
          Keys: [`$.${F.merchantId}`],
          Filters: [{ Match: '$.message', In: [REQUEST_LOG_MESSAGE] }],
        },
        AggregateOn: 'Count',
      }),
    });
  }
}
