import { randomBytes, randomUUID } from 'node:crypto';
import { type EmulatorReply, type EmulatorRequest, FIRM, FIRM_PEOPLE, firmSignIn, jsonReply } from '@portico/core/testing/emulator';
import { deterministicId } from './ids.js';
import type { Json } from './json.js';
import { SEED } from './seed.js';
import type { Workspace } from './workspace/index.js';

// Notion's OAuth for public integrations, on the sandbox's origin (as api.notion.com serves it):
//
//   GET  /v1/oauth/authorize  ?client_id&redirect_uri&response_type=code&owner=user&state → Notion's sign-in (the
//                             sandbox's stand-in: firmSignIn), the page picker (already agreed to) → 302
//                             redirect_uri?code&state
//   POST /v1/oauth/token      HTTP Basic client credentials, a JSON body { grant_type: "authorization_code", code,
//                             redirect_uri } → { access_token, token_type, bot_id, workspace_id, workspace_name,
//                             workspace_icon, owner: { type: "user", user }, duplicated_template_id, request_id }
//
// Each authorization is a bot of its own in the workspace (`bot_id`), owned by the person who signed in: the token
// acts as that bot, so `GET /v1/users/me` answers it with its owner, and what it creates or edits names it as
// `created_by` / `last_edited_by`, as Notion attributes an integration's changes to its bot. Tokens do not expire.
// Grants live in the sandbox's state: POST /__sandbox/reset forgets them.

/** The public integration the sandbox registers for the gateway in sandbox mode (only this client is accepted). */
export const SANDBOX_OAUTH_CLIENT = {
  clientId: '1a2b3c4d-0000-4000-8000-portico0sbox',
  clientSecret: 'secret_sandbox-notion-oauth-client',
} as const;
/** The integration's name, which each of its bots carries. */
export const INTEGRATION_NAME = 'Portico';
const CODE_TTL_MS = 10 * 60_000;

export interface OAuthState {
  codes: Map<string, { redirectUri: string; email: string; expiresAt: number }>;
  /** access token → the id of the bot it acts as */
  tokens: Map<string, string>;
}

export const newOAuthState = (): OAuthState => ({ codes: new Map(), tokens: new Map() });

const oauthError = (status: number, error: string, description: string): EmulatorReply =>
  jsonReply(status, { error, error_description: description, request_id: deterministicId(`oauth:${error}:${description}`) });

/** Answers `/v1/oauth/authorize` and `/v1/oauth/token`; undefined for any other request. */
export function answerOAuth(request: EmulatorRequest, state: OAuthState, ws: Workspace): EmulatorReply | undefined {
  if (request.path === '/v1/oauth/authorize' && request.method === 'GET') return authorize(request, state);
  if (request.path === '/v1/oauth/token' && request.method === 'POST') return token(request, state, ws);
  return undefined;
}

function authorize(request: EmulatorRequest, state: OAuthState): EmulatorReply {
  const q = request.query;
  if (q.get('client_id') !== SANDBOX_OAUTH_CLIENT.clientId) return oauthError(400, 'invalid_client', 'client_id is missing or unknown.');
  let back: URL;
  try {
    back = new URL(q.get('redirect_uri') ?? '');
  } catch {
    return oauthError(400, 'invalid_request', 'redirect_uri is missing or not an absolute URL.');
  }
  if (back.protocol !== 'http:' && back.protocol !== 'https:')
    return oauthError(400, 'invalid_request', 'redirect_uri must be http or https.');
  const given = q.get('state');
  if (given !== null) back.searchParams.set('state', given);
  const fail = (error: string) => {
    back.searchParams.set('error', error);
    return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', headers: { location: back.toString() } };
  };
  if (q.get('response_type') !== 'code') return fail('unsupported_response_type');
  if (q.get('owner') !== 'user') return fail('invalid_request');
  const signedIn = firmSignIn(request, 'Notion');
  if ('page' in signedIn) return signedIn.page;
  const code = randomBytes(18).toString('base64url');
  state.codes.set(code, {
    redirectUri: q.get('redirect_uri') as string,
    email: signedIn.person.email,
    expiresAt: Date.now() + CODE_TTL_MS,
  });
  back.searchParams.set('code', code);
  return { status: 302, body: '', contentType: 'text/plain; charset=utf-8', headers: { location: back.toString() } };
}

/** Whether the request's HTTP Basic client credentials are the sandbox's client's. */
function basicClient(request: EmulatorRequest): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''));
  if (!match) return false;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return false;
  const id = safeDecode(decoded.slice(0, colon));
  const secret = safeDecode(decoded.slice(colon + 1));
  return id === SANDBOX_OAUTH_CLIENT.clientId && secret === SANDBOX_OAUTH_CLIENT.clientSecret;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function token(request: EmulatorRequest, state: OAuthState, ws: Workspace): EmulatorReply {
  if (!basicClient(request)) return oauthError(401, 'invalid_client', 'Client authentication failed.');
  let body: unknown;
  try {
    body = request.json();
  } catch {
    return oauthError(400, 'invalid_request', 'The body must be JSON.');
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (b.grant_type !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code.');
  const code = typeof b.code === 'string' ? b.code : '';
  const granted = state.codes.get(code);
  state.codes.delete(code);
  if (!granted || granted.expiresAt < Date.now() || granted.redirectUri !== b.redirect_uri) {
    return oauthError(400, 'invalid_grant', 'Invalid code.');
  }
  const owner = personFor(ws, granted.email);
  const botId = randomUUID();
  ws.users.set(botId, {
    object: 'user',
    id: botId,
    name: INTEGRATION_NAME,
    avatar_url: null,
    type: 'bot',
    bot: { owner: { type: 'user', user: structuredClone(owner) }, workspace_name: FIRM.name, workspace_id: SEED.workspaceId },
  });
  const accessToken = `ntn_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(accessToken, botId);
  return jsonReply(200, {
    access_token: accessToken,
    token_type: 'bearer',
    bot_id: botId,
    workspace_name: FIRM.name,
    workspace_icon: null,
    workspace_id: SEED.workspaceId,
    owner: { type: 'user', user: structuredClone(owner) },
    duplicated_template_id: null,
    request_id: deterministicId(`oauth:token:${botId}`),
  });
}

/**
 * The workspace's person user for a person of the firm: a seeded member, or one the workspace gains as they first
 * sign in (every person of the firm is a member of its Notion workspace).
 */
function personFor(ws: Workspace, email: string): Json {
  for (const user of ws.users.values()) {
    if (user.type === 'person' && (user.person as Json | undefined)?.email === email) return user;
  }
  const person = FIRM_PEOPLE.find((p) => p.email === email);
  const id = deterministicId(`seed:user:${email}`);
  const user: Json = { object: 'user', id, name: person?.name ?? email, avatar_url: null, type: 'person', person: { email } };
  ws.users.set(id, user);
  return user;
}
