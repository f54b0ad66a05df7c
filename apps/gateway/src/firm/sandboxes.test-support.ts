import type { SandboxServer } from '@portico/core';
import accounting from '@portico/plugin-accounting';
import calls from '@portico/plugin-calls';
import crm from '@portico/plugin-crm';
import practice from '@portico/plugin-practice';
import { expect } from 'vitest';

// Fresh sandboxes of Clio, Lawmatics, QuickBooks and CallRail, each read in its own wire format (no gateway in
// between): what the firm's tests look at.

export type Json = Record<string, unknown>;
export type Ref = { id: number } | null;

export interface Resource {
  id: string;
  attributes: Json;
  relationships?: Record<string, { data: { id: string; type: string } | Array<{ id: string }> | null }>;
}

export interface FirmSandboxes {
  /** A Clio collection's records (`fields` as Clio takes them, up to 200). */
  clio<T = Json>(collection: string, fields: string, query?: string): Promise<T[]>;
  /** Every record of a Lawmatics collection, all pages, with every field. */
  lawmatics<T = Resource>(collection: string): Promise<T[]>;
  /** Every QuickBooks entity of a kind. */
  quickbooks<T = Json>(entity: string): Promise<T[]>;
  /** Every record of a CallRail list over every account, all pages. */
  callrail<T = Json>(what: string, key: string, query?: string): Promise<T[]>;
  close(): Promise<void>;
}

async function read<T>(url: string, authorization: string): Promise<T> {
  const response = await fetch(url, { headers: { authorization }, signal: AbortSignal.timeout(10_000) });
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

export async function startFirmSandboxes(): Promise<FirmSandboxes> {
  const started: SandboxServer[] = [];
  const start = async (plugin: { sandbox?: () => Promise<{ startSandbox(options?: object): Promise<SandboxServer> }> }) => {
    const server = await (await (plugin.sandbox as NonNullable<typeof plugin.sandbox>)()).startSandbox({ port: 0 });
    started.push(server);
    return server;
  };
  const clioUrl = (await start(practice)).url;
  const lawmaticsUrl = (await start(crm)).url;
  const qbo = await start(accounting);
  const realm = String(qbo.connection?.realmId);
  const callrailUrl = (await start(calls)).url;
  return {
    clio: async <T>(collection: string, fields: string, query = '') =>
      (await read<{ data: T[] }>(`${clioUrl}/${collection}.json?fields=${fields}&limit=200${query}`, 'Bearer sandbox-clio-token')).data,
    lawmatics: async <T>(collection: string) => {
      const all: T[] = [];
      let next: string | undefined = `${lawmaticsUrl}/${collection}?fields=all&sort_by=id&sort_order=asc`;
      while (next) {
        const page: { data: T[]; links: { next?: string } } = await read(next, 'Bearer sandbox-lawmatics-token');
        all.push(...page.data);
        next = page.links.next;
      }
      return all;
    },
    quickbooks: async <T>(entity: string) =>
      (
        await read<{ QueryResponse: Record<string, T[]> }>(
          `${qbo.url}/v3/company/${realm}/query?query=${encodeURIComponent(`select * from ${entity} maxresults 1000`)}`,
          'Bearer sandbox-quickbooks-access-token',
        )
      ).QueryResponse[entity] ?? [],
    callrail: async <T>(what: string, key: string, query = '') => {
      const auth = 'Token token="sandbox-callrail-key"';
      const { accounts } = await read<{ accounts: Array<{ id: string }> }>(`${callrailUrl}/a.json`, auth);
      const all: T[] = [];
      for (const account of accounts) {
        for (let page = 1; ; page++) {
          const body = await read<Record<string, T[]> & { total_pages: number }>(
            `${callrailUrl}/a/${account.id}/${what}.json?per_page=250&page=${page}${query}`,
            auth,
          );
          all.push(...(body[key] ?? []));
          if (page >= body.total_pages) break;
        }
      }
      return all;
    },
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}

/** A phone number's ten digits, however it is written. */
export const digits = (phone: unknown) =>
  String(phone ?? '')
    .replace(/\D/g, '')
    .replace(/^1(?=\d{10}$)/, '');
export const lower = (text: unknown) => String(text ?? '').toLowerCase();
export const fullName = (r: Resource) => `${r.attributes.first_name} ${r.attributes.last_name}`;
