import { OperationIndex, type Plugin, Registry, silentLogger } from '@portico/core';
import { beforeAll, describe, expect, it } from 'vitest';
import dev from '../fixtures/search-eval/dev.json' with { type: 'json' };
import { loadPlugins } from './load.js';

/** A service's names and cues as a person would write them: `*` of a cue ("#*") is one word of theirs. */
const spoken = (cue: string) => cue.replace(/\*/g, 'billing');

let plugins: Plugin[];
let index: OperationIndex;
beforeAll(async () => {
  plugins = await loadPlugins(undefined, silentLogger);
  const registry = new Registry();
  for (const plugin of plugins) registry.register(plugin);
  index = new OperationIndex(registry.list());
});

const top = (query: string, limit = 1) => index.search(query, { limit }).map((hit) => `${hit.service}.${hit.method}`);

describe('search_methods routes a request to the service it names', () => {
  it('ranks the named service first for every task of the other services, whenever it has a matching operation', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const plugin of plugins) {
      const said = [plugin.service, plugin.displayName, ...(plugin.vocabulary?.names ?? []), ...(plugin.vocabulary?.cues ?? [])];
      expect(said.length, `${plugin.service} has names and cues`).toBeGreaterThan(3);
      for (const cue of said.map(spoken)) {
        for (const { task, expect: wanted } of dev.filter((_, i) => i % 10 === 0)) {
          // A task naming another service already ("the wiki page", "in Notion") names two.
          if (wanted.some((name) => name.startsWith(`${plugin.service}.`)) || index.namedServices(task).length > 0) continue;
          const query = `${task} in ${cue}`;
          const [first] = index.search(query, { limit: 1 });
          // ranked first, it has a match; otherwise only a service with a matching operation must come first
          if (first?.service !== plugin.service) {
            const own = index.search(query, { limit: 1, filter: ({ service }) => service === plugin.service });
            if (own.length === 0) continue;
            wrong.push(`"${query}" → ${first?.service}.${first?.method}`);
          }
          checked++;
          expect(index.namedServices(query), query).toEqual([plugin.service]);
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(wrong).toEqual([]);
  });

  it('reads the product words of each application', () => {
    expect(top("what's been said in #billing today?")).toEqual(['slack.read_messages']);
    expect(top('add Omar to #litigation')).toEqual(['slack.invite_to_channel']);
    expect(top('unpaid vendor bills', 3).every((name) => name.startsWith('quickbooks.'))).toBe(true);
    expect(top('A/R aging as of today')[0]).toMatch(/^quickbooks\.report_aged_receivable/);
    expect(top('call volume by week', 3).every((name) => name.startsWith('callrail.'))).toBe(true);
    expect(top('add a workspace page about parking', 1)[0]).toMatch(/^notion\./);
    expect(top('ping @maria that the brief went out')).toEqual(['slack.send_message']);
    expect(top('DM Sarah that the filing is done')).toEqual(['slack.send_message']);
    expect(top('first-time callers this week')).toEqual(['callrail.list_calls']);
    expect(top('calls routed through the swap target number', 3).every((name) => name.startsWith('callrail.'))).toBe(true);
  });

  it('reads an email address as no Slack mention', () => {
    expect(index.namedServices('send the invoice to ann@firm.com')).not.toContain('slack');
  });

  it('ranks the named service first wherever the name stands in the request', () => {
    const wrong: string[] = [];
    for (const plugin of plugins) {
      for (const name of [plugin.displayName, ...(plugin.vocabulary?.names ?? [])]) {
        for (const { task, expect: wanted } of dev.filter((_, i) => i % 25 === 0)) {
          if (wanted.some((n) => n.startsWith(`${plugin.service}.`)) || index.namedServices(task).length > 0) continue;
          for (const query of [`${name}: ${task}`, `in ${name}, ${task}`]) {
            const [first] = index.search(query, { limit: 1 });
            if (first?.service === plugin.service) continue;
            if (index.search(query, { limit: 1, filter: ({ service }) => service === plugin.service }).length === 0) continue;
            wrong.push(`"${query}" → ${first?.service}.${first?.method}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ranks a request naming no service across all of them', () => {
    const services = new Set(index.search('notes added this week', { limit: 10 }).map((hit) => hit.service));
    expect(services.size).toBeGreaterThan(1);
    const invoices = new Set(index.search('unpaid invoices', { limit: 10 }).map((hit) => hit.service));
    expect(invoices.size).toBeGreaterThan(1);
  });

  it('falls back to the other services when the named one has no matching operation', () => {
    expect(index.search('qqqq zzzz in Slack', { limit: 1 })).toEqual([]);
    expect(index.search('trial balance in Slack', { limit: 3, filter: ({ service }) => service === 'slack' })).toEqual([]);
    expect(top('trial balance in Slack')[0]).toMatch(/^quickbooks\./);
  });
});

describe('search_methods and two operations that do the same', () => {
  const preferredPairs = () =>
    plugins.flatMap((plugin) =>
      plugin.operations.flatMap((operation) =>
        operation.preferred ? [{ service: plugin.service, other: operation.name, preferred: operation.preferred }] : [],
      ),
    );

  it('names the preferred one in the other one’s description', () => {
    const pairs = preferredPairs();
    expect(pairs.map(({ service, other }) => `${service}.${other}`).sort()).toEqual([
      'callrail.get_sms_thread',
      'callrail.list_sms_threads',
      'quickbooks.find_company_infos',
    ]);
    for (const { service, other, preferred } of pairs) {
      const description = plugins.find((p) => p.service === service)?.operations.find((o) => o.name === other)?.description;
      expect(description, `${service}.${other}`).toContain(preferred);
    }
  });

  it('ranks the preferred one above the other, even for the other one’s own words', () => {
    for (const { service, other, preferred } of preferredPairs()) {
      const spoken = other.replace(/_/g, ' ');
      for (const query of [spoken, `${spoken} in ${service}`]) {
        const names = top(query, 10);
        expect(names, query).toContain(`${service}.${preferred}`);
        const at = (name: string) => (names.includes(name) ? names.indexOf(name) : names.length);
        expect(at(`${service}.${preferred}`), query).toBeLessThan(at(`${service}.${other}`));
      }
    }
    expect(top('which QuickBooks company are we connected to')[0]).toBe('quickbooks.get_company_info');
    expect(top('text conversations with callers in CallRail')[0]).toBe('callrail.list_text_message_conversations');
    expect(top('read the SMS thread with this caller')[0]).toBe('callrail.get_text_message_conversation');
  });
});
