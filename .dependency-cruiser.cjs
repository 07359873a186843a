// dependency-cruiser: the layering rules of the runtime code (`npm run lint:layers`).
// Layers, bottom up: shared/domain < shared/schemas < storage, connectors, webhooks < processor-call < operations < http < functions.
// The routing decision is a use case (shared/operations/routing); the processor call it picks is the layer below.
// Cross-cutting helpers (observability, security, settings) sit beside the domain; the route table (shared/api) beside schemas.
// Every kind of import counts: static, type-only (tsPreCompilationDeps) and lazy `import()`.
/** Runtime code: what is bundled into the Lambda handlers. */
const RUNTIME = '^(shared|functions)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'A cycle (static, lazy import() or type-only) means two modules are one; break it with a lower home for the shared part or a registered hook.',
      severity: 'error',
      from: { path: RUNTIME },
      to: { circular: true },
    },
    {
      name: 'domain-is-the-ground-floor',
      comment: 'shared/domain holds vocabularies and rules every layer shares, so it imports nothing of ours outside itself.',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/(?!domain/)|functions/|lib/|bin/|scripts/|test/)' },
    },
    {
      name: 'helpers-stand-on-the-domain',
      comment: 'Logging, metrics, encryption and settings are used by every layer, so they import only the domain and each other.',
      severity: 'error',
      from: { path: '^shared/(observability|security|settings)/' },
      to: { path: '^(shared/(?!domain/|observability/|security/|settings/)|functions/)' },
    },
    {
      name: 'schemas-know-no-behaviour',
      comment: 'Wire schemas describe shapes from domain vocabularies; they import no storage, adapter, use case or HTTP code.',
      severity: 'error',
      from: { path: '^shared/schemas/' },
      to: { path: '^(shared/(?!domain/|schemas/|settings/)|functions/)' },
    },
    {
      name: 'routes-describe-not-behave',
      comment:
        "The route table (paths, schemas, OpenAPI metadata; shared/api and each capability's routes.ts) is read by the CDK stack and the HTTP edge, so it imports only schemas, the domain and other route files.",
      severity: 'error',
      from: { path: '^(shared/api/|shared/operations/[^/]+/routes\\.ts$)' },
      to: { path: '^(shared/(?!domain/|schemas/|settings/|api/)|functions/)', pathNot: '^shared/operations/[^/]+/routes\\.ts$' },
    },
    {
      name: 'capability-routes-read-only-by-the-table',
      comment: "A capability's routes.ts is data for the route table (shared/api/routes.ts); no use case or handler imports it.",
      severity: 'error',
      from: { path: '^(shared|functions)/', pathNot: '^shared/api/routes\\.ts$' },
      to: { path: '^shared/operations/[^/]+/routes\\.ts$' },
    },
    {
      name: 'storage-knows-keys-and-items',
      comment:
        'Repositories read and write items by key; behaviour (operations, routing), delivery (webhooks), adapters and HTTP live above them.',
      severity: 'error',
      from: { path: '^shared/storage/' },
      to: { path: '^(shared/(operations|processor-call|webhooks|connectors|http|api)/|functions/)' },
    },
    {
      name: 'adapters-are-leaves',
      comment:
        'A connector translates our domain to one processor and back; it imports no storage, routing, delivery, use case or HTTP code.',
      severity: 'error',
      from: { path: '^shared/connectors/' },
      to: { path: '^(shared/(storage|operations|processor-call|webhooks|http|api)/|functions/)' },
    },
    {
      name: 'webhooks-below-processor-call',
      comment:
        'Webhook delivery (signing, queues, endpoint circuits) is a service the use cases call; it imports no processor call, use case or route table.',
      severity: 'error',
      from: { path: '^shared/webhooks/' },
      to: { path: '^(shared/(processor-call|operations|api)/|functions/)' },
    },
    {
      name: 'processor-call-below-operations',
      comment:
        'The processor call (credentials, adapter, breaker, budget, outcome) serves the routing decision and the use cases; it never imports them.',
      severity: 'error',
      from: { path: '^shared/processor-call/' },
      to: { path: '^(shared/(operations|http|api)/|functions/)' },
    },
    {
      name: 'operations-below-http',
      comment: 'Use cases take a request context and typed input; the route table and the handlers sit above them.',
      severity: 'error',
      from: { path: '^shared/operations/', pathNot: '^shared/operations/[^/]+/routes\\.ts$' },
      to: { path: '^(shared/api/|functions/)' },
    },
    {
      name: 'payments-know-no-billing',
      comment:
        'Billing charges through payments; payments report a settled outcome through the hooks billing registers (payments/settled-payment-hooks.ts).',
      severity: 'error',
      from: { path: '^shared/operations/payments/' },
      to: { path: '^shared/operations/billing/' },
    },
    {
      name: 'http-only-from-handlers-and-edge',
      comment:
        'shared/http (middy wrappers, error mapping, bodies) is imported only by handlers in functions/ and by the edge itself; this is also the rule that keeps operations, webhooks and everything lower below it.',
      severity: 'error',
      from: { pathNot: '^(functions/|shared/http/)' },
      to: { path: '^shared/http/' },
    },
    {
      name: 'edge-below-handlers',
      comment: 'The HTTP edge serves the handlers; it never imports one.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^functions/' },
    },
    {
      name: 'runtime-imports-no-tooling',
      comment: 'Handlers are bundled for Lambda: runtime code imports no scripts, tests, CDK code or CDK libraries.',
      severity: 'error',
      from: { path: RUNTIME },
      to: { path: '^(scripts|test|lib|bin|clients)/|node_modules/(aws-cdk-lib|aws-cdk|constructs|cdk-nag|cdk-monitoring-constructs)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.cache)/' },
    // Type-only imports are dependencies too: a cycle through `import type` is still two modules that are one.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: {
      dot: {
        collapsePattern: '^(node_modules/[^/]+|shared/[^/]+|functions|lib)',
      },
    },
  },
};
