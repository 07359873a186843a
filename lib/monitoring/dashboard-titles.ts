/**
 * Titles of the stage dashboard's business widgets (what each shows and its unit), one list for the
 * sections that draw them and the tests that find them; the per-connector ones take the connector's name.
 */
export const DASHBOARD_TITLES = {
  paymentsPerMinute: 'Payments per minute by status (count/min, all currencies and connectors)',
  successRateByConnector: 'Authorization success rate by connector (%, succeeded / all Authorizations outcomes, 5-min)',
  openOperationsNow: 'Open operations by kind (count, latest reconciler run)',
  oldestOpenNow: 'Oldest open operation by kind (seconds, maximum)',
  webhookBacklog: 'Webhook backlog: oldest undelivered delivery (seconds since first failure, maximum)',
  connectorSuccessRate: (c: string) => `${c}: authorization success rate (%, 5-min; alarm below the anomaly band)`,
  connectorTechnicalErrors: (c: string) => `${c}: technical error rate (%, ConnectorCalls technical_error / all calls, 5-min)`,
  connectorLatency: (c: string) => `${c}: processor call latency (ms, p50 and p99 by operation)`,
  connectorCircuit: (c: string) => `${c}: circuit state (0 closed, 1 half-open, 2 open; maximum) and skips (count/min)`,
  connectorRefundFailures: (c: string) => `${c}: refunds failed at the processor (count per 5 min)`,
  canaries: 'Synthetic checks: success (%, per 5-minute run; alarm below 100)',
  connectorAccountTechnicalErrors: 'Technical errors by connector account (count per 5 min, top accounts; alarm per account)',
  accountAuthorizationRate: 'Authorization rate by connector account (%, approved / approved and declined, 5-min, lowest accounts)',
  accountAuthorizationShortfall:
    'Approvals short of the floor by connector account (answers × (floor − rate) per 5 min, largest first; alarm per account)',
  functionDashboards: 'Function dashboards',
} as const;
