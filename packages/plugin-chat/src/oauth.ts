import type { TokenSet } from '@portico/core';

const REAUTHORIZE = new Set(['invalid_refresh_token', 'invalid_code', 'code_already_used', 'token_revoked', 'invalid_grant_type']);

/** oauth.v2.access answers errors with HTTP 200 and ok:false. */
export function parseSlackToken(body: unknown): TokenSet | { error: string; description?: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b.ok !== true) {
    const error = typeof b.error === 'string' ? b.error : 'invalid_response';
    // Slack's names for a code or refresh token that is no good any more: the connection must be authorized again.
    return { error: REAUTHORIZE.has(error) ? 'invalid_grant' : error, ...(REAUTHORIZE.has(error) ? { description: error } : {}) };
  }
  if (typeof b.access_token !== 'string') return { error: 'invalid_response', description: 'no access_token in the answer' };
  return {
    accessToken: b.access_token,
    ...(typeof b.refresh_token === 'string' ? { refreshToken: b.refresh_token } : {}),
    ...(typeof b.expires_in === 'number' ? { expiresIn: b.expires_in } : {}),
  };
}
