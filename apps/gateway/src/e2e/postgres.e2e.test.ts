import { randomBytes } from 'node:crypto';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dropTestSchemas,
  postgresProblem,
  type StubUpstream,
  startStubUpstream,
  startTestGateway,
  TEST_POSTGRES_URL,
  type TestGateway,
} from '../gateway.test-support.js';

const problem = await postgresProblem();
const schema = `portico_gw_${randomBytes(5).toString('hex')}`;

describe.skipIf(problem !== undefined)(`several gateway instances on one PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const gateways: TestGateway[] = [];
  let upstream: StubUpstream;

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await upstream?.close();
    await dropTestSchemas(schema);
  });

  it('share keys, settings and connections, and see each other’s changes quickly', async () => {
    upstream = await startStubUpstream(() => ({ status: 200, body: { items: [] } }));
    const env = {
      PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
      PORTICO_DATABASE_SCHEMA: schema,
      PORTICO_EXAMPLE_BASE_URL: upstream.url,
      PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    const a = await startTestGateway({ plugins: [examplePlugin], env });
    gateways.push(a);
    const b = await startTestGateway({ plugins: [examplePlugin], env });
    gateways.push(b);
    expect(b.key).toBeUndefined(); // the first instance created the admin key; the second found one
    await a.rest('PUT', '/api/admin/connections/example', { body: { token: 'shared-upstream-token' } });
    await a.rest('PATCH', '/api/admin/integrations/example', { body: { rest_enabled: true } });
    const call = (gateway: TestGateway) => gateway.rest('GET', '/api/v1/example/items', { key: a.key });
    expect((await call(a)).status).toBe(200);
    expect((await call(b)).status).toBe(200);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer shared-upstream-token');

    // a toggle on one instance reaches the other through NOTIFY, well within the 5 s cache bound
    await a.rest('PATCH', '/api/admin/integrations/example', { body: { rest_enabled: false } });
    const started = Date.now();
    while ((await call(b)).status !== 403) {
      expect(Date.now() - started).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // a key revoked on one instance is refused by the other as soon as the notification arrives
    const created = await a.rest('POST', '/api/admin/keys', { body: { name: 'temp' } });
    const { key, id } = created.body as { key: string; id: string };
    expect((await b.rest('GET', '/api/admin/keys', { key })).status).toBe(403); // valid but not admin
    await a.rest('DELETE', `/api/admin/keys/${id}`);
    const revokedAt = Date.now();
    while ((await b.rest('GET', '/api/admin/keys', { key })).status !== 401) {
      expect(Date.now() - revokedAt).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
