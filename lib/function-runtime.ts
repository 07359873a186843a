/**
 * How every Lambda function of the stack is bundled and started, beyond what
 * `functionCode` (lib/functions/function-code.ts) spells in CDK terms. Kept free of CDK imports so that the
 * benchmark (scripts/bench/bundles.ts) bundles and starts the handlers exactly the same way.
 * Measured choices; see docs/benchmarks.md, "Cold start".
 */

/**
 * `NODE_OPTIONS` of every function: none. `--enable-source-maps` made Node read and decode the
 * whole `index.mjs.map` before the handler module ran (+30–110 ms of import per function, more
 * than the bundles' own code); stack traces are mapped lazily instead, when the logger formats an
 * error (shared/observability/source-mapped-stack.ts), from the same `index.mjs.map` deployed next
 * to the bundle.
 */
export const FUNCTION_NODE_OPTIONS: string | undefined = undefined;

/**
 * Import paths esbuild replaces in every bundle (`--alias`), from the repository root.
 * `@aws-sdk/credential-provider-node` (the SDK's default credential chain: environment, SSO,
 * ini files, process, web identity, container and instance metadata, with `@aws-sdk/nested-clients`
 * for SSO/STS, about 140 KB minified) becomes the environment-only provider that Lambda needs: the
 * runtime puts the execution role's credentials in `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`
 * and `AWS_SESSION_TOKEN`, the first source the default chain would try and the one it settles on
 * in Lambda (lib/lambda-env-credentials.ts). `@aws-crypto/client-node` (CommonJS only) becomes the same index
 * written as ES modules (lib/aws-crypto-client-node.ts), so the AWS SDK modules it shares with the DynamoDB client
 * are not wrapped in lazy initializers in every bundle that can reach it.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './lib/lambda-env-credentials.ts',
  '@aws-crypto/client-node': './lib/aws-crypto-client-node.ts',
};

/**
 * Whether source maps embed the original sources (`sourcesContent`). No: mapping a stack frame
 * needs only the mappings, and without the sources `index.mjs.map` shrinks from about 4 MB to
 * 1.2 MB per function (smaller code packages, cheaper to decode on the first logged error).
 */
export const BUNDLE_SOURCES_CONTENT = false;
