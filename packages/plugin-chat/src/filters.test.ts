import { describeFilters, type FilterRecord, filterParams, pickValue, useSandbox } from '@portico/core/testing';
import { slackPlugin } from './index.js';

// Every documented list filter of the Slack plugin against its sandbox: values come from the seeded records.

// The filter suite only lists: the seed laid at start serves every case, unrestored.
const harness = useSandbox(slackPlugin, { resetEachTest: false });
const LISTS = /^(list|read|search)_/;
const ALL_TYPES = 'public_channel,private_channel,mpim,im';

const channelType = (c: FilterRecord) => (c.is_im ? 'im' : c.is_mpim ? 'mpim' : c.is_private ? 'private_channel' : 'public_channel');

/** The busiest channel the bot is in, for the history filters. */
async function busiest(call: typeof harness.call) {
  const { channels } = await call<{ channels: FilterRecord[] }>('list_channels', { types: 'public_channel,private_channel', limit: 999 });
  let best: { channel: string; count: number } = { channel: '', count: -1 };
  for (const channel of channels) {
    const { messages } = await call<{ messages?: FilterRecord[] }>('read_messages', { channel: channel.id, limit: 999 }).catch(() => ({
      messages: [],
    }));
    if ((messages?.length ?? 0) > best.count) best = { channel: String(channel.id), count: messages?.length ?? 0 };
  }
  return { channel: best.channel, limit: 999 };
}

/** The timestamp in the middle of the history: a bound that keeps some messages and drops others. */
const middleTs = (records: FilterRecord[]) => {
  const stamps = records.map((m) => String(m.ts)).sort((a, b) => Number(a) - Number(b));
  return stamps.length >= 2 ? stamps[Math.floor(stamps.length / 2)] : undefined;
};

describeFilters(slackPlugin, {
  harness,
  filtersOf: (plugin) => new Map(plugin.operations.filter((o) => LISTS.test(o.name)).map((o) => [o.name, filterParams(o)])),
  records: (body) => {
    const answer = body as Record<string, FilterRecord[] | undefined>;
    return answer.channels ?? answer.messages ?? answer.members ?? answer.items ?? [];
  },
  identity: (record) => record.id ?? record.ts,
  cases: [
    {
      operation: 'list_channels',
      filters: ['types'],
      base: { types: ALL_TYPES, limit: 999 },
      pick: (records) => {
        const picked = pickValue(records, channelType);
        return picked && { params: { types: picked.value }, matches: picked.matches };
      },
    },
    {
      operation: 'list_channels',
      filters: ['exclude_archived'],
      base: { types: ALL_TYPES, limit: 999 },
      pick: () => ({ params: { exclude_archived: true }, matches: (c) => c.is_archived !== true }),
    },
    {
      operation: 'read_messages',
      filters: ['oldest'],
      base: busiest,
      pick: (records) => {
        const ts = middleTs(records);
        // Inclusive, as the operation documents (the gateway sends inclusive=true).
        return ts === undefined ? undefined : { params: { oldest: ts }, matches: (m) => Number(m.ts) >= Number(ts) };
      },
    },
    {
      operation: 'read_messages',
      filters: ['latest'],
      base: busiest,
      pick: (records) => {
        const ts = middleTs(records);
        return ts === undefined ? undefined : { params: { latest: ts }, matches: (m) => Number(m.ts) <= Number(ts) };
      },
    },
  ],
});
