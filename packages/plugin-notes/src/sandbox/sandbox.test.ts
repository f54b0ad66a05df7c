import { useSandbox } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { notionPlugin } from '../index.js';
import { SEED, taskRow } from './seed.js';

type Json = Record<string, unknown>;
interface ListBody {
  object: string;
  results: Json[];
  next_cursor: string | null;
  has_more: boolean;
}

const SERVICE = 'notion';

const harness = useSandbox(notionPlugin);

const call = <T = Json>(operation: string, params: Json = {}) => harness.call<T>(operation, params);
const failure = (operation: string, params: Json = {}) => harness.failure(operation, params);

/** Follows next_cursor until has_more is false, returning every page. */
async function allPages(operation: string, params: Record<string, unknown>): Promise<ListBody[]> {
  const pages: ListBody[] = [];
  let cursor: string | null = null;
  do {
    const page: ListBody = await call<ListBody>(operation, cursor ? { ...params, start_cursor: cursor } : params);
    pages.push(page);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor && pages.length < 20);
  return pages;
}

const plain = (richText: unknown) => (richText as Array<{ plain_text: string }>).map((t) => t.plain_text).join('');
const titleOf = (page: Json) => {
  const property = Object.values(page.properties as Record<string, Json>).find((p) => p.type === 'title');
  return plain(property?.title);
};
const text = (content: string) => [{ type: 'text', text: { content } }];
/** The value of one property of a page, e.g. value(page, 'Status', 'status') → { name: 'Done', … }. */
const value = (page: Json | undefined, name: string, type: string) =>
  ((page?.properties as Record<string, Json> | undefined)?.[name]?.[type] ?? {}) as Json;
const content = (block: Json | undefined, type: string) => (block?.[type] ?? {}) as Json;
const countTasks = (predicate: (row: ReturnType<typeof taskRow>) => boolean) =>
  Array.from({ length: SEED.taskCount }, (_, i) => taskRow(i)).filter(predicate).length;

