import type { RouteDefinition } from '../shared/api/routes';

/**
 * How the API's functions are split over nested stacks, so that the API has room to grow past one template's quotas (docs/capacity.md, "CloudFormation room").
 *
 * CloudFormation counts its quotas per template, and a nested stack's template is a template of its
 * own: "Resources: 500 per template", "Template body size in an Amazon S3 object: 1 MB"
 * (CloudFormation user guide, "Understand CloudFormation quotas",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html; a
 * nested stack is an `AWS::CloudFormation::Stack` resource whose template is uploaded as an asset,
 * aws-cdk-lib 2.276 `NestedStack`). So each route's function, with its role, policy, log group and
 * API Gateway invoke permission, lives in the nested stack of its route's *group*; the HTTP API, its
 * routes and integrations, the alarms, the main dashboard and the background functions stay in the
 * parent API stack (lib/api-stack.ts), where resources with fixed physical names (alarm names, the
 * dashboard, the reconciler schedule, canaries) keep their logical ids and so are updated in place.
 *
 * A route's group comes from its *family*, the first segment of its path (`/payments/{id}/refund` →
 * `payments`), through {@link FAMILY_GROUPS}; a family missing there gets a group of its own named
 * after it, so a new family never has to be listed for the stack to synthesize. The mapping is
 * explicit (not packed by count) so that adding a route never moves another route's function to a
 * different stack, which would replace that function.
 */

/** Group of a route family (first path segment) → nested stack. Families with few routes share one. */
export const FAMILY_GROUPS: Readonly<Record<string, string>> = {
  payments: 'Payments',
  refunds: 'Payments',
  customers: 'Customers',
  // Saved payment methods belong to customers (`/customers/{id}/payment_methods` is in `customers` already).
  payment_methods: 'Customers',
  // Subscriptions and their invoices.
  subscriptions: 'Billing',
  invoices: 'Billing',
  test_helpers: 'Billing',
  // Disputes and their evidence files.
  disputes: 'Disputes',
  files: 'Disputes',
  webhook_endpoints: 'Events',
  events: 'Events',
  // Merchants' processor accounts, their routing, and the processors' webhooks into them.
  connector_accounts: 'Connectors',
  routing: 'Connectors',
  webhooks: 'Connectors',
  // Public, unauthenticated pages and documents.
  pay: 'Public',
  sandbox: 'Public',
  health: 'Public',
  docs: 'Public',
  'openapi.json': 'Public',
};

/** The group of the `$default` (404) function. */
export const FALLBACK_GROUP = 'Public';

/**
 * Most functions one group may hold. Each function brings 5 resources to its nested stack (function,
 * role, default policy, log group, invoke permission) and 9 widgets to its group's dashboard (a
 * header and cdk-monitoring-constructs' 8 Lambda panels); CloudWatch takes at most 500 widgets per
 * dashboard ("A DashboardBody … can include an array of between 0 and 500 widget objects",
 * CloudWatch API reference, "Dashboard Body Structure and Syntax"). 40 functions: 200 resources
 * (40 % of 500) and 360 widgets. A group past this is refused at synth time: split its families.
 */
export const MAX_FUNCTIONS_PER_GROUP = 40;

/** The first segment of a route path: `/payments/{payment_id}` → `payments`, `/openapi.json` → `openapi.json`. */
export function routeFamily(path: string): string {
  return path.split('/').filter(Boolean)[0] ?? '';
}

/**
 * The group (nested stack) of a route: {@link FAMILY_GROUPS} of its family, else the family itself
 * in PascalCase (`payouts` → `Payouts`, `payment_links` → `PaymentLinks`).
 */
export function functionGroup(route: Pick<RouteDefinition, 'path'>): string {
  const family = routeFamily(route.path);
  const group = FAMILY_GROUPS[family];
  if (group) return group;
  const pascal = family
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
  if (!pascal) throw new Error(`Route path '${route.path}' has no first segment to group it by.`);
  return pascal;
}

/**
 * The routes by group, groups in first-seen order of `routes`, each group's routes in route-table order.
 * @param extra functions per group besides the routes' (the `$default` 404's), counted against the limit
 * @throws Error naming the group when one holds more than {@link MAX_FUNCTIONS_PER_GROUP} functions
 */
export function groupRoutes(
  routes: readonly RouteDefinition[],
  extra: Readonly<Record<string, number>> = {},
): Map<string, RouteDefinition[]> {
  const groups = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    const group = functionGroup(route);
    const members = groups.get(group) ?? [];
    members.push(route);
    groups.set(group, members);
  }
  for (const group of Object.keys(extra)) if (!groups.has(group)) groups.set(group, []);
  for (const [group, members] of groups) {
    const count = members.length + (extra[group] ?? 0);
    if (count > MAX_FUNCTIONS_PER_GROUP) {
      throw new Error(
        `Function group '${group}' would hold ${count} functions (most: ${MAX_FUNCTIONS_PER_GROUP}). Give some of its route families (${[
          ...new Set(members.map((r) => routeFamily(r.path))),
        ].join(', ')}) a group of their own in FAMILY_GROUPS (lib/function-groups.ts).`,
      );
    }
  }
  return groups;
}

/**
 * Prefix of the log group names of a stage's route functions (and its 404): `/switchyard/<stage>/api/`.
 * The Contributor Insights rule over the request log lines names the prefix with a wildcard
 * (lib/monitoring/operations-queries.ts): a rule definition is at most 8,192 characters (CloudWatch API reference,
 * `PutInsightRule` `RuleDefinition`), which the generated names of 50 functions' log groups in nested
 * stacks (each about 160 characters: parent stack, nested stack and resource names) would pass.
 */
export const apiLogGroupPrefix = (stage: string): string => `/switchyard/${stage}/api/`;

/**
 * The log group name of a route function, `/switchyard/<stage>/api/<group>/<function>`. Named after its
 * group too: a log group name is unique in an account and Region, and a function whose family moved to
 * another group would otherwise bring its log group's name into a new nested stack before the old one
 * is deleted.
 */
export const apiFunctionLogGroupName = (stage: string, group: string, name: string): string =>
  `${apiLogGroupPrefix(stage)}${group}/${name}`;
