import { buildOpenApiDocument, describeOperation, Registry } from '@portico/core';
import { createFixtureHarness, type FixtureHarness, type OperationFixture } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectSlackResponse, statusForSlackError } from './errors.js';
import { badInputFixtures } from './fixtures/bad-input.js';
import { catalogTypeFixtures, omittedParamFixtures } from './fixtures/catalog-params.js';
import { channelFixtures } from './fixtures/channels.js';
import { errorFixtures } from './fixtures/errors.js';
import { fileFixtures } from './fixtures/files.js';
import { messageFixtures } from './fixtures/messages.js';
import { reactionAndPinFixtures } from './fixtures/reactions-pins.js';
import { userFixtures } from './fixtures/users.js';
import { slackPlugin } from './index.js';

const successFixtures: OperationFixture[] = [
  ...messageFixtures,
  ...channelFixtures,
  ...reactionAndPinFixtures,
  ...fileFixtures.filter((f) => 'output' in f.expect),
  ...userFixtures,
  ...catalogTypeFixtures,
];
const failureFixtures: OperationFixture[] = [...fileFixtures.filter((f) => 'error' in f.expect), ...errorFixtures, ...omittedParamFixtures];

describe('slack operations through the real pipeline', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(slackPlugin, { authHeaders: { authorization: 'Bearer fixture-token' } });
  });
  afterAll(() => harness.close());

  describe('requests and outputs', () => {
    it.each(successFixtures.map((f) => [f.name ?? f.operation, f] as const))('%s', (_, fixture) => harness.check(fixture));
  });

  describe('upstream errors', () => {
    it.each(failureFixtures.map((f) => [f.name ?? f.operation, f] as const))('%s', (_, fixture) => harness.check(fixture));
  });

  describe('input refused before any upstream call', () => {
    it.each(badInputFixtures.map((f) => [f.name ?? f.operation, f] as const))('%s', (_, fixture) => {
      expect(fixture.exchanges).toHaveLength(0);
      return harness.check(fixture);
    });
  });
});

describe('plugin declaration', () => {
  const names = slackPlugin.operations.map((o) => o.name);

  it('declares the 18 catalog operations', () => {
    expect(names).toHaveLength(18);
    expect(new Set(names).size).toBe(18);
  });

  it('has a success fixture for every operation', () => {
    const covered = new Set(successFixtures.map((f) => f.operation));
    expect(names.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('only has fixtures for operations it declares', () => {
    const all = [...successFixtures, ...failureFixtures, ...badInputFixtures].map((f) => f.operation);
    expect(all.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('registers, and every operation example passes its own validation', () => {
    const integration = new Registry().register(slackPlugin);
    for (const operation of integration.operations.values()) {
      const example = operation.definition.example as Record<string, unknown> | undefined;
      expect(example, `${operation.name} example`).toBeDefined();
      expect(operation.validator.problems(example), `${operation.name} example`).toEqual([]);
      expect(operation.definition.check?.(example ?? {}), `${operation.name} example check`).toBeUndefined();
    }
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

  it('describes every parameter', () => {
    for (const operation of slackPlugin.operations) {
      const properties = operation.params.properties as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${operation.name}.${name}`).toBeTruthy();
      }
    }
  });
});

describe('inspectSlackResponse', () => {
  it('passes ok:true and plain-text 2xx answers', () => {
    expect(inspectSlackResponse({ status: 200, headers: {}, body: { ok: true } })).toBeUndefined();
    expect(inspectSlackResponse({ status: 200, headers: {}, body: 'OK - 14' })).toBeUndefined();
  });

  it('keeps Retry-After of a 429 and of an ok:false ratelimited', () => {
    expect(inspectSlackResponse({ status: 429, headers: { 'retry-after': '30' }, body: { ok: false, error: 'ratelimited' } })).toEqual({
      status: 429,
      message: 'ratelimited',
      retryAfter: 30,
    });
    expect(inspectSlackResponse({ status: 200, headers: { 'retry-after': '5' }, body: { ok: false, error: 'ratelimited' } })).toEqual({
      status: 429,
      message: 'ratelimited',
      retryAfter: 5,
    });
  });

  it('maps error families by prefix and unknown codes to 502', () => {
    expect(statusForSlackError('invalid_name_punctuation')).toBe(400);
    expect(statusForSlackError('invalid_ts_oldest')).toBe(400);
    expect(statusForSlackError('name_taken')).toBe(409);
    expect(statusForSlackError('token_revoked')).toBe(401);
    expect(statusForSlackError('something_new')).toBe(502);
  });
});