describe('reads', () => {
  it('get_me returns the bot of the token, list_users pages through people and bots', async () => {
    const me = await call('get_me');
    expect(me).toMatchObject({ object: 'user', id: SEED.botId, type: 'bot', name: 'Portico' });

    const pages = await allPages('list_users', { page_size: 3 });
    expect(pages.map((p) => p.results.length)).toEqual([3, 1]);
    const names = pages.flatMap((p) => p.results.map((u) => u.name));
    expect(names).toEqual(expect.arrayContaining(['Portico', 'Margaret Harlow', 'Daniel Pike', 'Priya Raman']));

    const maya = await call('get_user', { user_id: SEED.people[0].id.replaceAll('-', '') });
    expect(maya).toMatchObject({ name: 'Margaret Harlow', person: { email: 'margaret@harlowpike.example' } });
  });

  it('search matches titles, filters by object type and sorts by last edit', async () => {
    const found = await call<ListBody>('search', { query: 'SPRINT' });
    expect(found.results.map(titleOf)).toEqual(['Prepare sprint review']);

    const databases = await call<ListBody>('search', { filter: { property: 'object', value: 'database' } });
    expect(databases.results.map((d) => plain(d.title)).sort()).toEqual(['Contacts', 'Tasks']);

    const oldestFirst = await call<ListBody>('search', { sort: { direction: 'ascending', timestamp: 'last_edited_time' }, page_size: 1 });
    expect(oldestFirst.results[0]?.id).toBe(SEED.rootPageId);
    expect(oldestFirst.has_more).toBe(true);
  });

  it('list_databases lists both seeded databases through search', async () => {
    const listed = await call<ListBody>('list_databases');
    expect(listed.results.every((r) => r.object === 'database')).toBe(true);
    expect(listed.results.map((d) => d.id).sort()).toEqual([SEED.contactsDatabaseId, SEED.tasksDatabaseId].sort());

    const first = await call<ListBody>('list_databases', { page_size: 1 });
    const second = await call<ListBody>('list_databases', { page_size: 1, start_cursor: first.next_cursor });
    expect(first.has_more).toBe(true);
    expect(second.has_more).toBe(false);
    expect(second.results[0]?.id).not.toBe(first.results[0]?.id);
  });

  it('get_database returns the Tasks schema', async () => {
    const tasks = await call('get_database', { database_id: SEED.tasksDatabaseId });
    const properties = tasks.properties as Record<string, Json>;
    expect(plain(tasks.title)).toBe('Tasks');
    expect(Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, p.type]))).toMatchObject({
      Name: 'title',
      Status: 'status',
      Priority: 'select',
      Due: 'date',
      Blocked: 'checkbox',
    });
  });

  it('query_database pages through all 30 rows without repeating one', async () => {
    const pages = await allPages('query_database', { database_id: SEED.tasksDatabaseId, page_size: 12 });
    expect(pages.map((p) => p.results.length)).toEqual([12, 12, 6]);
    const ids = pages.flatMap((p) => p.results.map((r) => r.id));
    expect(new Set(ids).size).toBe(SEED.taskCount);
  });

  it('query_database filters on status, select and checkbox, and sorts', async () => {
    const done = await call<ListBody>('query_database', {
      database_id: SEED.tasksDatabaseId,
      filter: { property: 'Status', status: { equals: 'Done' } },
    });
    expect(done.results).toHaveLength(countTasks((r) => r.status === 'Done'));
    expect(done.results.every((r) => value(r, 'Status', 'status').name === 'Done')).toBe(true);

    const blocked = await call<ListBody>('query_database', {
      database_id: SEED.tasksDatabaseId,
      filter: { property: 'Blocked', checkbox: { equals: true } },
    });
    expect(blocked.results.map(titleOf).sort()).toEqual(
      Array.from({ length: SEED.taskCount }, (_, i) => taskRow(i))
        .filter((r) => r.blocked)
        .map((r) => r.name)
        .sort(),
    );

    const urgentOpen = await call<ListBody>('query_database', {
      database_id: SEED.tasksDatabaseId,
      filter: {
        and: [
          { property: 'Priority', select: { equals: 'High' } },
          { property: 'Status', status: { does_not_equal: 'Done' } },
        ],
      },
      sorts: [{ property: 'Due', direction: 'descending' }],
    });
    expect(urgentOpen.results).toHaveLength(countTasks((r) => r.priority === 'High' && r.status !== 'Done'));
    const dues = urgentOpen.results.map(
      (r) => ((r.properties as Record<string, Json>).Due?.date as Json | null)?.start as string | undefined,
    );
    const dated = dues.filter((due) => due !== undefined);
    // Latest first; rows without a date come last whatever the direction, as in Notion.
    expect(dated).toEqual([...dated].sort().reverse());
    expect(dues).toEqual([...dated, ...Array(dues.length - dated.length).fill(undefined)]);
    expect(dues.length - dated.length).toBeGreaterThan(0);
  });

  it('list_block_children needs two pages for the 120-block release notes', async () => {
    const pages = await allPages('list_block_children', { block_id: SEED.releaseNotesPageId });
    expect(pages.map((p) => p.results.length)).toEqual([100, 20]);
    const blocks = pages.flatMap((p) => p.results);
    expect(plain(content(blocks[0], 'paragraph').rich_text)).toMatch(/^Release 1\.1:/);
    expect(plain(content(blocks[119], 'paragraph').rich_text)).toMatch(/^Release 1\.120:/);
  });

  it('get_page_property returns a title as a list of property items, and a status as one item', async () => {
    const title = await call('get_page_property', { page_id: SEED.sprintReviewPageId, property_id: 'title' });
    expect(title).toMatchObject({ object: 'list', type: 'property_item', has_more: false });
    expect(plain((title.results as Json[]).map((item) => item.title))).toBe('Prepare sprint review');

    const page = await call('get_page', { page_id: SEED.sprintReviewPageId });
    const statusId = ((page.properties as Record<string, Json>).Status as Json).id as string;
    const status = await call('get_page_property', { page_id: SEED.sprintReviewPageId, property_id: statusId });
    expect(status).toMatchObject({ object: 'property_item', type: 'status', status: { name: 'In progress' } });
  });

  it('list_comments returns the thread on a page and the comment on a block', async () => {
    const onPage = await call<ListBody>('list_comments', { block_id: SEED.sprintReviewPageId });
    expect(onPage.results.map((c) => plain(c.rich_text))).toEqual([
      'Can we include the login fix in the demo?',
      'Yes, if it ships by Wednesday.',
    ]);
    expect(new Set(onPage.results.map((c) => c.discussion_id))).toEqual(new Set([SEED.discussionId]));

    const onBlock = await call<ListBody>('list_comments', { block_id: SEED.roomTodoBlockId });
    expect(onBlock.results).toHaveLength(1);
  });
});

