import { describe, expect, it } from 'vitest';
import { parseSlackToken } from './oauth.js';

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
