import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { callWith, dashboardAs } from './hostile.test-support.js';

/**
 * As a property: a key never creates, edits or revokes anything wider than itself
 * (docs/security.md, "One rule for powers"). For each generated admin key shape — workspace, operator, services,
 * read-only, tool set — every admin route that changes something (under both prefixes) and every dashboard form is
 * tried; what the rule (written out here independently of the gateway's code) says is wider must be refused with
 * nothing changed, and what lies within must still work.
 */

const RUNS = Math.max(200, Number(process.env.PORTICO_FUZZ_RUNS ?? '200'));
const SEED = Number(process.env.PORTICO_FUZZ_SEED ?? '20261126');
const SERVICES = ['notion', 'slack'] as const;

interface Shape {
  workspace: 'default' | 'firm';
  operator: boolean;
  services: '*' | string[];
  readOnly: boolean;
  toolSet: string | null;
  prefix: 'own' | 'addressed';
}

const shapes: fc.Arbitrary<Shape> = fc
  .record({
    workspace: fc.constantFrom('default' as const, 'firm' as const),
    operator: fc.boolean(),
    services: fc.oneof(fc.constant('*' as const), fc.subarray([...SERVICES], { minLength: 1 })),
    readOnly: fc.boolean(),
    toolSet: fc.constantFrom(null, 'narrow'),
    prefix: fc.constantFrom('own' as const, 'addressed' as const),
  })
  .map((shape) => ({ ...shape, operator: shape.operator && shape.workspace === 'default' }));

// ---- the rule, written out for the test -------------------------------------------------------------------------

const reaches = (shape: Shape, service: string) => shape.services === '*' || shape.services.includes(service);
/** May change what governs every key on `service`: all of it, reads and writes, no tool set. */
const mayChange = (shape: Shape, service: string) => reaches(shape, service) && !shape.readOnly && !shape.toolSet;
const unnarrowed = (shape: Shape) => shape.services === '*' && !shape.readOnly && !shape.toolSet;

let gateway: TestGateway;
let counter = 0;

beforeAll(async () => {
  gateway = await startTestGateway({ env: { PORTICO_PLUGINS: 'notes,chat' } });
  expect((await callWith(gateway, gateway.key, 'POST', '/api/admin/workspaces', { id: 'firm', name: 'Firm' })).status).toBe(201);
  for (const workspace of ['default', 'firm']) {
    const set = await callWith(gateway, gateway.key, 'PUT', `/api/admin/workspaces/${workspace}/tool-sets/narrow`, {
      rules: ['notion:list_users'],
    });
    expect(set.status).toBe(201);
  }
}, 30_000);
afterAll(async () => {
  await gateway?.close();
});

