/**
 * `@aws-crypto/client-node` 5.0.2 for the bundles, as ES modules (aliased in lib/function-runtime.ts
 * `BUNDLE_ALIASES`). The package itself is CommonJS only (`build/main/src/index.js`): it `require()`s its
 * sub-packages, which esbuild then takes from their ES module builds (`mainFields: module, main`), and an ES module
 * reached by `require()` is wrapped in a lazy initializer — with it, transitively, the AWS SDK's own modules
 * (`@aws-sdk/client-kms` → `@smithy/core`, shared with the DynamoDB client), 600-odd wrappers that every handler
 * able to reach the Encryption SDK paid at each cold start, even though the SDK itself sits in a chunk loaded on
 * first use (docs/benchmarks.md). This file is the package's index (same exports, same `buildClient`),
 * written with `import`/`export` over the same sub-packages at the same version.
 */
import { buildDecrypt } from '@aws-crypto/decrypt-node';
import { buildEncrypt } from '@aws-crypto/encrypt-node';
import type { ClientOptions, CommitmentPolicy } from '@aws-crypto/material-management-node';

export * from '@aws-crypto/branch-keystore-node';
export * from '@aws-crypto/caching-materials-manager-node';
export * from '@aws-crypto/decrypt-node';
export * from '@aws-crypto/encrypt-node';
export type { BranchKeyIdSupplier } from '@aws-crypto/kms-keyring';
export * from '@aws-crypto/kms-keyring-node';
export * from '@aws-crypto/material-management-node';
export * from '@aws-crypto/raw-aes-keyring-node';
export * from '@aws-crypto/raw-rsa-keyring-node';

/**
 * The Encryption SDK client: `encrypt` and `decrypt` bound to one commitment policy and data-key limit, as
 * `@aws-crypto/client-node`'s own `buildClient` (build/main/src/index.js, 5.0.2).
 * @param options a commitment policy, or `{ commitmentPolicy, maxEncryptedDataKeys }`
 * @returns `{ encrypt, decrypt, encryptStream, decryptUnsignedMessageStream, decryptStream }`
 */
export function buildClient(options?: CommitmentPolicy | ClientOptions): ReturnType<typeof buildEncrypt> & ReturnType<typeof buildDecrypt> {
  return { ...buildEncrypt(options), ...buildDecrypt(options) };
}