describe('writes', () => {
  it('create_page (POST) adds a row that query_database then finds; update_page (PATCH) changes and archives it', async () => {
    const created = await call('create_page', {
      parent: { database_id: SEED.tasksDatabaseId },
      properties: {
        Name: { title: text('Ship the Notion plugin') },
        Priority: { select: { name: 'Urgent' } },
        Due: { date: { start: '2024-08-01' } },
      },
      children: [{ paragraph: { rich_text: text('Covers all twenty operations.') } }],
      icon: { emoji: '🚢' },
    });
    const properties = created.properties as Record<string, Json>;
    expect(titleOf(created)).toBe('Ship the Notion plugin');
    expect(properties.Status?.status).toMatchObject({ name: 'Not started' });
    expect(properties.Priority?.select).toMatchObject({ name: 'Urgent' });
    const id = created.id as string;

    const body = await call<ListBody>('list_block_children', { block_id: id });
    expect(body.results.map((b) => plain(content(b, 'paragraph').rich_text))).toEqual(['Covers all twenty operations.']);

    const urgent = await call<ListBody>('query_database', {
      database_id: SEED.tasksDatabaseId,
      filter: { property: 'Priority', select: { equals: 'Urgent' } },
    });
    expect(urgent.results.map((r) => r.id)).toEqual([id]);

    const updated = await call('update_page', { page_id: id, properties: { Status: { status: { name: 'Done' } } } });
    expect(value(updated, 'Status', 'status').name).toBe('Done');

    await call('update_page', { page_id: id, archived: true });
    const all = await allPages('query_database', { database_id: SEED.tasksDatabaseId });
    expect(all.flatMap((p) => p.results)).toHaveLength(SEED.taskCount);
    expect(await call('get_page', { page_id: id })).toMatchObject({ archived: true, in_trash: true });

    const refused = await failure('update_page', { page_id: id, properties: { Status: { status: { name: 'Done' } } } });
    expect(refused.code).toBe('bad_request');
    expect(refused.message).toContain('archived');
  });

  it('append_block_children (PATCH) inserts at the end or after a block; update_block and delete_block (DELETE) change them', async () => {
    const before = await call<ListBody>('list_block_children', { block_id: SEED.sprintReviewPageId });
    const firstId = before.results[0]?.id as string;

    const appended = await call<ListBody>('append_block_children', {
      block_id: SEED.sprintReviewPageId,
      children: [{ heading_2: { rich_text: text('Follow-ups') } }, { to_do: { rich_text: text('Send recording'), checked: false } }],
    });
    expect(appended.results.map((b) => b.type)).toEqual(['heading_2', 'to_do']);

    const inserted = await call<ListBody>('append_block_children', {
      block_id: SEED.sprintReviewPageId,
      children: [{ quote: { rich_text: text('Demos first, slides second.') } }],
      after: firstId,
    });
    const after = await call<ListBody>('list_block_children', { block_id: SEED.sprintReviewPageId });
    expect(after.results.map((b) => b.id)).toEqual([
      firstId,
      inserted.results[0]?.id,
      ...before.results.slice(1).map((b) => b.id),
      ...appended.results.map((b) => b.id),
    ]);

    const checked = await call('update_block', { block_id: SEED.roomTodoBlockId, block_content: { to_do: { checked: true } } });
    expect(checked.to_do).toMatchObject({ checked: true });
    expect(plain((checked.to_do as Json).rich_text)).toBe('Book the large meeting room');

    const retitled = await call('update_block', {
      block_id: SEED.roomTodoBlockId,
      block_content: { to_do: { rich_text: text('Book room 4B') } },
    });
    expect(plain((retitled.to_do as Json).rich_text)).toBe('Book room 4B');
    expect(retitled.to_do).toMatchObject({ checked: true });

    const wrongType = await failure('update_block', {
      block_id: SEED.roomTodoBlockId,
      block_content: { paragraph: { rich_text: text('x') } },
    });
    expect(wrongType.code).toBe('bad_request');

    const deleted = await call('delete_block', { block_id: SEED.roomTodoBlockId });
    expect(deleted).toMatchObject({ id: SEED.roomTodoBlockId, archived: true });
    const remaining = await call<ListBody>('list_block_children', { block_id: SEED.sprintReviewPageId });
    expect(remaining.results.map((b) => b.id)).not.toContain(SEED.roomTodoBlockId);
    expect((await failure('delete_block', { block_id: SEED.roomTodoBlockId })).code).toBe('bad_request');

    const restored = await call('update_block', { block_id: SEED.roomTodoBlockId, archived: false });
    expect(restored).toMatchObject({ archived: false });
  });

  it('create_database (POST) and update_database (PATCH) define and change columns', async () => {
    const created = await call('create_database', {
      parent: { page_id: SEED.rootPageId },
      title: text('Vendors'),
      properties: { Name: { title: {} }, Website: { url: {} }, Tier: { select: { options: [{ name: 'Strategic', color: 'green' }] } } },
      is_inline: true,
    });
    expect(created).toMatchObject({ object: 'database', is_inline: true, parent: { type: 'page_id', page_id: SEED.rootPageId } });
    const id = created.id as string;

    const row = await call('create_page', {
      parent: { database_id: id },
      properties: { Name: { title: text('Globex') }, Website: { url: 'https://globex.example' }, Tier: { select: { name: 'Strategic' } } },
    });

    const updated = await call('update_database', {
      database_id: id,
      description: text('Suppliers we work with'),
      properties: { Website: { name: 'Homepage' }, Tier: null, 'Annual spend': { number: { format: 'euro' } } },
    });
    const columns = updated.properties as Record<string, Json>;
    expect(Object.keys(columns).sort()).toEqual(['Annual spend', 'Homepage', 'Name']);
    expect(columns['Annual spend']).toMatchObject({ type: 'number', number: { format: 'euro' } });
    expect(plain(updated.description)).toBe('Suppliers we work with');

    const rowAfter = await call('get_page', { page_id: row.id });
    const values = rowAfter.properties as Record<string, Json>;
    expect(values.Homepage?.url).toBe('https://globex.example');
    expect(values.Tier).toBeUndefined();
    expect(values['Annual spend']?.number).toBeNull();

    const listed = await call<ListBody>('list_databases');
    expect(listed.results.map((d) => plain(d.title))).toContain('Vendors');
  });

  it('create_comment starts a discussion on a page or replies in one', async () => {
    const started = await call('create_comment', { parent: { page_id: SEED.weeklySyncPageId }, rich_text: text('Notes are up to date.') });
    expect(started).toMatchObject({ object: 'comment', parent: { type: 'page_id', page_id: SEED.weeklySyncPageId } });

    const reply = await call('create_comment', { discussion_id: SEED.discussionId, rich_text: text('The fix shipped.') });
    expect(reply).toMatchObject({ discussion_id: SEED.discussionId, created_by: { id: SEED.botId } });

    const thread = await call<ListBody>('list_comments', { block_id: SEED.sprintReviewPageId });
    expect(thread.results.map((c) => plain(c.rich_text))).toEqual([
      'Can we include the login fix in the demo?',
      'Yes, if it ships by Wednesday.',
      'The fix shipped.',
    ]);
  });

  it('runs the example of every operation as describe_method shows it', async () => {
    for (const operation of notionPlugin.operations) {
      const result = await call(operation.name, operation.example ?? {});
      expect(result, operation.name).toMatchObject({ object: expect.any(String) });
    }
  });
});

