import { describe, expect, it } from 'vitest';
import { inspectSlackResponse, parseSlackToken, statusForSlackError } from './upstream.js';

describe('Slack token answers', () => {
  it('reads a bot token with rotation fields', () => {
    expect(
      parseSlackToken({ ok: true, access_token: 'xoxe.xoxb-1', refresh_token: 'xoxe-1-r', expires_in: 43200, team: { id: 'T1' } }),
    ).toEqual({
      accessToken: 'xoxe.xoxb-1',
      refreshToken: 'xoxe-1-r',
      expiresIn: 43200,
    });
    expect(parseSlackToken({ ok: true, access_token: 'xoxb-2' })).toEqual({ accessToken: 'xoxb-2' });
  });

  it('turns a dead refresh token into invalid_grant, and passes other errors on', () => {
    expect(parseSlackToken({ ok: false, error: 'invalid_refresh_token' })).toEqual({
      error: 'invalid_grant',
      description: 'invalid_refresh_token',
    });
    expect(parseSlackToken({ ok: false, error: 'bad_client_secret' })).toEqual({ error: 'bad_client_secret' });
    expect(parseSlackToken({ ok: true })).toMatchObject({ error: 'invalid_response' });
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
