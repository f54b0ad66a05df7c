import type { SandboxOptions, SandboxServer } from '@portico/core/plugin';
import {
  type EmulatorReply,
  type EmulatorRequest,
  type FaultWriter,
  jsonReply,
  startEmulator,
  WebhookSender,
} from '@portico/core/testing/emulator';
import { defaultCode, defaultMessage, NotionError, show, validationError } from './errors.js';
import { deterministicId } from './ids.js';
import { isObject, type Json } from './json.js';
import { answerOAuth, newOAuthState, type OAuthState, SANDBOX_OAUTH_CLIENT } from './oauth.js';
import { seedWorkspace } from './seed.js';
import { emit, pageCreatedInStory, SANDBOX_VERIFICATION_TOKEN } from './webhooks.js';
import { type Paging, Workspace } from './workspace/index.js';

/** The credential of the workspace's own integration (its bot, Portico, owned by the workspace). */
export const SANDBOX_TOKEN = 'sandbox-notion-token';
export { SANDBOX_OAUTH_CLIENT } from './oauth.js';

interface State {
  ws: Workspace;
  oauth: OAuthState;
}

const KNOWN_VERSIONS = new Set(['2021-05-11', '2021-05-13', '2021-08-16', '2022-02-22', '2022-06-28', '2025-09-03']);
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 100;

interface RouteContext {
  ws: Workspace;
  params: string[];
  query: URLSearchParams;
  body: Json;
}

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  handle(context: RouteContext): Json;
}

const ID = '([^/]+)';
const param = (context: RouteContext, index: number) => context.params[index] ?? '';

/** Every endpoint the plugin's operations use, as Notion serves them under /v1. */
const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/search$/, handle: (c) => c.ws.search(c.body, bodyPaging(c.body)) },
  { method: 'GET', pattern: /^\/v1\/users$/, handle: (c) => c.ws.listUsers(queryPaging(c.query)) },
  { method: 'GET', pattern: /^\/v1\/users\/me$/, handle: (c) => c.ws.me() },
  { method: 'GET', pattern: new RegExp(`^/v1/users/${ID}$`), handle: (c) => c.ws.getUser(param(c, 0)) },
  { method: 'POST', pattern: /^\/v1\/pages$/, handle: (c) => c.ws.createPage(c.body) },
  { method: 'GET', pattern: new RegExp(`^/v1/pages/${ID}$`), handle: (c) => c.ws.getPage(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/pages/${ID}$`), handle: (c) => c.ws.updatePage(param(c, 0), c.body) },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/pages/${ID}/properties/${ID}$`),
    handle: (c) => c.ws.getPageProperty(param(c, 0), param(c, 1), queryPaging(c.query)),
  },
  { method: 'POST', pattern: /^\/v1\/databases$/, handle: (c) => c.ws.createDatabase(c.body) },
  { method: 'GET', pattern: new RegExp(`^/v1/databases/${ID}$`), handle: (c) => c.ws.getDatabase(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/databases/${ID}$`), handle: (c) => c.ws.updateDatabase(param(c, 0), c.body) },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/databases/${ID}/query$`),
    handle: (c) => c.ws.queryDatabase(param(c, 0), c.body, bodyPaging(c.body)),
  },
  { method: 'GET', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.getBlock(param(c, 0)) },
  { method: 'PATCH', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.updateBlock(param(c, 0), c.body) },
  { method: 'DELETE', pattern: new RegExp(`^/v1/blocks/${ID}$`), handle: (c) => c.ws.deleteBlock(param(c, 0)) },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/blocks/${ID}/children$`),
    handle: (c) => c.ws.listChildren(param(c, 0), queryPaging(c.query)),
  },
  { method: 'PATCH', pattern: new RegExp(`^/v1/blocks/${ID}/children$`), handle: (c) => c.ws.appendChildren(param(c, 0), c.body) },
  {
    method: 'GET',
    pattern: /^\/v1\/comments$/,
    handle: (c) => c.ws.listComments(c.query.get('block_id') ?? undefined, queryPaging(c.query)),
  },
  { method: 'POST', pattern: /^\/v1\/comments$/, handle: (c) => c.ws.createComment(c.body) },
];

function queryPaging(query: URLSearchParams): Paging {
  const raw = query.get('page_size');
  let pageSize = DEFAULT_PAGE_SIZE;
  if (raw !== null) {
    if (!/^\d+$/.test(raw))
      throw validationError(`query failed validation: query.page_size should be a number, instead was \`${show(raw)}\`.`);
    pageSize = checkPageSize(Number(raw), 'query');
  }
  const startCursor = query.get('start_cursor');
  return startCursor === null ? { pageSize } : { pageSize, startCursor };
}

function bodyPaging(body: Json): Paging {
  let pageSize = DEFAULT_PAGE_SIZE;
  if (body.page_size !== undefined) {
    if (typeof body.page_size !== 'number' || !Number.isInteger(body.page_size)) {
      throw validationError(`body failed validation: body.page_size should be an integer, instead was \`${show(body.page_size)}\`.`);
    }
    pageSize = checkPageSize(body.page_size, 'body');
  }
  if (body.start_cursor === undefined) return { pageSize };
  if (typeof body.start_cursor !== 'string') {
    throw validationError(`body failed validation: body.start_cursor should be a string, instead was \`${show(body.start_cursor)}\`.`);
  }
  return { pageSize, startCursor: body.start_cursor };
}