describe('upstream errors', () => {
  it('an unknown id is not_found, with dashes or without', async () => {
    const missing = '0b0e0a1c-2f3d-4e5f-8a9b-0c1d2e3f4a5b';
    const error = await failure('get_page', { page_id: missing.replaceAll('-', '') });
    expect(error.code).toBe('not_found');
    expect(error.message).toContain(`object_not_found: Could not find page with ID: ${missing}`);
    expect((await failure('get_block', { block_id: missing })).code).toBe('not_found');
    expect((await failure('get_user', { user_id: missing })).code).toBe('not_found');
  });

  it('Notion validation errors are bad_request with Notion’s explanation', async () => {
    const unknownProperty = await failure('create_page', {
      parent: { database_id: SEED.tasksDatabaseId },
      properties: { Owner: { rich_text: text('Maya') } },
    });
    expect(unknownProperty.code).toBe('bad_request');
    expect(unknownProperty.message).toContain('validation_error: Owner is not a property that exists.');

    const unknownStatus = await failure('update_page', {
      page_id: SEED.sprintReviewPageId,
      properties: { Status: { status: { name: 'Blocked' } } },
    });
    expect(unknownStatus.code).toBe('bad_request');

    const badFilter = await failure('query_database', {
      database_id: SEED.tasksDatabaseId,
      filter: { property: 'Status', select: { equals: 'Done' } },
    });
    expect(badFilter.message).toContain('database property status does not match filter select');

    const badCursor = await failure('list_block_children', { block_id: SEED.releaseNotesPageId, start_cursor: 'not-a-cursor' });
    expect(badCursor.code).toBe('bad_request');
  });

  it('a wrong token is upstream_unauthorized', async () => {
    await harness.engine.connectToken('default', SERVICE, 'secret_wrong');
    try {
      const error = await failure('get_me');
      expect(error.code).toBe('upstream_unauthorized');
      expect(error.message).toContain('unauthorized: API token is invalid.');
    } finally {
      await harness.engine.connectToken('default', SERVICE, harness.sandbox.token);
    }
    expect(await call('get_me')).toMatchObject({ id: SEED.botId });
  });

  it('429 is rate_limited with the Retry-After, 503 is upstream_error, and the next call succeeds', async () => {
    await harness.failNext({ status: 429, retry_after: 1 });
    const limited = await failure('list_users');
    expect(limited.code).toBe('rate_limited');
    expect(limited.retryAfter).toBe(1);
    expect(limited.message).toContain('rate_limited');

    await harness.failNext({ status: 503 });
    const unavailable = await failure('search', { query: 'Tasks' });
    expect(unavailable.code).toBe('upstream_error');
    expect(unavailable.message).toContain('service_unavailable');

    expect((await call<ListBody>('list_users')).results).toHaveLength(4);
  });
});

