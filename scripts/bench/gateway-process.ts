/**
 * Child-process entry of the benchmark: runs the local API Gateway stand-in
 * (scripts/local/gateway.ts, the real handlers) on a free loopback port.
 *
 * It runs in its own process so that the handlers do not share an event loop
 * with autocannon, which would otherwise add the load generator's own work to
 * every measured latency. Started by `startGatewayProcess` (./stack.ts) with the
 * environment (TABLE_NAME, DYNAMODB_ENDPOINT, Powertools settings) already set.
 *
 * Protocol over the IPC channel: sends `{ url }` once listening; on the
 * message `'stop'` closes the gateway and the DynamoDB client and exits 0.
 * Exits as well when the parent goes away (IPC disconnect).
 */
import { destroyDocumentClient } from '../../shared/storage/client';
import { startGateway } from '../local/gateway';

async function main(): Promise<void> {
  const gateway = await startGateway(0, '127.0.0.1');
  const stop = async (): Promise<void> => {
    await gateway.close();
    destroyDocumentClient();
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.send?.({ url: gateway.url });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench gateway failed to start: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
