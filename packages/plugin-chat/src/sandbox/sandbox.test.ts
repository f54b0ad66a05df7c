import { Buffer } from 'node:buffer';
import { useSandbox } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { slackPlugin } from '../index.js';

const SERVICE = 'slack';
const WORKSPACE = 'default';
const GENERAL = 'C05GENERAL1';

type Body = Record<string, unknown>;
interface Page extends Body {
  messages: Array<Record<string, unknown>>;
  has_more: boolean;
  response_metadata: { next_cursor: string };
}

const harness = useSandbox(slackPlugin);

const call = <T = Body>(operation: string, params: Body = {}) => harness.call<T>(operation, params);
/** The GatewayError an operation fails with (fails the test when it succeeds). */
const failure = (operation: string, params: Body = {}) => harness.failure(operation, params);

describe('messages', () => {
  it('pages through the 45 messages of #general, newest first, 20 at a time', async () => {
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const page: Page = await call<Page>('read_messages', { channel: GENERAL, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.response_metadata.next_cursor || undefined;
    } while (cursor && pages.length < 10);

    expect(pages.map((p) => p.messages.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages[2]?.response_metadata.next_cursor).toBe('');
    const all = pages.flatMap((p) => p.messages);
    const stamps = all.map((m) => Number(m.ts));
    expect(new Set(stamps).size).toBe(45);
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);
    expect(all[0]?.text).toBe('Month-end close is done; invoices go out tomorrow, past-due reminders in #billing.');
    expect(all[44]?.text).toContain('Welcome to Harlow & Pike');
  });

  it('treats oldest and latest as inclusive bounds', async () => {
    const newest = (await call<Page>('read_messages', { channel: GENERAL, limit: 3 })).messages;
    const [first, , third] = newest.map((m) => String(m.ts));
    const window = await call<Page>('read_messages', { channel: GENERAL, oldest: third, latest: first });
    expect(window.messages.map((m) => m.ts)).toEqual(newest.map((m) => m.ts));
  });

  it('posts a message (POST) and reads it back first', async () => {
    const sent = await call('send_message', { channel: GENERAL, text: 'Deploy of billing-api v2.4.2 finished' });
    expect(sent).toMatchObject({
      ok: true,
      channel: GENERAL,
      message: { text: 'Deploy of billing-api v2.4.2 finished', user: 'U05PORTICO0' },
    });
    const latest = await call<Page>('read_messages', { channel: GENERAL, limit: 1 });
    expect(latest.messages[0]).toMatchObject({ ts: sent.ts, text: 'Deploy of billing-api v2.4.2 finished' });
  });

  it('reads a thread parent first, and a reply sent with thread_ts joins it without entering the history', async () => {
    const history = await call<Page>('read_messages', { channel: GENERAL, limit: 45 });
    const parent = history.messages.find((m) => m.reply_count === 3);
    expect(parent?.text).toContain('All-hands');
    const timestamp = String(parent?.ts);

    await call('send_message', { channel: GENERAL, text: 'I will do the CI demo.', thread_ts: timestamp });
    const thread = await call<Page>('read_thread', { channel: GENERAL, ts: timestamp });
    expect(thread.messages).toHaveLength(5);
    expect(thread.messages[0]?.ts).toBe(timestamp);
    expect(thread.messages[4]).toMatchObject({ text: 'I will do the CI demo.', thread_ts: timestamp });

    const paged = await call<Page>('read_thread', { channel: GENERAL, ts: timestamp, limit: 2 });
    expect(paged.messages).toHaveLength(2);
    expect(paged.has_more).toBe(true);
    const rest = await call<Page>('read_thread', {
      channel: GENERAL,
      ts: timestamp,
      limit: 10,
      cursor: paged.response_metadata.next_cursor,
    });
    expect(rest.messages.map((m) => m.text)).toEqual(thread.messages.slice(2).map((m) => m.text));

    const after = await call<Page>('read_messages', { channel: GENERAL, limit: 1 });
    expect(after.messages[0]?.text).not.toBe('I will do the CI demo.');
  });
});

describe('channels', () => {
  it('lists public channels by default (archived included) and filters by type and archive state', async () => {
    const names = (body: Body) => (body.channels as Array<{ name: string }>).map((c) => c.name).sort();
    expect(names(await call('list_channels'))).toEqual(['billing', 'general', 'intake', 'offsite-2023', 'random']);
    expect(names(await call('list_channels', { exclude_archived: true }))).toEqual(['billing', 'general', 'intake', 'random']);
    expect(names(await call('list_channels', { types: 'private_channel' }))).toEqual(['leadership']);
    const withIm = (await call('list_channels', { types: 'im' })).channels as Array<Record<string, unknown>>;
    expect(withIm).toEqual([expect.objectContaining({ is_im: true, user: 'U05ALICE001' })]);
  });

  it('pages channels with a cursor', async () => {
    const first = await call('list_channels', { limit: 3 });
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBe('');
    const second = await call('list_channels', { limit: 3, cursor });
    expect((second.response_metadata as { next_cursor: string }).next_cursor).toBe('');
    const ids = [...(first.channels as Body[]), ...(second.channels as Body[])].map((c) => c.id);
    expect(new Set(ids).size).toBe(5);
  });

  it('gets channel info with the member count', async () => {
    const info = await call('get_channel_info', { channel: GENERAL, include_num_members: true });
    expect(info.channel).toMatchObject({ id: GENERAL, name: 'general', is_general: true, num_members: 6 });
    expect((await call('get_channel_info', { channel: GENERAL })).channel).not.toHaveProperty('num_members');
  });

  it('creates a private channel, then refuses the same name as a conflict', async () => {
    const created = await call('create_channel', { name: 'project-apollo', is_private: true });
    const channel = created.channel as Body;
    expect(channel).toMatchObject({ name: 'project-apollo', is_private: true, is_member: true });
    expect((await call('get_channel_info', { channel: channel.id })).channel).toMatchObject({ name: 'project-apollo' });
    expect((await failure('create_channel', { name: 'project-apollo' })).code).toBe('conflict');
    expect((await failure('create_channel', { name: 'Project Apollo' })).code).toBe('bad_request');
  });

  it('archives a channel once; archiving again is a conflict and #general cannot be archived', async () => {
    expect(await call('archive_channel', { channel: 'C05LAUNCH01' })).toEqual({ ok: true });
    expect((await call('get_channel_info', { channel: 'C05LAUNCH01' })).channel).toMatchObject({ is_archived: true });
    const again = await failure('archive_channel', { channel: 'C05LAUNCH01' });
    expect(again.code).toBe('conflict');
    expect(again.message).toContain('already_archived');
    expect((await failure('archive_channel', { channel: GENERAL })).message).toContain('cant_archive_general');
  });

  it('invites users; inviting the bot itself or an unknown user fails with the right code', async () => {
    const invited = await call('invite_to_channel', { channel: 'C05LAUNCH01', users: 'U05BRUNO002,U05ELENA005' });
    expect(invited.channel).toMatchObject({ id: 'C05LAUNCH01' });
    expect((await call('get_channel_info', { channel: 'C05LAUNCH01', include_num_members: true })).channel).toMatchObject({
      num_members: 6,
    });
    expect((await failure('invite_to_channel', { channel: 'C05LAUNCH01', users: 'U05PORTICO0' })).code).toBe('bad_request');
    expect((await failure('invite_to_channel', { channel: 'C05LAUNCH01', users: 'U05BRUNO002' })).code).toBe('conflict');
    expect((await failure('invite_to_channel', { channel: 'C05LAUNCH01', users: 'U0NOBODY00' })).code).toBe('not_found');
  });
});

describe('reactions and pins', () => {
  async function latestTs(): Promise<string> {
    return String((await call<Page>('read_messages', { channel: GENERAL, limit: 1 })).messages[0]?.ts);
  }

  it('adds (POST), reads (GET) and removes (DELETE) a reaction', async () => {
    const timestamp = await latestTs();
    await call('add_reaction', { channel: GENERAL, timestamp, name: 'eyes' });
    const got = await call('get_reactions', { channel: GENERAL, timestamp, full: true });
    expect(got).toMatchObject({ type: 'message', channel: GENERAL });
    expect((got.message as Body).reactions).toEqual([{ name: 'eyes', users: ['U05PORTICO0'], count: 1 }]);

    expect((await failure('add_reaction', { channel: GENERAL, timestamp, name: 'eyes' })).code).toBe('conflict');
    expect(await call('remove_reaction', { channel: GENERAL, timestamp, name: 'eyes' })).toEqual({ ok: true });
    expect((await call('get_reactions', { channel: GENERAL, timestamp })).message).not.toHaveProperty('reactions');
    expect((await failure('remove_reaction', { channel: GENERAL, timestamp, name: 'eyes' })).code).toBe('not_found');
  });

  it('reads seeded reactions from several people', async () => {
    const history = await call<Page>('read_messages', { channel: GENERAL, limit: 45 });
    const renewal = history.messages.find((m) => String(m.text).startsWith('Northwind signed the tolling agreement'));
    const got = await call('get_reactions', { channel: GENERAL, timestamp: renewal?.ts });
    expect((got.message as Body).reactions).toContainEqual({ name: 'tada', users: expect.any(Array), count: 4 });
  });

  it('pins, lists and unpins a message', async () => {
    const before = (await call('list_pins', { channel: GENERAL })).items as Body[];
    expect(before).toHaveLength(2);
    const timestamp = await latestTs();
    await call('add_pin', { channel: GENERAL, timestamp });
    const items = (await call('list_pins', { channel: GENERAL })).items as Array<{ message: Body; created_by: string }>;
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({ created_by: 'U05PORTICO0', message: { ts: timestamp } });
    expect((await failure('add_pin', { channel: GENERAL, timestamp })).code).toBe('conflict');
    await call('remove_pin', { channel: GENERAL, timestamp });
    expect((await call('list_pins', { channel: GENERAL })).items).toHaveLength(2);
    expect((await failure('remove_pin', { channel: GENERAL, timestamp })).code).toBe('not_found');
  });

  it('reports a missing message as not_found', async () => {
    const error = await failure('add_reaction', { channel: GENERAL, timestamp: '1500000000.000001', name: 'eyes' });
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('message_not_found');
  });
});

describe('files', () => {
  it('uploads binary bytes intact and shares them in the channel', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff, 0xfe, 0xff, 0x00, 0x80, 0x7f, 0x0a, 0x0d]);
    const result = await call('upload_file', {
      channel_id: GENERAL,
      filename: 'chart.png',
      content_base64: bytes.toString('base64'),
      initial_comment: 'Weekly signups chart',
    });
    const files = result.files as Array<{ id: string; title: string; size: number; mimetype: string }>;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ title: 'chart.png', size: bytes.length, mimetype: 'image/png' });

    const origin = new URL(harness.sandbox.url).origin;
    const stored = Buffer.from(await (await fetch(`${origin}/__sandbox/files/${files[0]?.id}`)).arrayBuffer());
    expect(stored.equals(bytes)).toBe(true);

    const latest = (await call<Page>('read_messages', { channel: GENERAL, limit: 1 })).messages[0];
    expect(latest).toMatchObject({ text: 'Weekly signups chart', files: [{ id: files[0]?.id }] });
  });

  it('uploads UTF-8 text privately under the default name', async () => {
    const text = 'Résumé — 2.4.1 ✓\n';
    const result = await call('upload_file', { content: text });
    const file = (result.files as Array<{ id: string; title: string; size: number; channels: string[] }>)[0];
    expect(file).toMatchObject({ title: 'upload.txt', size: Buffer.byteLength(text), channels: [] });
    const origin = new URL(harness.sandbox.url).origin;
    expect(await (await fetch(`${origin}/__sandbox/files/${file?.id}`)).text()).toBe(text);
  });

  it('refuses both or neither content before calling Slack', async () => {
    expect((await failure('upload_file', { content: 'a', content_base64: 'YQ==' })).code).toBe('bad_request');
    expect((await failure('upload_file', { channel_id: GENERAL })).code).toBe('bad_request');
  });
});

