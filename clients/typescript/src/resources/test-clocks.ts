/** `switchyard.testHelpers.testClocks`: test clocks, on stages with the sandbox only. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { TestClock, TestClockAdvanceParams, TestClockCreateParams } from '../types.js';
import { pathId } from './path-id.js';

/** `/test_helpers/test_clocks`. */
export class TestClocks {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /test_helpers/test_clocks`: a clock at `frozen_time` (customers created with `test_clock` live on it). */
  create(params: TestClockCreateParams, options?: RequestOptions): Promise<TestClock> {
    return this.client.call((init) => this.client.api.POST('/test_helpers/test_clocks', { body: params, ...init }), options);
  }

  /** `GET /test_helpers/test_clocks/{test_clock_id}`. */
  retrieve(testClockId: string, options?: RequestOptions): Promise<TestClock> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/test_helpers/test_clocks/{test_clock_id}', {
          params: { path: { test_clock_id: pathId('testClockId', testClockId) } },
          ...init,
        }),
      options,
    );
  }

  /**
   * `POST /test_helpers/test_clocks/{test_clock_id}/advance`: runs the billing work that falls due on the way.
   * Unkeyed: the API keeps no answer to replay (a second advance to the same time is refused with 400).
   */
  advance(testClockId: string, params: TestClockAdvanceParams, options?: RequestOptions): Promise<TestClock> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/test_helpers/test_clocks/{test_clock_id}/advance', {
          params: { path: { test_clock_id: pathId('testClockId', testClockId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }
}
