/**
 * The DynamoDB client's timeouts (shared/storage/client.ts `storageTimeouts`): deployed stages keep the short
 * defaults; the test run raises them through the environment (test/setup/global-setup.ts), so a worker starved of
 * CPU does not fail a loopback request on a connect timer.
 */
import { storageTimeouts } from '../../shared/storage/client';

test('without an override: 1,000 ms to connect, 5,000 ms per request', () => {
  expect(storageTimeouts({})).toEqual({ connectionTimeout: 1000, requestTimeout: 5000 });
});

test('DYNAMODB_CONNECTION_TIMEOUT_MS and DYNAMODB_REQUEST_TIMEOUT_MS override each, in milliseconds', () => {
  expect(storageTimeouts({ DYNAMODB_CONNECTION_TIMEOUT_MS: '15000', DYNAMODB_REQUEST_TIMEOUT_MS: '60000' })).toEqual({
    connectionTimeout: 15_000,
    requestTimeout: 60_000,
  });
  expect(storageTimeouts({ DYNAMODB_CONNECTION_TIMEOUT_MS: '2500' })).toEqual({ connectionTimeout: 2500, requestTimeout: 5000 });
});

test.each(['', '0', '-5', '1.5', 'ten', '600001'])('an unusable value %p leaves the default', (raw) => {
  expect(storageTimeouts({ DYNAMODB_CONNECTION_TIMEOUT_MS: raw, DYNAMODB_REQUEST_TIMEOUT_MS: raw })).toEqual({
    connectionTimeout: 1000,
    requestTimeout: 5000,
  });
});

test('the test run raises both, so a slow loopback connect under load is not a failed request', () => {
  // Set by the jest global setup, which every worker inherits.
  expect(storageTimeouts()).toEqual({ connectionTimeout: 15_000, requestTimeout: 60_000 });
});
