import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { bundleFunction } from '../function-bundling';

/**
 * The code asset of one function: the handler bundled by {@link bundleFunction} (lib/function-bundling.ts: esbuild in
 * this process, minified ESM `index.mjs` holding what a cold start loads and chunks beside it loaded on first use (code splitting,
 * then lib/cold-start-merge.ts), source maps without sources, the route's
 * `assets` copied beside it), hashed on that output as LambdaFunction does (`AssetHashType.OUTPUT`). Bundling is
 * local only: the Docker image and command are named because CDK's `BundlingOptions` requires an image (and keys its
 * cache on them), and never run, since
 * `tryBundle` either bundles or throws esbuild's error. Under `aws:cdk:bundling-stacks: []` (tests, cfn-lint) CDK
 * skips bundling and hashes the asset's construct path instead.
 * @param root the repository root
 * @param entry the handler module, from `root`
 * @param assets files copied next to `index.mjs` (shared/api/routes.ts `assets`)
 * @returns the `code` of a Lambda function whose handler is `index.handler`
 */
export function functionCode(root: string, entry: string, assets: readonly string[] = []): Code {
  return Code.fromAsset(root, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // Never run (no Docker): it names what is bundled, because CDK keys its asset cache and bundling directory on
      // the bundling options' JSON, in which `local` (a function) is invisible; without it every function would
      // share the first one's bundle.
      command: ['esbuild', entry, ...assets],
      local: {
        tryBundle(outputDir: string): boolean {
          bundleFunction(root, entry, outputDir, assets);
          return true;
        },
      },
    },
  });
}