describe('users', () => {
  it('pages through the members with a cursor', async () => {
    const first = await call('list_users', { limit: 4 });
    const next = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = await call('list_users', { limit: 4, cursor: next });
    const members = [...(first.members as Body[]), ...(second.members as Body[])];
    expect((first.members as Body[]).length).toBe(4);
    expect((second.response_metadata as { next_cursor: string }).next_cursor).toBe('');
    expect(members.map((m) => m.name)).toEqual(['margaret.harlow', 'daniel.pike', 'sofia.alvarez', 'priya.raman', 'nora.quinn', 'portico']);
  });

  it('gets a user by id and by email; unknown ones are not_found', async () => {
    expect((await call('get_user_info', { user: 'U05CHLOE003' })).user).toMatchObject({
      real_name: 'Sofia Alvarez',
      tz: 'America/Los_Angeles',
    });
    const byEmail = await call('lookup_user_by_email', { email: 'Priya@HarlowPike.example' });
    expect(byEmail.user).toMatchObject({ id: 'U05DAVID004', profile: { title: 'Associate Attorney' } });
    expect((await failure('get_user_info', { user: 'U0NOBODY00' })).code).toBe('not_found');
    const missing = await failure('lookup_user_by_email', { email: 'nobody@harlowpike.example' });
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain('users_not_found');
  });
});

