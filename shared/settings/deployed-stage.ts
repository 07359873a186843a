/**
 * Whether the process runs a deployed stage, apart from the webhook URL rules (shared/webhooks/endpoint-url-rules.ts,
 * which load `node:dns` and build an address block list at import): the `return_url` schema needs only this.
 */

/**
 * Whether this process runs a deployed stage: `STAGE` is set and is not `local`.
 * @param env the environment (default `process.env`)
 */
export function isDeployedStage(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.STAGE) && env.STAGE !== 'local';
}
