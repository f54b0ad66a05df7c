import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isoOffset, localOffsetMinutes, sandboxNow, zoneOffsetMinutes } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Time in the firm's zone, America/Los_Angeles, in every sandbox's own format, read over MCP as an assistant reads it:
 * every timestamp written with an offset has the offset the zone has on that date (daylight or standard time), Slack's
 * tz_offset is the one in force now, and a write made now sorts after everything seeded.
 */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(() => stopSandboxedGateway({ gateway, client }));

async function call<T = Record<string, unknown>>(service: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name: `call_${service}`, arguments: { method, params } });
  if (result.isError) throw new Error(`${service}.${method}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent as T;
}

const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-]\d{2}:\d{2})$/;
const PACIFIC = new Set(['-07:00', '-08:00']);

/** Every timestamp in an answer written in Pacific time (`-07:00`/`-08:00`), with where it was found. */
function pacificStamps(value: unknown, where = ''): Array<{ where: string; stamp: string; date: string; time: string; offset: string }> {
  if (typeof value === 'string') {
    const match = STAMP.exec(value);
    return match && PACIFIC.has(match[3] as string)
      ? [{ where, stamp: value, date: match[1] as string, time: match[2] as string, offset: match[3] as string }]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => pacificStamps(item, `${where}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => pacificStamps(item, `${where}.${key}`));
  return [];
}

/** The seeded reads whose timestamps are checked, one or more per sandbox. */
const READS: Array<[service: string, method: string, params: Record<string, unknown>]> = [
  ['clio', 'list_matters', { fields: 'id,display_number,created_at,updated_at,open_date', limit: 200 }],
  ['clio', 'list_calendar_entries', { fields: 'id,summary,start_at,end_at,created_at', limit: 200 }],
  ['clio', 'list_activities', { fields: 'id,date,created_at,updated_at', limit: 200 }],
  ['lawmatics', 'list_prospects', { fields: 'all' }],
  ['quickbooks', 'find_invoices', {}],
  ['quickbooks', 'find_customers', {}],
];

describe("time in the firm's zone", () => {
  it('every seeded timestamp in Pacific time has the offset the zone has on its date', async () => {
    const found: ReturnType<typeof pacificStamps> = [];
    for (const [service, method, params] of READS)
      found.push(...pacificStamps(await call(service, method, params), `${service}.${method}`));
    const { accounts } = await call<{ accounts: Array<{ id: string }> }>('callrail', 'list_accounts');
    for (const account of accounts) {
      found.push(
        ...pacificStamps(await call('callrail', 'list_calls', { account_id: account.id, per_page: '250' }), 'callrail.list_calls'),
      );
      found.push(...pacificStamps(await call('callrail', 'list_sms_threads', { account_id: account.id }), 'callrail.list_sms_threads'));
    }
    // each application is represented, in summer and in winter alike
    for (const service of ['clio', 'lawmatics', 'quickbooks', 'callrail'])
      expect(
        found.some((f) => f.where.startsWith(service)),
        service,
      ).toBe(true);
    const wrong = found.filter((f) => f.offset !== isoOffset(localOffsetMinutes(f.date, f.time)));
    expect(wrong.slice(0, 5), `${wrong.length} of ${found.length} timestamps with the wrong offset`).toEqual([]);
  });

  it("Slack's tz_offset is the zone's offset now, in seconds", async () => {
    const { members } = await call<{ members: Array<{ tz: string; tz_offset: number }> }>('slack', 'list_users');
    expect(members.length).toBeGreaterThan(0);
    for (const member of members) {
      expect(member.tz).toBe('America/Los_Angeles');
      expect(member.tz_offset).toBe(zoneOffsetMinutes(sandboxNow()) * 60);
    }
  });

  it('a message sent now sorts after every message seeded in the channel', async () => {
    const { channels } = await call<{ channels: Array<{ id: string; name: string }> }>('slack', 'list_channels');
    const intake = channels.find((c) => c.name === 'intake') ?? channels[0];
    const before = await call<{ messages: Array<{ ts: string }> }>('slack', 'read_messages', { channel: intake?.id, limit: '999' });
    const sent = await call<{ ts: string }>('slack', 'send_message', { channel: intake?.id, text: 'Checking the clock' });
    for (const message of before.messages) expect(Number(sent.ts)).toBeGreaterThan(Number(message.ts));
    // and it carries the time it was sent, not a time from the seed
    expect(Math.abs(Number(sent.ts) * 1000 - sandboxNow())).toBeLessThan(60_000);
  });
});
