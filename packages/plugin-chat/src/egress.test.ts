import { createFixtureHarness, EgressPolicy, type FixtureHarness } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackPlugin } from './index.js';

/**
 * Slack's upload flow posts the file to the `upload_url` files.getUploadURLExternal hands out. Slack documents it on
 * https://files.slack.com/upload/v1/…; the gateway posts there and to Slack's other hosts, never anywhere else.
 */
describe('the upload URL Slack hands out', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(slackPlugin, { authHeaders: { authorization: 'Bearer fixture-token' } });
  });
  afterAll(() => harness.close());

  it('is used on files.slack.com and Slack’s other hosts', () => {
    const policy = new EgressPolicy();
    for (const url of ['https://files.slack.com/upload/v1/CwABAAAAXAoAAZnoq?sig=x%2Fy', 'https://files-edge.slack.com/upload/v1/A']) {
      expect(() => policy.assertRequest(slackPlugin, { method: 'POST', url }, 'https://slack.com/api'), url).not.toThrow();
    }
  });

  it('on any other host is not requested: 502 upstream_error, and the file is not sent', () =>
    harness.check({
      operation: 'upload_file',
      params: { content: 'hi', filename: 'a.txt' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/files.getUploadURLExternal', body: { filename: 'a.txt', length: '2' } },
          response: { body: { ok: true, upload_url: 'https://files.slack.com.invalid/upload/v1/F1', file_id: 'F1' } },
        },
      ],
      expect: {
        error: {
          code: 'upstream_error',
          message:
            'Slack handed out an address on files.slack.com.invalid, outside the hosts it may hand out (127.0.0.1, files.slack.com, *.slack.com)',
        },
      },
    }));
});