describe('upstream errors', () => {
  it('maps an unknown channel to not_found and a channel the bot is not in to bad_request', async () => {
    expect((await failure('read_messages', { channel: 'C0MISSING00' })).code).toBe('not_found');
    const outside = await failure('send_message', { channel: 'C05DESIGN01', text: 'hello' });
    expect(outside.code).toBe('bad_request');
    expect(outside.message).toContain('not_in_channel');
  });

  it('maps an invalid cursor to bad_request', async () => {
    expect((await failure('list_users', { cursor: 'bm9wZQ==' })).code).toBe('bad_request');
  });

  it('maps a wrong token to upstream_unauthorized', async () => {
    await harness.engine.connectToken(WORKSPACE, SERVICE, 'xoxb-wrong-token');
    try {
      const error = await failure('list_channels');
      expect(error.code).toBe('upstream_unauthorized');
      expect(error.status).toBe(502);
      expect(error.message).toContain('invalid_auth');
    } finally {
      await harness.engine.connectToken(WORKSPACE, SERVICE, harness.sandbox.token);
    }
  });

  it('maps HTTP 429 to rate_limited with Retry-After', async () => {
    await harness.failNext({ status: 429, retry_after: 7 });
    const error = await failure('list_channels');
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfter).toBe(7);
    // the failure is used up: the next call succeeds
    expect((await call('list_channels')).ok).toBe(true);
  });

  it('maps an injected ok:false answer and a 503', async () => {
    await harness.failNext({ code: 'token_revoked' });
    expect((await failure('list_users')).code).toBe('upstream_unauthorized');
    await harness.failNext({ status: 503 });
    expect((await failure('send_message', { channel: GENERAL, text: 'hi' })).code).toBe('upstream_error');
  });

  it('fails an upload whose byte transfer fails, without sharing anything', async () => {
    const before = (await call<Page>('read_messages', { channel: GENERAL, limit: 1 })).messages[0]?.ts;
    // the reservation succeeds; the transfer of the bytes to the upload URL fails
    await harness.failNext({ status: 500, match: '/upload/' });
    const error = await failure('upload_file', { channel_id: GENERAL, content: 'quarterly numbers' });
    expect(error.code).toBe('upstream_error');
    expect((await call<Page>('read_messages', { channel: GENERAL, limit: 1 })).messages[0]?.ts).toBe(before);
  });
});

describe('sandbox wire format', () => {
  it('answers Slack-style errors for a missing token and for a JSON body on files.getUploadURLExternal', async () => {
    const anonymous = await fetch(`${harness.sandbox.url}/users.list`);
    expect(await anonymous.json()).toEqual({ ok: false, error: 'not_authed' });
    const json = await fetch(`${harness.sandbox.url}/files.getUploadURLExternal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.sandbox.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.txt', length: 2 }),
    });
    expect(await json.json()).toMatchObject({ ok: false, error: 'invalid_arguments' });
  });
});