describe('the sandbox’s wire format', () => {
  const request = (path: string, headers: Record<string, string>) => fetch(`${harness.sandbox.url}${path}`, { headers });

  it('answers 401 unauthorized in Notion’s shape for a wrong token', async () => {
    const response = await request('/users/me', { authorization: 'Bearer nope', 'notion-version': '2022-06-28' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ object: 'error', status: 401, code: 'unauthorized' });
  });

  it('answers 400 missing_version without a Notion-Version header', async () => {
    const response = await request('/users/me', { authorization: `Bearer ${harness.sandbox.token}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ object: 'error', code: 'missing_version' });
  });

  it('answers 400 invalid_json for a malformed body and validation_error for page_size over 100', async () => {
    const headers = {
      authorization: `Bearer ${harness.sandbox.token}`,
      'notion-version': '2022-06-28',
      'content-type': 'application/json',
    };
    const malformed = await fetch(`${harness.sandbox.url}/search`, { method: 'POST', headers, body: '{"query":' });
    expect(await malformed.json()).toMatchObject({ status: 400, code: 'invalid_json' });
    const tooMany = await request('/users?page_size=101', headers);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: 'validation_error' });
  });
});

describe('OAuth: a person of the firm connects their own Notion', () => {
  const REDIRECT = 'https://gateway.example/api/connect/notion/callback';
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const client = () => harness.sandbox.oauth as NonNullable<typeof harness.sandbox.oauth>;
  const api = (path: string, token: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${harness.sandbox.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'notion-version': '2022-06-28', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const exchange = (code: string, authorization = basic(client().clientId, client().clientSecret)) =>
    fetch(client().tokenUrl, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    });
  const authorizeUrl = (extra: Record<string, string> = {}) =>
    `${client().authorizeUrl}?${new URLSearchParams({
      client_id: client().clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      owner: 'user',
      state: 'st-9',
      ...extra,
    })}`;

  it('signs Tom in at the sandbox’s login; his token is a bot he owns, which Notion names on what it creates', async () => {
    expect(client().authorizeUrl).toBe(`${new URL(harness.sandbox.url).origin}/v1/oauth/authorize`);
    const login = await fetch(authorizeUrl({ prompt: 'login' }), { redirect: 'manual' });
    expect(login.status).toBe(200);
    const page = await login.text();
    expect(page).toContain('Sign in to Notion');
    const link = /href="([^"]+)" data-person="tom@harlowpike\.example"/.exec(page)?.[1] as string;
    const chosen = await fetch(new URL(link.replaceAll('&amp;', '&'), client().authorizeUrl), { redirect: 'manual' });
    expect(chosen.status).toBe(302);
    const back = new URL(chosen.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-9');
    const code = back.searchParams.get('code') as string;

    const issued = await exchange(code);
    expect(issued.status).toBe(200);
    const token = (await issued.json()) as Json & { access_token: string; bot_id: string };
    expect(token).toMatchObject({
      token_type: 'bearer',
      workspace_id: SEED.workspaceId,
      workspace_name: 'Harlow & Pike LLP',
      owner: { type: 'user', user: { object: 'user', type: 'person', name: 'Tom Becker', person: { email: 'tom@harlowpike.example' } } },
    });
    expect(token.bot_id).not.toBe(SEED.botId);
    // a code is good once
    expect((await exchange(code)).status).toBe(400);

    // GET /v1/users/me: the token's bot, owned by Tom
    const me = (await (await api('/users/me', token.access_token)).json()) as Json;
    expect(me).toMatchObject({
      object: 'user',
      id: token.bot_id,
      type: 'bot',
      name: 'Portico',
      bot: {
        owner: { type: 'user', user: { name: 'Tom Becker', person: { email: 'tom@harlowpike.example' } } },
        workspace_id: SEED.workspaceId,
      },
    });
    // what the token creates, Notion attributes to its bot, and the bot names Tom
    const created = await api('/pages', token.access_token, {
      method: 'POST',
      body: { parent: { page_id: SEED.rootPageId }, properties: { title: { title: text('Tom’s notes') } } },
    });
    expect(created.status).toBe(200);
    const createdPage = (await created.json()) as { id: string; created_by: Json; last_edited_by: Json };
    expect(createdPage.created_by).toEqual({ object: 'user', id: token.bot_id });
    expect(createdPage.last_edited_by).toEqual({ object: 'user', id: token.bot_id });
    const creator = (await (await api(`/users/${token.bot_id}`, harness.sandbox.token)).json()) as Json;
    expect(creator).toMatchObject({ type: 'bot', bot: { owner: { type: 'user', user: { name: 'Tom Becker' } } } });

    // the sandbox's own token is still the workspace's integration, which its own writes name
    const holder = (await (await api('/users/me', harness.sandbox.token)).json()) as Json;
    expect(holder).toMatchObject({ id: SEED.botId, bot: { owner: { type: 'workspace', workspace: true } } });
    const shared = (await (
      await api('/pages', harness.sandbox.token, {
        method: 'POST',
        body: { parent: { page_id: SEED.rootPageId }, properties: { title: { title: text('Firm notes') } } },
      })
    ).json()) as { created_by: Json };
    expect(shared.created_by).toEqual({ object: 'user', id: SEED.botId });

    // Margaret signing in is the workspace's seeded Margaret, by her hint
    const hinted = await fetch(authorizeUrl({ login_hint: 'margaret@harlowpike.example' }), { redirect: 'manual' });
    const hers = (await (
      await exchange(new URL(hinted.headers.get('location') as string).searchParams.get('code') as string)
    ).json()) as Json;
    expect(hers.owner).toMatchObject({ user: { id: SEED.people[0].id, name: 'Margaret Harlow' } });
  });

  it('refuses a stranger, another client, a request without owner=user, and an unknown token', async () => {
    const stranger = await fetch(authorizeUrl({ login_hint: 'someone@else.example' }), { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(stranger.headers.get('location')).toBeNull();
    expect(await stranger.text()).toContain('No one at Harlow &amp; Pike LLP signs in as someone@else.example');

    const noOwner = await fetch(authorizeUrl({ owner: 'workspace' }), { redirect: 'manual' });
    expect(new URL(noOwner.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
    const otherClient = await fetch(authorizeUrl({ client_id: 'someone-else' }), { redirect: 'manual' });
    expect(otherClient.status).toBe(400);

    const hinted = await fetch(authorizeUrl({ login_hint: 'priya@harlowpike.example' }), { redirect: 'manual' });
    const code = new URL(hinted.headers.get('location') as string).searchParams.get('code') as string;
    const wrongSecret = await exchange(code, basic(client().clientId, 'not-the-secret'));
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });

    const unknown = await api('/users/me', 'ntn_not-a-token');
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ object: 'error', code: 'unauthorized' });
  });
});
