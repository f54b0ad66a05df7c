// The per-key rate limit shared by instances on one PostgreSQL (one instance: rate-limit.test.ts).
import { randomBytes } from 'node:crypto';
import { leaseChunk } from '@portico/core';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  dropTestSchemas,
  postgresProblem,
  startStubUpstream,
  startTestGateway,
  TEST_POSTGRES_URL,
  type TestGateway,
} from '../gateway.test-support.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

const list = (gateway: TestGateway, key?: string) => gateway.rest('GET', '/api/v1/example/items', key ? { key } : {});

const problem = await postgresProblem();
const schema = `portico_rl_${randomBytes(5).toString('hex')}`;

describe.skipIf(problem !== undefined)(
  `per-key rate limit across instances on one PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`,
  () => {
    afterAll(async () => {
      await dropTestSchemas(schema);
    });

    it('two instances share one budget: calls of one key split across both are limited to the shared burst, not one each', async () => {
      // one token a second and a burst of 20 (leased 2 at a time): one bucket per instance would admit 40
      const burst = 20;
      const upstream = await startStubUpstream(() => ({ status: 200, body: { items: [] } }));
      opened.push(upstream);
      const env = {
        PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
        PORTICO_DATABASE_SCHEMA: schema,
        PORTICO_EXAMPLE_BASE_URL: upstream.url,
        PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PORTICO_RATE_LIMIT_PER_MINUTE: '60',
        PORTICO_RATE_LIMIT_BURST: String(burst),
      };
      const a = await startTestGateway({ plugins: [examplePlugin], env });
      opened.push(a);
      const b = await startTestGateway({ plugins: [examplePlugin], env });
      opened.push(b);
      await a.rest('PUT', '/api/admin/connections/example', { body: { token: 'shared-upstream-token' } });
      await a.rest('PATCH', '/api/admin/integrations/example', { body: { rest_enabled: true } });

      const started = performance.now();
      const answers: Array<{ instance: 'a' | 'b'; status: number; retryAfter: string | null }> = [];
      for (let round = 0; round < 10; round++) {
        // six calls at a time, three on each instance
        const batch = await Promise.all(
          Array.from({ length: 6 }, (_, i) => {
            const [instance, gateway] = i % 2 === 0 ? (['a', a] as const) : (['b', b] as const);
            return list(gateway, a.key).then((r) => ({ instance, status: r.status, retryAfter: r.headers.get('retry-after') }));
          }),
        );
        answers.push(...batch);
      }
      const seconds = (performance.now() - started) / 1000;
      const admitted = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status === 429);
      expect(admitted.length + refused.length).toBe(60);
      // The documented bound: at most burst + rate × time + one chunk per instance; at least the burst less what each
      // instance may hold unspent. With a bucket per instance it would be 40.
      const chunk = leaseChunk(burst);
      expect(admitted.length).toBeLessThanOrEqual(burst + Math.ceil(seconds) + 2 * chunk);
      expect(admitted.length).toBeGreaterThanOrEqual(burst - 2 * chunk);
      expect(new Set(admitted.map((r) => r.instance))).toEqual(new Set(['a', 'b']));
      expect(new Set(refused.map((r) => r.instance))).toEqual(new Set(['a', 'b']));
      expect(refused.every((r) => Number(r.retryAfter) >= 1)).toBe(true);
      expect(upstream.requests).toHaveLength(admitted.length);
    });
  },
);
