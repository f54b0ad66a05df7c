// How the plugin reads Slack: its failures, which arrive inside HTTP 200 answers, and its OAuth token answers.
import { type TokenSet, upstreamInspector } from '@portico/core/plugin';

/**
 * Slack answers almost every failure with HTTP 200 and `{ ok: false, error: '<code>' }`
 * (https://api.slack.com/web#evaluating_responses). These tables give each error code the HTTP status it
 * is equivalent to; core turns that status into the gateway error code (404 → not_found, 401 → upstream_unauthorized…).
 */
export const SLACK_ERROR_STATUS: Readonly<Record<string, number>> = {
  // the addressed thing does not exist (or is invisible to this token)
  channel_not_found: 404,
  user_not_found: 404,
  users_not_found: 404,
  message_not_found: 404,
  thread_not_found: 404,
  file_not_found: 404,
  no_reaction: 404,
  not_pinned: 404,

  // the request cannot succeed as sent
  invalid_arguments: 400,
  invalid_array_arg: 400,
  invalid_arg_name: 400,
  invalid_charset: 400,
  invalid_form_data: 400,
  invalid_json: 400,
  json_not_object: 400,
  invalid_post_type: 400,
  missing_post_type: 400,
  missing_argument: 400,
  invalid_cursor: 400,
  invalid_limit: 400,
  invalid_types: 400,
  invalid_users: 400,
  invalid_blocks: 400,
  too_long: 400,
  msg_too_long: 400,
  no_text: 400,
  no_user: 400,
  no_item_specified: 400,
  bad_timestamp: 400,
  cant_invite_self: 400,
  cant_invite: 400,
  cant_archive_general: 400,
  cant_kick_self: 400,
  not_in_channel: 400,
  is_archived: 400,
  channel_is_archived: 400,
  restricted_action: 400,
  user_is_restricted: 400,
  too_many_emoji: 400,
  too_many_reactions: 400,
  too_many_pins: 400,
  too_many_users: 400,
  duplicate_channel_not_found: 400,
  alt_txt_too_large: 400,
  file_type_not_allowed: 400,

  // the change was already made
  name_taken: 409,
  already_reacted: 409,
  already_pinned: 409,
  already_archived: 409,
  already_in_channel: 409,

  file_upload_size_restricted: 413,
  snippet_too_large: 413,

  // the stored credential cannot do this: the operator must reconnect or grant scopes
  not_authed: 401,
  invalid_auth: 401,
  token_revoked: 401,
  token_expired: 401,
  account_inactive: 401,
  missing_scope: 401,
  no_permission: 401,
  not_allowed_token_type: 401,
  org_login_required: 401,
  team_access_not_granted: 401,
  ekm_access_denied: 401,
  two_factor_setup_required: 401,

  ratelimited: 429,
  rate_limited: 429,
};

/** Families of codes Slack extends over time (invalid_name_specials, invalid_ts_latest…). */
export const SLACK_ERROR_PREFIX_STATUS: ReadonlyArray<readonly [prefix: string, status: number]> = [
  ['invalid_name', 400],
  ['invalid_ts_', 400],
];

/** Anything else Slack reports is an upstream failure, shown with Slack's own code. */
const UNKNOWN_ERROR_STATUS = 502;

export function statusForSlackError(code: string): number {
  const exact = SLACK_ERROR_STATUS[code];
  if (exact !== undefined) return exact;
  const family = SLACK_ERROR_PREFIX_STATUS.find(([prefix]) => code.startsWith(prefix));
  return family ? family[1] : UNKNOWN_ERROR_STATUS;
}

interface SlackErrorBody {
  ok?: unknown;
  error?: unknown;
  needed?: unknown;
  response_metadata?: { messages?: unknown };
}

const slackBody = (body: unknown) => (typeof body === 'object' && body !== null ? body : {}) as SlackErrorBody;
const slackCode = (body: unknown) => {
  const { error } = slackBody(body);
  return typeof error === 'string' && error ? error : undefined;
};

/**
 * The plugin's `inspect`, core's reader with Slack's rules: success is HTTP 2xx without `ok: false` (the upload URL
 * answers plain text, which is a success too); an error code takes its status from the tables above (an HTTP 429 stays
 * 429); the message carries Slack's error code plus the harmless details Slack adds (the missing scope, the argument
 * problems). Slack never echoes the token in an error body.
 */
export const inspectSlackResponse = upstreamInspector({
  failed: (response) => slackBody(response.body).ok === false || response.status < 200 || response.status >= 300,
  status: (response) => {
    const code = slackCode(response.body);
    if (response.status === 429) return 429;
    if (code) return statusForSlackError(code);
    return response.status >= 300 ? response.status : UNKNOWN_ERROR_STATUS;
  },
  message: (body) => {
    const code = slackCode(body);
    return code ? describe(code, slackBody(body)) : undefined;
  },
  defaultMessages: { 429: 'ratelimited' },
});

/** What the caller can do about an error Slack names without saying (its codes are terse). */
const HINTS: Readonly<Record<string, string>> = {
  channel_not_found:
    'no conversation with this id is visible to the bot: channel ids look like C05GENERAL1 and come from list_channels; a private channel lists only once the bot is a member',
};

function describe(code: string, body: SlackErrorBody): string {
  const details: string[] = [];
  const hint = HINTS[code];
  if (hint !== undefined) details.push(hint);
  if (typeof body.needed === 'string') details.push(`needed scope: ${body.needed}`);
  const messages = body.response_metadata?.messages;
  if (Array.isArray(messages)) {
    for (const message of messages.slice(0, 3)) if (typeof message === 'string') details.push(message);
  }
  return details.length > 0 ? `${code} (${details.join('; ')})` : code;
}

// ---- OAuth ----------------------------------------------------------------------------------------------------

const REAUTHORIZE = new Set(['invalid_refresh_token', 'invalid_code', 'code_already_used', 'token_revoked', 'invalid_grant_type']);

/** oauth.v2.access answers errors with HTTP 200 and ok:false. */
/**
 * The answer of oauth.v2.access for a person connecting their own account: their user token (xoxp-…) under
 * `authed_user`, with its own refresh token and lifetime when the app rotates tokens.
 */
export function parseSlackUserToken(body: unknown): TokenSet | { error: string; description?: string } {
  const app = parseSlackToken(body);
  if ('error' in app && app.error !== 'invalid_response') return app;
  const user = ((body ?? {}) as { authed_user?: Record<string, unknown> }).authed_user ?? {};
  if (typeof user.access_token !== 'string')
    return { error: 'invalid_response', description: 'no user token (authed_user.access_token) in the answer' };
  return {
    accessToken: user.access_token,
    ...(typeof user.refresh_token === 'string' ? { refreshToken: user.refresh_token } : {}),
    ...(typeof user.expires_in === 'number' ? { expiresIn: user.expires_in } : {}),
  };
}

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