async function keyAs(workspace: string, body: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const res = await callWith(gateway, gateway.key, 'POST', `/api/admin/workspaces/${workspace}/keys`, { name: `k${++counter}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { key: string; id: string };
}

const refusedByRule = (res: { status: number; body: unknown }) =>
  res.status === 403 && /wider than itself|may not change|may not edit tool sets|Only an operator/.test(JSON.stringify(res.body));

async function keyRecord(workspace: string, id: string) {
  return gateway.runtime.engine.store.getApiKey(workspace, id);
}

describe('no key grants more than it holds', () => {
  it(`holds for ${RUNS} generated admin key shapes over every admin route and dashboard form`, async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const ws = shape.workspace;
        const actor = await keyAs(ws, {
          admin: true,
          ...(shape.operator ? { operator: true } : {}),
          services: shape.services,
          read_only: shape.readOnly,
          ...(shape.toolSet ? { tool_set: shape.toolSet } : {}),
        });
        const prefix = shape.prefix === 'own' ? '/api/admin' : `/api/admin/workspaces/${ws}`;
        const api = (method: string, path: string, body?: unknown) => callWith(gateway, actor.key, method, `${prefix}${path}`, body);
        const expectRule = (res: { status: number; body: unknown }, allowed: boolean, what: string) =>
          expect(refusedByRule(res), `${what} ${JSON.stringify(shape)} → ${res.status} ${JSON.stringify(res.body)}`).toBe(!allowed);

        // keys: with nothing said, the new key inherits the creator's narrowing
        const plain = await api('POST', '/keys', { name: `p${++counter}` });
        expect(plain.status).toBe(201);
        expect(plain.body).toMatchObject({ services: shape.services, read_only: shape.readOnly, tool_set: shape.toolSet ?? null });
        expectRule(
          await api('POST', '/keys', { name: `w${++counter}`, services: '*', read_only: false, tool_set: null }),
          unnarrowed(shape),
          'wide key',
        );
        for (const service of SERVICES)
          expectRule(await api('POST', '/keys', { name: `s${++counter}`, services: [service] }), reaches(shape, service), `${service} key`);
        expectRule(await api('POST', '/keys', { name: `o${++counter}`, admin: true, operator: true }), shape.operator, 'operator key');
        const wide = await keyAs(ws, { services: '*' });
        const revokeWide = await api('DELETE', `/keys/${wide.id}`);
        expectRule(revokeWide, unnarrowed(shape), 'revoke wide');
        expect(Boolean((await keyRecord(ws, wide.id))?.revokedAt)).toBe(unnarrowed(shape));
        const within = await keyAs(ws, {
          services: shape.services,
          read_only: true,
          ...(shape.toolSet ? { tool_set: shape.toolSet } : {}),
        });
        expect((await api('DELETE', `/keys/${within.id}`)).status, 'revoke a narrower key').toBe(204);
        if (ws === 'default') {
          const operatorKey = await keyAs('default', { admin: true, operator: true });
          expectRule(await api('DELETE', `/keys/${operatorKey.id}`), shape.operator && unnarrowed(shape), 'revoke operator');
          expect(Boolean((await keyRecord('default', operatorKey.id))?.revokedAt)).toBe(shape.operator && unnarrowed(shape));
        }

        // integrations and connections: only a key that reaches all of that service
        for (const service of SERVICES) {
          const allowed = mayChange(shape, service);
          expectRule(await api('PATCH', `/integrations/${service}`, { mcp_enabled: true }), allowed, `toggle ${service}`);
          expectRule(await api('PUT', `/connections/${service}`, { token: `token-${counter}` }), allowed, `connect ${service}`);
          expectRule(await api('POST', `/connections/${service}/authorize`), allowed, `authorize ${service}`);
          expectRule(await api('DELETE', `/connections/${service}`), allowed, `disconnect ${service}`);
        }

        // tool sets: only a key bound to none, with every service, reads and writes
        const before = await gateway.runtime.engine.toolSets.get(ws, 'narrow');
        expectRule(await api('PUT', '/tool-sets/narrow', { rules: ['notion:*', 'slack:*'] }), unnarrowed(shape), 'widen own set');
        if (unnarrowed(shape)) await api('PUT', '/tool-sets/narrow', { rules: ['notion:list_users'] });
        else expect((await gateway.runtime.engine.toolSets.get(ws, 'narrow'))?.record.version).toBe(before?.record.version);
        expectRule(await api('PUT', `/tool-sets/t${counter}`, { rules: ['slack:*'] }), unnarrowed(shape), 'new set');
        expectRule(await api('DELETE', `/tool-sets/t${counter}`), unnarrowed(shape), 'delete set');

        // workspaces: operators only; another workspace: operators only (404 for others)
        const created = await callWith(gateway, actor.key, 'POST', '/api/admin/workspaces', { id: `w${++counter}`, name: 'W' });
        expect(created.status === 201, 'create workspace').toBe(shape.operator);
        const other = ws === 'default' ? 'firm' : 'default';
        const elsewhere = await callWith(gateway, actor.key, 'POST', `/api/admin/workspaces/${other}/keys`, { name: `x${++counter}` });
        expect(elsewhere.status === 201, 'key in another workspace').toBe(shape.operator);

        // the dashboard's forms, signed in with the same key
        const dashboard = await dashboardAs(gateway, actor.key);
        const flashAfter = async (res: Response) =>
          res.status === 303 ? await (await dashboard.get(res.headers.get('location') as string)).text() : await res.text();
        const refusedForm = async (res: Response) => /class="flash error"[^<]*>[^<]*(may not|Only an operator)/.test(await flashAfter(res));
        for (const access of ['read_only', 'full', 'admin']) {
          const res = await dashboard.post('/dashboard/keys', { name: `d${++counter}`, access, expires: 'never' });
          expect(await refusedForm(res), `dashboard ${access} key ${JSON.stringify(shape)}`).toBe(access !== 'read_only' && shape.readOnly);
        }
        const wideAgain = await keyAs(ws, { services: '*' });
        expect(await refusedForm(await dashboard.post(`/dashboard/keys/${wideAgain.id}/revoke`, {})), 'dashboard revoke wide').toBe(
          !unnarrowed(shape),
        );
        if (ws === 'default') {
          const operatorKey = await keyAs('default', { admin: true, operator: true });
          const page = await (await dashboard.get('/dashboard/keys')).text();
          expect(page).toMatch(new RegExp(`data-key="${operatorKey.id}"[\\s\\S]*?operator · all services`));
          const res = await dashboard.post(`/dashboard/keys/${operatorKey.id}/revoke`, {});
          expect(await refusedForm(res), 'dashboard revoke operator').toBe(!(shape.operator && unnarrowed(shape)));
          expect(Boolean((await keyRecord('default', operatorKey.id))?.revokedAt)).toBe(shape.operator && unnarrowed(shape));
        }
        for (const service of SERVICES) {
          const refused = !mayChange(shape, service);
          const forms: Array<[string, Record<string, string>]> = [
            ['switch', { protocol: 'rest', enabled: 'on' }],
            ['base-url', { base_url: '' }],
            ['token', { token: `t-${counter}` }],
            ['oauth', {}],
            ['disconnect', {}],
          ];
          for (const [form, fields] of forms) {
            const res = await dashboard.post(`/dashboard/integrations/${service}/${form}`, fields);
            expect(await refusedForm(res), `dashboard ${form} ${service} ${JSON.stringify(shape)}`).toBe(refused);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