function checkPageSize(size: number, where: 'query' | 'body'): number {
  if (size < 1) throw validationError(`${where} failed validation: ${where}.page_size should be ≥ \`1\`, instead was \`${size}\`.`);
  if (size > MAX_PAGE_SIZE)
    throw validationError(`${where} failed validation: ${where}.page_size should be ≤ \`100\`, instead was \`${size}\`.`);
  return size;
}

/** Notion's error answer: `{ object: "error", status, code, message, request_id }`. */
function notionReply(error: NotionError, request: EmulatorRequest): EmulatorReply {
  const body = {
    object: 'error',
    status: error.status,
    code: error.code,
    message: error.message,
    request_id: deterministicId(`request:${request.seq}`),
  };
  return jsonReply(error.status, body, error.headers);
}

/** An injected failure in Notion's shape, with Notion's code and message for the status unless the fault names them. */
const writeFault: FaultWriter = (fault, request) => {
  const status = fault.status ?? 500;
  const code = fault.code ?? defaultCode(status);
  return notionReply(new NotionError(status, code, fault.message ?? defaultMessage(code)), request);
};

/**
 * Starts an emulation of Notion's API (Notion-Version 2022-06-28) on node:http, seeded with a small deterministic
 * workspace held in memory. It accepts {@link SANDBOX_TOKEN} (the workspace's own integration) and the tokens of its
 * OAuth endpoints (`/v1/oauth/authorize`, where a person of the firm signs in, and `/v1/oauth/token`: see oauth.ts),
 * each acting as a bot owned by that person. The emulator kit of `@portico/core/testing` serves the control endpoints:
 * `POST /__sandbox/fail-next` (`{ status, code?, message?, retry_after?, count?, match? }`) makes the next request(s)
 * fail in Notion's error shape; `POST /__sandbox/reset` restores the seed; `POST /__sandbox/emit` sends a page event
 * signed with the subscription's verification token, and a page created through the API sends its `page.created`
 * event to the gateway (./webhooks.ts).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const sender = new WebhookSender(SANDBOX_VERIFICATION_TOKEN);
  const server = await startEmulator<State>({
    ...options,
    token: SANDBOX_TOKEN,
    basePath: '/v1',
    seed: ({ url }) => ({ ws: seeded(url), oauth: newOAuthState() }),
    handle: (request, state) => {
      if (request.path === '/__sandbox/emit' && request.method === 'POST') return emit(request, state.ws, sender);
      try {
        const oauth = answerOAuth(request, state.oauth, state.ws);
        if (oauth) return oauth;
        const answered = answer(request, state);
        const created = request.method === 'POST' && request.path === '/v1/pages' && isObject(answered) ? answered.id : undefined;
        if (typeof created === 'string') pageCreatedInStory(state.ws, created, sender);
        return jsonReply(200, answered);
      } catch (error) {
        if (error instanceof NotionError) return notionReply(error, request);
        throw error;
      }
    },
    writeFault,
    onError: (_error, request) => notionReply(new NotionError(500, 'internal_server_error', 'Unexpected error occurred.'), request),
  });
  // Notion's OAuth endpoints: in sandbox mode people connect their own Notion through them.
  const { origin } = server;
  return {
    ...server,
    oauth: { ...SANDBOX_OAUTH_CLIENT, authorizeUrl: `${origin}/v1/oauth/authorize`, tokenUrl: `${origin}/v1/oauth/token` },
    webhooks: { secret: sender.secret, deliverTo: (url: string) => sender.deliverTo(url) },
  };
}

/**
 * Checks the token and the version pin, finds the route and reads the body; Notion's errors are thrown. The request
 * acts as its token's bot: the workspace's `botId` is that bot while the request is answered (answering is
 * synchronous, so no other request sees it), which `me` answers and every create and edit names as its author.
 */
function answer(request: EmulatorRequest, { ws, oauth }: State): Json {
  const bearer = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  const bot = bearer === undefined || bearer === SANDBOX_TOKEN ? undefined : oauth.tokens.get(bearer);
  if (bearer !== SANDBOX_TOKEN && bot === undefined) throw new NotionError(401, 'unauthorized', 'API token is invalid.');
  if (bot === undefined) return route(request, ws);
  const seededBot = ws.botId;
  ws.botId = bot;
  try {
    return route(request, ws);
  } finally {
    ws.botId = seededBot;
  }
}

function route(request: EmulatorRequest, ws: Workspace): Json {
  const version = request.headers['notion-version'];
  if (typeof version !== 'string' || version === '') {
    throw new NotionError(
      400,
      'missing_version',
      'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
    );
  }
  if (!KNOWN_VERSIONS.has(version)) {
    throw validationError(`Notion-Version header failed validation: ${show(version)} is not a supported API version.`);
  }
  const { method, path } = request;
  const route = ROUTES.find((r) => r.method === method && r.pattern.test(path));
  if (!route) throw new NotionError(400, 'invalid_request_url', 'Invalid request URL.');
  const params = (route.pattern.exec(path)?.slice(1) ?? []).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  return route.handle({ ws, params, query: request.query, body: method === 'POST' || method === 'PATCH' ? jsonBody(request) : {} });
}

function jsonBody(request: EmulatorRequest): Json {
  let parsed: unknown;
  try {
    parsed = request.json() ?? {};
  } catch {
    throw new NotionError(400, 'invalid_json', 'Error parsing JSON body.');
  }
  if (!isObject(parsed)) throw validationError(`body failed validation: body should be an object, instead was \`${show(parsed)}\`.`);
  return parsed;
}

function seeded(url: string): Workspace {
  const ws = new Workspace(url);
  seedWorkspace(ws);
  return ws;
}
