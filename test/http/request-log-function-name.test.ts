/**
 * The local stack runs every handler in one process and they all log through the one service logger:
 * each line — the request line included — must name the function that wrote it, also when another
 * handler starts while it waits. Two API handlers through the local gateway (the code `npm start`
 * serves), interleaved deterministically: the first waits on a gate after its middleware set its Lambda
 * context, the second runs to its end meanwhile, then the first is let go. What is checked is the JSON the
 * logger prints.
 */
import type { LambdaHandler, LocalGateway } from '../../scripts/local/gateway';
import { ROUTES } from '../../shared/api/routes';

const first = ROUTES.find((r) => r.method === 'POST' && r.path === '/connector_accounts')!;
const second = ROUTES.find((r) => r.method === 'GET' && r.path === '/health')!;

let gateway: LocalGateway;
const logLevel = process.env.POWERTOOLS_LOG_LEVEL;
let REQUEST_LOG_MESSAGE: string;
let entered: () => void;
const firstEntered = new Promise<void>((resolve) => {
  entered = resolve;
});
let release: () => void;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});
/** Every line the logger printed, parsed. */
const printed: Record<string, unknown>[] = [];

beforeAll(async () => {
  // The service logger is made at import with the level of POWERTOOLS_LOG_LEVEL (the tests' SILENT), and every
  // invocation sets it back to that: it is imported here, after INFO is asked for.
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  const { logger } = await import('../../shared/observability/logger');
  const { apiHandler } = await import('../../shared/http/api-handler');
  const { startGateway } = await import('../../scripts/local/gateway');
  ({ REQUEST_LOG_MESSAGE } = await import('../../shared/observability/request-log'));
  // The first route's handler: the API's own middy chain (logger context, request line), held on the gate.
  const held = apiHandler({ auth: false }, async () => {
    logger.warn('before the gate');
    entered();
    await gate;
    logger.warn('after the gate');
    return { body: { held: true } };
  }) as unknown as LambdaHandler;
  const real = (await import(`../../${second.entry}`)) as { handler: LambdaHandler };
  gateway = await startGateway(0, '127.0.0.1', {
    loadHandler: async (entry) => {
      if (entry === first.entry) return held;
      if (entry === second.entry) return real.handler;
      throw new Error(`unexpected route ${entry}`);
    },
  });
  const sink = (logger as unknown as { console: Console }).console;
  for (const level of ['info', 'warn', 'error'] as const) {
    jest.spyOn(sink, level).mockImplementation((...args: unknown[]) => {
      printed.push(JSON.parse(String(args[0])) as Record<string, unknown>);
    });
  }
});

afterAll(async () => {
  jest.restoreAllMocks();
  process.env.POWERTOOLS_LOG_LEVEL = logLevel;
  await gateway?.close();
});

test('each line names the function of its own invocation when two handlers run interleaved in one process', async () => {
  const held = fetch(`${gateway.url}${first.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await firstEntered;
  const other = await fetch(`${gateway.url}${second.path}`);
  expect(other.status).toBe(200);
  release();
  const answered = await held;
  expect(answered.status).toBe(200);

  const requestLine = (route: string) => printed.find((l) => l.message === REQUEST_LOG_MESSAGE && l.route === route);
  expect(requestLine(`POST ${first.path}`)).toMatchObject({ function_name: first.name });
  expect(requestLine(`GET ${second.path}`)).toMatchObject({ function_name: second.name });
  expect(printed.find((l) => l.message === 'after the gate')).toMatchObject({ function_name: first.name });
  // Each invocation keeps its own request id too.
  const ids = new Set(printed.filter((l) => l.function_name === first.name).map((l) => l.function_request_id));
  expect(ids.size).toBe(1);
  expect(printed.find((l) => l.function_name === second.name)?.function_request_id).not.toBe([...ids][0]);
});
