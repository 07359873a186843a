/**
 * Stand-in for `@aws-sdk/credential-provider-node` in the Lambda bundles (esbuild alias, see
 * `BUNDLE_ALIASES` in lib/function-runtime.ts): the AWS SDK clients' default credential chain,
 * reduced to its first link, the AWS SDK's own `fromEnv` (`@aws-sdk/credential-provider-env`).
 * In Lambda the runtime puts the execution role's credentials in `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` (AWS Lambda docs, "Defined runtime environment
 * variables"), so the rest of the chain (SSO, INI files, process, web identity, IMDS), about 134 KB
 * per bundle, is never reached there. Not used outside the bundles: tests, scripts and the local
 * gateway load the SDK's full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The SDK's `defaultProvider(init)` signature (clients call it with their configuration).
 * @param init the client's provider configuration (its `logger` is passed on to `fromEnv`)
 * @returns `fromEnv`'s provider: it rejects with a `CredentialsProviderError` when the variables are missing
 */
export function defaultProvider(init?: Parameters<typeof fromEnv>[0]): ReturnType<typeof fromEnv> {
  return fromEnv(init);
}
