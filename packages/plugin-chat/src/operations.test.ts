import { buildOpenApiDocument, describeFixtures, describeOperation, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { channelFixtures } from './fixtures/channels.js';
import { fileFixtures } from './fixtures/files.js';
import { messageFixtures } from './fixtures/messages.js';
import { pinFixtures } from './fixtures/pins.js';
import { reactionFixtures } from './fixtures/reactions.js';
import { refusedFixtures } from './fixtures/refused.js';
import { upstreamErrorFixtures } from './fixtures/upstream-errors.js';
import { userFixtures } from './fixtures/users.js';
import { slackPlugin } from './index.js';

describeFixtures(slackPlugin, {
  authHeaders: { authorization: 'Bearer fixture-token' },
  groups: {
    messages: messageFixtures,
    channels: channelFixtures,
    reactions: reactionFixtures,
    pins: pinFixtures,
    files: fileFixtures,
    users: userFixtures,
    'upstream errors': upstreamErrorFixtures,
  },
  refused: refusedFixtures,
});

describe('input refused before any upstream call', () => {
  it('is recorded without exchanges', () => {
    expect(refusedFixtures.filter((fixture) => fixture.exchanges.length > 0).map((fixture) => fixture.name)).toEqual([]);
  });
});

describe('plugin declaration', () => {
  const names = slackPlugin.operations.map((o) => o.name);

  it('declares the 18 catalog operations', () => {
    expect(names).toHaveLength(18);
    expect(new Set(names).size).toBe(18);
  });

  it('generates an OpenAPI path for every gateway route and a describe_method example for every operation', () => {
    const integration = new Registry().register(slackPlugin);
    const document = buildOpenApiDocument(integration) as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes).toContain('DELETE /channels/{channel}/messages/{timestamp}/reactions');
    expect(routes.filter((r) => /^(GET|POST|PATCH|PUT|DELETE) /.test(r))).toHaveLength(18);
    const operation = integration.operations.get('send_message');
    if (!operation) throw new Error('send_message is not registered');
    const send = describeOperation(integration, operation);
    expect(send.rest_example).toMatchObject({ method: 'POST', url: '/api/v1/slack/channels/C05GENERAL1/messages' });
  });

  it('send_message takes a conversation id only, as its description says, and says where to take one', () => {
    const integration = new Registry().register(slackPlugin);
    const send = integration.operations.get('send_message');
    if (!send) throw new Error('send_message is not registered');
    const channel = (describeOperation(integration, send).params.properties as Record<string, { description: string }>).channel;
    expect(channel?.description).toContain('list_channels');
    expect(channel?.description).not.toMatch(/#name (also )?works?/);
    for (const id of ['C05GENERAL1', 'G05PRIVATE1', 'D05ALICEDM1'])
      expect(send.validator.problems({ channel: id, text: 'hi' })).toEqual([]);
    for (const name of ['#intake', 'general', 'c05general1']) {
      const [problem] = send.validator.problems({ channel: name, text: 'hi' });
      expect(problem).toContain('take the id from list_channels');
    }
  });

  it('every operation that takes a channel refuses a #name, a bare name or a number alike, saying where ids come from', () => {
    const integration = new Registry().register(slackPlugin);
    const taking = [...integration.operations.values()].filter((op) =>
      ['channel', 'channel_id'].some((name) => name in (describeOperation(integration, op).params.properties as object)),
    );
    expect(taking.map((op) => op.name).sort()).toEqual([
      'add_pin',
      'add_reaction',
      'archive_channel',
      'get_channel_info',
      'get_reactions',
      'invite_to_channel',
      'list_pins',
      'read_messages',
      'read_thread',
      'remove_pin',
      'remove_reaction',
      'send_message',
      'upload_file',
    ]);
    for (const op of taking) {
      const key = 'channel' in (describeOperation(integration, op).params.properties as object) ? 'channel' : 'channel_id';
      for (const wrong of ['intake', '#intake', '12345', 'c05general1']) {
        const problems = op.validator.problems({ [key]: wrong });
        expect(
          problems.find((p) => p.includes(key)),
          `${op.name} ${wrong}`,
        ).toContain('channel ids look like C05GENERAL1 (C…, G… or D…) — take the id from list_channels');
      }
      expect(op.validator.problems({ [key]: 'C05GENERAL1' }).join(' '), op.name).not.toContain(key);
    }
  });

  it("states upload_file's one-way rule in the schema: thread_ts needs channel_id, channel_id alone is fine", () => {
    const integration = new Registry().register(slackPlugin);
    const upload = integration.operations.get('upload_file');
    if (!upload) throw new Error('upload_file is not registered');
    expect(describeOperation(integration, upload).params.dependentRequired).toEqual({ thread_ts: ['channel_id'] });
    expect(upload.validator.problems({ content: 'hi', thread_ts: '1714060800.000100' })).toEqual(['params: thread_ts requires channel_id']);
    expect(upload.validator.problems({ content: 'hi', channel_id: 'C05GENERAL1' })).toEqual([]);
    const document = buildOpenApiDocument(integration) as { paths: Record<string, Record<string, { description: string }>> };
    expect(document.paths['/files']?.post?.description).toContain('thread_ts requires channel_id.');
  });
});
