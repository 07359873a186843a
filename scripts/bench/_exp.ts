import './env';
import { startBenchDatabase, BENCH_MERCHANT_ID } from './stack';
import { runBare, bareRetrieve, bareCreate } from './bare-dynamodb';
import { destroyDocumentClient } from '../../shared/storage/client';
const db = await startBenchDatabase();
const template = { PK: 'x', SK: 'PAYMENT', GSI1PK: 'MERCHANT#mer_bench#PAYMENTS', GSI2PK: 'MERCHANT#mer_bench#PAYMENTS#STATUS#RequiresConfirmation', entity: 'payment', merchant_id: 'mer_bench', version: 1, status: 'RequiresConfirmation', amount: 5000000, currency: 'USD', description: 'benchmark payment', metadata: { order_id: 'bench-1' } };
for (const round of [1,2,3,4,5,6,7,8,9,10]) for (const c of [1, 10]) {
  const r = await runBare(() => bareCreate(BENCH_MERCHANT_ID, template), { concurrency: c, durationMs: 2000 });
  console.log(round, 'create c=', c, r.callsPerSecond.toFixed(0), '/s p50', r.p50.toFixed(2), 'p99', r.p99.toFixed(2), r.errors);
}
destroyDocumentClient(); await db.dynamo.stop();
