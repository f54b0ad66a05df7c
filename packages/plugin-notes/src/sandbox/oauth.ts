import { randomBytes, randomUUID } from 'node:crypto';
import {
  AuthorizationCodes,
  basicCredentials,
  type EmulatorReply,
  type EmulatorRequest,
  FIRM,
  FIRM_PEOPLE,
  firmSignIn,
  jsonReply,
  redirectBack,
  oauthError as standardError,
} from '@portico/core/testing/emulator';
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
  /** code → the email of the person who signed in for it; each code is tried once */
  codes: AuthorizationCodes<string>;
  /** access token → the id of the bot it acts as */
  tokens: Map<string, string>;
}

export const newOAuthState = (): OAuthState => ({
  codes: new AuthorizationCodes({ mint: () => randomBytes(18).toString('base64url'), ttlMs: CODE_TTL_MS, spentOnFailure: true }),
  tokens: new Map(),
});

const oauthError = (status: number, error: string, description: string): EmulatorReply =>
  standardError(status, error, description, { fields: { request_id: deterministicId(`oauth:${error}:${description}`) } });

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
  const given = q.get('state') ?? undefined;
  if (q.get('response_type') !== 'code') return redirectBack(back, { state: given, error: 'unsupported_response_type' });
  if (q.get('owner') !== 'user') return redirectBack(back, { state: given, error: 'invalid_request' });
  const signedIn = firmSignIn(request, 'Notion');
  if ('page' in signedIn) return signedIn.page;
  const to = { clientId: SANDBOX_OAUTH_CLIENT.clientId, redirectUri: q.get('redirect_uri') as string };
  return redirectBack(back, { state: given, code: state.codes.issue(to, signedIn.person.email) });
}

/** Whether the request's HTTP Basic client credentials (the only way Notion takes them) are the sandbox's client's. */
function basicClient(request: EmulatorRequest): boolean {
  const client = basicCredentials(request);
  return client?.clientId === SANDBOX_OAUTH_CLIENT.clientId && client.clientSecret === SANDBOX_OAUTH_CLIENT.clientSecret;
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
  const email = state.codes.redeem(typeof b.code === 'string' ? b.code : undefined, {
    clientId: SANDBOX_OAUTH_CLIENT.clientId, // Basic authenticated it
    redirectUri: typeof b.redirect_uri === 'string' ? b.redirect_uri : undefined,
  });
  if (email === undefined) return oauthError(400, 'invalid_grant', 'Invalid code.');
  const owner = personFor(ws, email);
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
