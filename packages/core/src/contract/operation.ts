import { GatewayError } from '../errors.js';
import type { Static, TObject, TSchema } from './schema.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an operation does to upstream data; drives MCP annotations and read-only keys. */
export type Access = 'read' | 'write' | 'delete';

export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

/** A request to the upstream, relative to the integration's base URL unless `url` is absolute. */
export interface UpstreamRequest {
  method: HttpMethod;
  /** Path below the base URL, already substituted and percent-encoded (use `fillPath`). */
  path?: string;
  /** Absolute URL, e.g. an upload URL the upstream handed out. Credentials are not sent to it unless `auth` is true. */
  url?: string;
  query?: Record<string, QueryValue | undefined>;
  /** JSON body. */
  body?: unknown;
  /** Form-encoded body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string | number | boolean | undefined>;
  /** Raw bytes (uploads). */
  raw?: { data: Uint8Array; contentType: string };
  headers?: Record<string, string>;
  /** Attach the connection's credentials. Default: true for relative paths, false for absolute URLs. */
  auth?: boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the upstream said JSON (or the text parses as JSON), else the text. Empty body → undefined. */
  body: unknown;
}

/** Declarative mapping: path tokens are taken from params by name; the rest go to the query (GET, DELETE) or the JSON body. */
export interface DeclarativeUpstream {
  method: HttpMethod;
  /** Upstream path with `:name` tokens. */
  path: string;
  /** Params sent in the query string even for POST/PATCH/PUT/DELETE. */
  query?: readonly string[];
  /** Upstream names for params whose names differ (`{ gatewayName: upstreamName }`). */
  rename?: Readonly<Record<string, string>>;
  /** Fixed query values added to every call. */
  fixedQuery?: Readonly<Record<string, string>>;
}

export interface OperationContext {
  /** The integration's settings (plugin-defined, validated). */
  settings: Readonly<Record<string, unknown>>;
  /** Non-secret facts stored with the connection (QuickBooks realm id, Clio region…). */
  connection: Readonly<Record<string, unknown>>;
}

export interface RunContext extends OperationContext {
  /** Sends one upstream request with the plugin's credentials, timeouts and error mapping; resolves with the 2xx response. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
}

export interface OperationDefinition<P extends TObject = TObject> {
  /** snake_case, unique within the plugin. */
  name: string;
  /** Gateway method and path (`/pages/:page_id`). */
  method: HttpMethod;
  path: string;
  /** One line: what it does. */
  summary: string;
  /** For a model choosing a tool: when to use it, where ids come from, how paging works. */
  description: string;
  params: P;
  /** Response schema, for docs and MCP `outputSchema`. Bodies pass through unvalidated. */
  response?: TSchema;
  /** Overrides the access derived from the HTTP method. */
  access?: Access;
  /**
   * The upstream documents this operation as safe to send twice (an idempotency key, or a POST that only reads).
   * Decides whether a request the upstream refused with 401 is sent again after a token refresh: requests with GET,
   * PUT or DELETE, and operations whose `access` is `read`, are repeated anyway; any other is not, unless this is true.
   */
  repeatable?: boolean;
  /** How to reach the upstream: a declaration, or a function when mapping needs logic. */
  upstream?: DeclarativeUpstream | ((params: Static<P>, ctx: OperationContext) => UpstreamRequest);
  /** Multi-step operations (several upstream calls). Takes precedence over `upstream`. */
  run?: (params: Static<P>, ctx: RunContext) => Promise<unknown>;
  /** Reshapes a successful upstream body. Default: passthrough. */
  transform?: (body: unknown, params: Static<P>) => unknown;
  /** Validation that a schema cannot express (mutually exclusive params…). Return a message to reject with 400. */
  check?: (params: Static<P>) => string | undefined;
  /** Example params for docs and `describe_method`. */
  example?: Partial<Static<P>>;
  /**
   * Another operation of the same plugin that does what this one does and is the one to use (the other of two
   * upstream endpoints for the same records). search_methods ranks it above this one, whichever matches the words
   * better; this one's description should say so.
   */
  preferred?: string;
  /**
   * Where a parameter travels over REST when the default is wrong. Default: `:name` path tokens in the path; for GET
   * every other parameter in the query string; for POST/PATCH/PUT/DELETE in the JSON body. `query` here puts a
   * parameter of a body method in the query string (Clio's `fields` on create and update); OpenAPI documents it
   * there, `describe_method`'s REST example sends it there, and a declarative `upstream` sends it in the upstream
   * query string too.
   */
  locations?: Readonly<Record<string, 'query' | 'body'>>;
  /** OpenAPI security requirements of this operation, when they differ from the plugin's (`openapi.security`). */
  security?: readonly SecurityRequirement[];
}

/** One OpenAPI security requirement: scheme name → scopes (`{ oauth2: [] }`). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** Where a parameter travels over REST. */
export type ParamLocation = 'path' | 'query' | 'body';

export function defineOperation<P extends TObject>(definition: OperationDefinition<P>): OperationDefinition<P> {
  return definition;
}

export function accessOf(operation: Pick<OperationDefinition, 'access' | 'method'>): Access {
  if (operation.access) return operation.access;
  if (operation.method === 'GET') return 'read';
  if (operation.method === 'DELETE') return 'delete';
  return 'write';
}

/** May `request` of `operation` be sent a second time (after a refresh) without risk of doing its work twice? */
export function repeatable(operation: Pick<OperationDefinition, 'access' | 'method' | 'repeatable'>, request: UpstreamRequest): boolean {
  if (operation.repeatable) return true;
  if (request.method === 'GET' || request.method === 'PUT' || request.method === 'DELETE') return true;
  return accessOf(operation) === 'read';
}

const TOKEN = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** Names of the `:tokens` of a path, in order. */
export function pathTokens(path: string): string[] {
  return [...path.matchAll(TOKEN)].map((m) => m[1] as string);
}

/**
 * Substitutes `:tokens` with percent-encoded values. Every token must have a value, and no value may make a path
 * segment `.` or `..`: a URL parser would move the request to another resource (`/accounts/../calls` is `/calls`).
 * Both are `bad_request`. (`%2e` cannot arise: a value's `%` is encoded as `%25`.)
 */
export function fillPath(path: string, values: Readonly<Record<string, unknown>>): string {
  const filled = path.replace(TOKEN, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      throw new GatewayError('bad_request', `Missing path parameter ${name}`);
    }
    return encodeURIComponent(String(value));
  });
  if (filled.split(/[/?#]/).some((segment) => segment === '.' || segment === '..')) {
    const names = pathTokens(path).filter((name) => /^\.{1,2}$/.test(String(values[name])));
    throw new GatewayError('bad_request', `Path parameter ${names.join(', ') || 'values'} may not be "." or ".."`);
  }
  return filled;
}

/** `/pages/:page_id` → `/pages/{page_id}` (OpenAPI). */
export function openApiPath(path: string): string {
  return path.replace(TOKEN, (_, name: string) => `{${name}}`);
}
