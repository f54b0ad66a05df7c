// The workspace isolation suite, run by workspaces.test.ts (SQLite) and workspaces-postgres.e2e.test.ts.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type StubUpstream, startStubUpstream, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';

/**
 * Workspace isolation, on SQLite and on PostgreSQL, with the callers of the doors holding API keys and, again, holding
 * OAuth grants (an access token obtained through the consent page by the workspace's admin): two workspaces with keys in each; every admin route, REST and MCP
 * door is tried with the other workspace's ids and answers as for ids that do not exist; a connection of one is never
 * used for a call of the other; revoking or deleting in one touches nothing in the other.
 */

interface Tenant {
  id: string;
  admin: string;
  adminId: string;
  user: string;
  userId: string;
  toolSet: string;
  auditId: string;
}

/** Who calls the doors: a user API key, or a grant's access token (read and write on the example service). */
type Caller = 'key' | 'grant';

export function isolationSuite(name: string, database: () => Record<string, string>, instances: number, caller: Caller = 'key'): void {
  describe(`workspace isolation (${name}, callers with ${caller === 'key' ? 'API keys' : 'OAuth grants'})`, () => {
    /** API keys a workspace holds after the setup: its admin's, and its user's when the user is a key. */
    const keysHeld = caller === 'key' ? 2 : 1;
    let upstream: StubUpstream;
    const gateways: TestGateway[] = [];
    let gateway: TestGateway;
    const clients: Client[] = [];
    const tenants: Record<'a' | 'b', Tenant> = {} as Record<'a' | 'b', Tenant>;

    /** A REST request with a key; the status and error code (if any). */
    const call = async (key: string, method: string, path: string, body?: unknown, via = gateway) => {
      const res = await via.rest(method, path, { key, ...(body === undefined ? {} : { body }) });
      return { status: res.status, code: (res.body as { code?: string } | undefined)?.code, body: res.body };
    };

    beforeAll(async () => {
      upstream = await startStubUpstream((_, url) => ({ status: 200, body: { items: [], path: url.pathname } }));
      const env = { ...database(), PORTICO_EXAMPLE_BASE_URL: upstream.url, PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
      for (let i = 0; i < instances; i++) gateways.push(await startTestGateway({ plugins: [examplePlugin], env }));
      gateway = gateways[0] as TestGateway;
      // Instances behind one public address, as in production (where PORTICO_PUBLIC_URL names it): a grant's tokens are
      // for that address, and good on every instance. Here each listens on its own port; they share the first one's.
      for (const other of gateways.slice(1)) other.runtime.engine.publicUrl = gateway.url;
      for (const id of ['a', 'b'] as const) {
        const created = await call(gateway.key, 'POST', '/api/admin/workspaces', { id: `firm-${id}`, name: `Firm ${id.toUpperCase()}` });
        expect(created.status).toBe(201);
        const base = `/api/admin/workspaces/firm-${id}`;
        const admin = (await call(gateway.key, 'POST', `${base}/keys`, { name: `${id}-admin`, admin: true })).body as {
          key: string;
          id: string;
        };
        // the workspace admin sets up its own workspace through the short routes
        expect((await call(admin.key, 'PUT', '/api/admin/connections/example', { token: `token-${id}` })).status).toBe(200);
        expect((await call(admin.key, 'PATCH', '/api/admin/integrations/example', { rest_enabled: true })).status).toBe(200);
        expect((await call(admin.key, 'PUT', `/api/admin/tool-sets/${id}-set`, { rules: ['example:list_*'] })).status).toBe(201);
        let user: { key: string; id: string };
        if (caller === 'key') {
          user = (await call(admin.key, 'POST', '/api/admin/keys', { name: `${id}-user` })).body as { key: string; id: string };
        } else {
          // the workspace's admin consents in the dashboard, for the example service, read and write
          const grant = await obtainGrant(gateway.url, admin.key, { access_example: 'write', expires: '7' });
          const [record] = await gateway.runtime.store.authorization.listGrants(`firm-${id}`);
          user = { key: grant.accessToken, id: record?.id as string };
        }
        expect((await call(user.key, 'GET', '/api/v1/example/items')).status).toBe(200);
        const audit = (await call(admin.key, 'GET', '/api/admin/audit')).body as { records: Array<{ id: string }> };
        tenants[id] = {
          id: `firm-${id}`,
          admin: admin.key,
          adminId: admin.id,
          user: user.key,
          userId: user.id,
          toolSet: `${id}-set`,
          auditId: audit.records[0]?.id as string,
        };
      }
    });

    afterAll(async () => {
      for (const client of clients) await client.close();
      for (const g of gateways) await g.close();
      await upstream?.close();
    });

    it('uses each workspace’s own connection for its calls, over REST and MCP', async () => {
      for (const id of ['a', 'b'] as const) {
        expect((await call(tenants[id].user, 'GET', '/api/v1/example/items')).status).toBe(200);
        expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer token-${id}`);
        const client = await connectMcp(gateway.url, tenants[id].user);
        clients.push(client);
        const result = await client.callTool({ name: 'call_example', arguments: { method: 'list_items', params: {} } });
        expect(result.isError).toBeFalsy();
        expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer token-${id}`);
      }
    });

    it('answers every admin route given the other workspace’s ids as if they did not exist', async () => {
      const { a, b } = tenants;
      // [method, path with the other workspace's id, the same path with an id that exists nowhere, body]
      const routes: Array<[string, string, string, unknown?]> = [
        ['GET', `/api/admin/keys/${b.userId}`, '/api/admin/keys/key_0000000000000000'],
        ['DELETE', `/api/admin/keys/${b.userId}`, '/api/admin/keys/key_0000000000000000'],
        ['GET', `/api/admin/tool-sets/${b.toolSet}`, '/api/admin/tool-sets/nosuch'],
        ['DELETE', `/api/admin/tool-sets/${b.toolSet}`, '/api/admin/tool-sets/nosuch'],
        ['POST', '/api/admin/keys', '/api/admin/keys', { name: 'x', tool_set: b.toolSet }],
        ['GET', `/api/admin/workspaces/${b.id}`, '/api/admin/workspaces/nosuch'],
        ['PATCH', `/api/admin/workspaces/${b.id}`, '/api/admin/workspaces/nosuch', { name: 'Mine now' }],
        ['DELETE', `/api/admin/workspaces/${b.id}`, '/api/admin/workspaces/nosuch', { confirm: b.id }],
      ];
      for (const sub of ['keys', 'integrations', 'connections', 'audit', 'tool-sets']) {
        routes.push(['GET', `/api/admin/workspaces/${b.id}/${sub}`, `/api/admin/workspaces/nosuch/${sub}`]);
      }
      routes.push(
        ['GET', `/api/admin/workspaces/${b.id}/keys/${b.userId}`, `/api/admin/workspaces/nosuch/keys/${b.userId}`],
        ['DELETE', `/api/admin/workspaces/${b.id}/keys/${b.userId}`, `/api/admin/workspaces/nosuch/keys/${b.userId}`],
        ['POST', `/api/admin/workspaces/${b.id}/keys`, '/api/admin/workspaces/nosuch/keys', { name: 'intruder', admin: true }],
        [
          'PATCH',
          `/api/admin/workspaces/${b.id}/integrations/example`,
          '/api/admin/workspaces/nosuch/integrations/example',
          { rest_enabled: false },
        ],
        ['GET', `/api/admin/workspaces/${b.id}/connections/example`, '/api/admin/workspaces/nosuch/connections/example'],
        [
          'PUT',
          `/api/admin/workspaces/${b.id}/connections/example`,
          '/api/admin/workspaces/nosuch/connections/example',
          { token: 'stolen' },
        ],
        ['DELETE', `/api/admin/workspaces/${b.id}/connections/example`, '/api/admin/workspaces/nosuch/connections/example'],
        [
          'POST',
          `/api/admin/workspaces/${b.id}/connections/example/authorize`,
          '/api/admin/workspaces/nosuch/connections/example/authorize',
        ],
        ['PUT', `/api/admin/workspaces/${b.id}/tool-sets/${b.toolSet}`, '/api/admin/workspaces/nosuch/tool-sets/x', { rules: ['example'] }],
        ['GET', `/api/admin/workspaces/${b.id}/tool-sets/${b.toolSet}`, '/api/admin/workspaces/nosuch/tool-sets/x'],
        ['DELETE', `/api/admin/workspaces/${b.id}/tool-sets/${b.toolSet}`, '/api/admin/workspaces/nosuch/tool-sets/x'],
      );
      for (const [method, path, nowhere, body] of routes) {
        const other = await call(a.admin, method, path, body);
        const missing = await call(a.admin, method, nowhere, body);
        expect(other.status, `${method} ${path}`).toBe(404);
        expect(missing.status, `${method} ${nowhere}`).toBe(404);
        expect(other.code).toBe('not_found');
      }
      // lists and filters name only the workspace's own records
      const keys = (await call(a.admin, 'GET', '/api/admin/keys')).body as { keys: Array<{ id: string }> };
      expect(keys.keys.map((k) => k.id).sort()).toEqual((caller === 'key' ? [a.adminId, a.userId] : [a.adminId]).sort());
      const byKey = (await call(a.admin, 'GET', `/api/admin/audit?key_id=${b.userId}`)).body as { records: unknown[] };
      expect(byKey.records).toEqual([]);
      const before = (await call(a.admin, 'GET', `/api/admin/audit?cursor=${Number(b.auditId) + 1}`)).body as {
        records: Array<{ keyId: string | null }>;
      };
      expect(before.records.length).toBeGreaterThan(0);
      for (const record of before.records) expect([a.adminId, a.userId, null]).toContain(record.keyId);
      const sets = (await call(a.admin, 'GET', '/api/admin/tool-sets')).body as { tool_sets: Array<{ id: string }> };
      expect(sets.tool_sets.map((s) => s.id)).toEqual([a.toolSet]);
      const workspaces = (await call(a.admin, 'GET', '/api/admin/workspaces')).body as { workspaces: Array<{ id: string }> };
      expect(workspaces.workspaces.map((w) => w.id)).toEqual([a.id]);

      // and nothing of b changed
      expect((await call(b.user, 'GET', '/api/v1/example/items')).status).toBe(200);
      expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer token-b');
      expect(((await call(b.admin, 'GET', `/api/admin/tool-sets/${b.toolSet}`)).body as { version: number }).version).toBe(1);
      expect(((await call(gateway.key, 'GET', `/api/admin/workspaces/${b.id}`)).body as { name: string }).name).toBe('Firm B');
    });

    it('lets the operator list, rename and create workspaces, with clear refusals', async () => {
      const listed = (await call(gateway.key, 'GET', '/api/admin/workspaces')).body as {
        workspaces: Array<{ id: string; name: string; holds: Record<string, number> }>;
      };
      expect(listed.workspaces.map((w) => w.id)).toEqual(['default', 'firm-a', 'firm-b']);
      expect(listed.workspaces[1]?.holds).toMatchObject({ keys: keysHeld, connections: 1, integrations: 1, tool_sets: 1 });
      const renamed = await call(gateway.key, 'PATCH', '/api/admin/workspaces/firm-a', { name: 'Firm A & Partners' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: 'firm-a', name: 'Firm A & Partners' });
      expect(((await call(tenants.a.admin, 'GET', '/api/admin/workspaces/firm-a')).body as { name: string }).name).toBe(
        'Firm A & Partners',
      );
      expect((await call(gateway.key, 'POST', '/api/admin/workspaces', { id: 'firm-a' })).status).toBe(409);
      for (const body of [{ id: 'Firm_C' }, { id: '-c' }, { id: 'c'.repeat(41) }, { id: 'c', name: '' }, { id: 'c', colour: 'red' }]) {
        const refused = await call(gateway.key, 'POST', '/api/admin/workspaces', body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.code).toBe('bad_request');
      }
      expect((await call(gateway.key, 'PATCH', '/api/admin/workspaces/firm-a', { name: 'Firm A' })).status).toBe(200);
    });

    it('keeps workspace admins to their own workspace: no workspace management, no operator keys, no metrics', async () => {
      const { a } = tenants;
      expect((await call(a.admin, 'POST', '/api/admin/workspaces', { id: 'firm-c' })).status).toBe(403);
      expect((await call(a.admin, 'PATCH', `/api/admin/workspaces/${a.id}`, { name: 'x' })).status).toBe(403);
      expect((await call(a.admin, 'DELETE', `/api/admin/workspaces/${a.id}`, { confirm: a.id })).status).toBe(403);
      expect((await call(a.admin, 'POST', '/api/admin/keys', { name: 'x', admin: true, operator: true })).status).toBe(403);
      expect((await call(a.admin, 'GET', `/api/admin/workspaces/${a.id}/keys`)).status).toBe(200);
      expect((await call(a.user, 'GET', '/api/admin/keys')).status).toBe(403);
      expect((await call(a.user, 'GET', `/api/admin/workspaces/${a.id}/keys`)).status).toBe(403);
      // gateway-wide metrics count every workspace's calls: an operator's
      expect((await call(a.admin, 'GET', '/metrics')).status).toBe(403);
      expect((await call(gateway.key, 'GET', '/metrics')).status).toBe(200);
    });

    it('shows each key only its own workspace’s integrations over MCP and REST, with its own settings', async () => {
      const { a, b } = tenants;
      expect((await call(b.admin, 'PATCH', '/api/admin/integrations/example', { rest_enabled: false })).status).toBe(200);
      expect((await call(b.user, 'GET', '/api/v1/example/items')).status).toBe(403);
      expect((await call(a.user, 'GET', '/api/v1/example/items')).status).toBe(200);
      expect((await call(b.admin, 'PATCH', '/api/admin/integrations/example', { rest_enabled: true })).status).toBe(200);

      // b disconnects: b's tools and calls lose the connection, a keeps its own
      expect((await call(b.admin, 'DELETE', '/api/admin/connections/example')).status).toBe(200);
      const bClient = await connectMcp(gateway.url, b.user);
      const aClient = await connectMcp(gateway.url, a.user);
      clients.push(aClient, bClient);
      expect((await bClient.listTools()).tools.map((t) => t.name)).not.toContain('call_example');
      expect((await aClient.listTools()).tools.map((t) => t.name)).toContain('call_example');
      const before = upstream.requests.length;
      expect((await call(b.user, 'GET', '/api/v1/example/items')).status).toBe(424);
      expect(upstream.requests.length).toBe(before);
      expect((await call(a.user, 'GET', '/api/v1/example/items')).status).toBe(200);
      expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer token-a');
      expect((await call(b.admin, 'PUT', '/api/admin/connections/example', { token: 'token-b' })).status).toBe(200);
    });

    it('revokes in one workspace without touching the other', async () => {
      const { a, b } = tenants;
      const spare = (await call(b.admin, 'POST', '/api/admin/keys', { name: 'spare' })).body as { key: string; id: string };
      expect((await call(a.admin, 'DELETE', `/api/admin/keys/${spare.id}`)).status).toBe(404);
      expect((await call(spare.key, 'GET', '/api/v1/example/items')).status).toBe(200);
      expect((await call(b.admin, 'DELETE', `/api/admin/keys/${spare.id}`)).status).toBe(204);
      expect((await call(spare.key, 'GET', '/api/v1/example/items')).status).toBe(401);
      expect((await call(a.user, 'GET', '/api/v1/example/items')).status).toBe(200);
      expect((await call(b.user, 'GET', '/api/v1/example/items')).status).toBe(200);
    });

    it('deletes a workspace only when confirmed, with what it held; its keys stop working, the other’s do not', async () => {
      const { a, b } = tenants;
      const unconfirmed = await call(gateway.key, 'DELETE', `/api/admin/workspaces/${b.id}`);
      expect(unconfirmed.status).toBe(400);
      expect((unconfirmed.body as { message: string }).message).toMatch(
        new RegExp(
          `removes ${keysHeld + 1} API keys, 1 connection, 1 integration setting, 1 tool set, \\d+ audit records; to confirm, send confirm set to "firm-b"`,
        ),
      );
      expect((await call(gateway.key, 'DELETE', `/api/admin/workspaces/${b.id}`, { confirm: 'firm-a' })).status).toBe(400);
      expect((await call(b.user, 'GET', '/api/v1/example/items')).status).toBe(200);
      const deleted = await call(gateway.key, 'DELETE', `/api/admin/workspaces/${b.id}`, { confirm: b.id });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({
        id: b.id,
        deleted: true,
        removed: { keys: keysHeld + 1, connections: 1, integrations: 1, tool_sets: 1 },
      });
      for (const via of gateways) {
        // every instance: the deletion is a change notification (PostgreSQL: NOTIFY)
        const started = Date.now();
        while ((await call(b.user, 'GET', '/api/v1/example/items', undefined, via)).status !== 401) {
          expect(Date.now() - started).toBeLessThan(2_000);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect((await call(b.admin, 'GET', '/api/admin/keys', undefined, via)).status).toBe(401);
        expect((await call(a.user, 'GET', '/api/v1/example/items', undefined, via)).status).toBe(200);
        expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer token-a');
      }
      expect((await call(gateway.key, 'GET', `/api/admin/workspaces/${b.id}`)).status).toBe(404);
      expect((await call(gateway.key, 'GET', `/api/admin/workspaces/${b.id}/keys`)).status).toBe(404);
      const remaining = (await call(gateway.key, 'GET', '/api/admin/workspaces')).body as { workspaces: Array<{ id: string }> };
      expect(remaining.workspaces.map((w) => w.id)).toEqual(['default', a.id]);
      expect((await call(gateway.key, 'DELETE', '/api/admin/workspaces/default', { confirm: 'default' })).status).toBe(409);
    });

    if (instances > 1) {
      it('a tool set edited on one instance narrows the keys bound to it on the other', async () => {
        const [one, two] = gateways as [TestGateway, TestGateway];
        const { a } = tenants;
        const bound = (await call(a.admin, 'POST', '/api/admin/keys', { name: 'bound', tool_set: a.toolSet }, one)).body as { key: string };
        expect((await call(bound.key, 'GET', '/api/v1/example/items', undefined, two)).status).toBe(200);
        expect((await call(a.admin, 'PUT', `/api/admin/tool-sets/${a.toolSet}`, { rules: ['example:get_*'] }, one)).status).toBe(200);
        const started = Date.now();
        while ((await call(bound.key, 'GET', '/api/v1/example/items', undefined, two)).status !== 403) {
          expect(Date.now() - started).toBeLessThan(2_000);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
    }
  });
}
