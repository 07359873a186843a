/** Stops the DynamoDB Local started by global-setup. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: { stop(): Promise<void> } }).__dynamo?.stop();
}
