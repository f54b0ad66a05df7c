import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/** What an assistant gets back over MCP from the sandboxes: filters that filter. */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function call<T>(service: string, method: string, params: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  if (result.isError) throw new Error(`${service}.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

interface Activity {
  id: number;
  date: string;
  billed: boolean;
  non_billable: boolean;
  matter: { id: number } | null;
}

describe('Clio list_activities filters', () => {
  const fields = 'id,date,billed,non_billable,matter{id}';

  it('status unbilled and billed each return only their own time entries of the matter', async () => {
    const all = (await call<{ data: Activity[] }>('clio', 'list_activities', { fields, limit: 200 })).data;
    // a matter with time of both kinds
    const matterId = all.find((a) => a.matter && all.some((b) => b.matter?.id === a.matter?.id && b.billed !== a.billed))?.matter?.id;
    expect(matterId, 'a sandbox matter with billed and unbilled time').toBeDefined();
    const ofMatter = all.filter((a) => a.matter?.id === matterId);
    const list = async (status: string) =>
      (await call<{ data: Activity[] }>('clio', 'list_activities', { matter_id: String(matterId), status, fields })).data;
    const unbilled = await list('unbilled');
    const billed = await list('billed');
    expect(unbilled.length).toBeGreaterThan(0);
    expect(billed.length).toBeGreaterThan(0);
    expect(unbilled.every((a) => !a.billed && !a.non_billable && a.matter?.id === matterId)).toBe(true);
    expect(billed.every((a) => a.billed && a.matter?.id === matterId)).toBe(true);
    expect(billed.map((a) => a.id).sort()).toEqual(
      ofMatter
        .filter((a) => a.billed)
        .map((a) => a.id)
        .sort(),
    );
    expect(unbilled.map((a) => a.id).sort()).toEqual(
      ofMatter
        .filter((a) => !a.billed && !a.non_billable)
        .map((a) => a.id)
        .sort(),
    );
  });

  it('start_date and end_date bound the dates', async () => {
    const all = (await call<{ data: Activity[] }>('clio', 'list_activities', { fields, limit: 200 })).data;
    const dates = [...new Set(all.map((a) => a.date))].sort();
    const from = dates[1] as string;
    const to = dates[dates.length - 2] as string;
    const within = (await call<{ data: Activity[] }>('clio', 'list_activities', { start_date: from, end_date: to, fields, limit: 200 }))
      .data;
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(all.length);
    expect(within.every((a) => a.date >= from && a.date <= to)).toBe(true);
    expect(within.length).toBe(all.filter((a) => a.date >= from && a.date <= to).length);
  });
});
