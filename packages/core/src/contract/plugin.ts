import { readFileSync } from 'node:fs';
import type { PluginEvents } from './events.js';
import type { OperationDefinition, SecurityRequirement, UpstreamRequest, UpstreamResponse } from './operation.js';
import type { TObject } from './schema.js';
import type { UpstreamLimits } from './upstream-limits.js';
import type { PluginVocabulary } from './vocabulary.js';

/** Version of the plugin contract this core implements. A plugin declares the version it was written for. */
export const CONTRACT_VERSION = 1;
export const SUPPORTED_CONTRACT_VERSIONS: readonly number[] = [1];
export const PLUGIN_BRAND = 'portico.plugin';

/** What a failed upstream answer means, in terms of an equivalent HTTP status. */
export interface UpstreamFailure {
  /** The HTTP status the failure is equivalent to (Slack's `ok:false, error:'channel_not_found'` → 404). */
  status: number;
  /** Safe to show a caller: never include credentials. */
  message: string;
  retryAfter?: number;
}

/** The credentials of one connection, decrypted, as the plugin sees them. */
export interface Credentials {
  accessToken: string;
  refreshToken?: string;
  /** ISO timestamp; absent means the token does not expire. */
  expiresAt?: string;
}

/** What a token endpoint answered, normalised. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Seconds until the access token expires; absent when it does not expire. */
  expiresIn?: number;
}

export interface OAuth2Settings {
  authorizeUrl: string;
  tokenUrl: string;
  /** Where tokens are revoked on disconnect, if the provider supports it. */
  revokeUrl?: string;
  /** `rfc7009`: POST token=<token> with client authentication; `bearer`: POST with the access token as Bearer (Slack). */
  revokeStyle?: 'rfc7009' | 'bearer';
  scopes?: readonly string[];
  /** How scopes are joined in the authorize URL (Slack uses commas). */
  scopeSeparator?: string;
  /** Send a PKCE challenge (S256). */
  pkce?: boolean;
  /** How the client authenticates at the token endpoint. Default `basic`. */
  clientAuth?: 'basic' | 'body';
  /** How the token request is encoded. Default `form` (RFC 6749); Notion takes JSON. */
  tokenRequest?: 'form' | 'json';
  /** Extra query parameters of the authorize URL (Notion: `owner=user`). */
  authorizeParams?: Readonly<Record<string, string>>;
  /** Reads a token endpoint answer that is not plain RFC 6749 (Slack answers errors with 200 and ok:false). */
  parseToken?: (body: unknown) => TokenSet | { error: string; description?: string };
  /** Non-secret facts to keep with the connection: from the callback query (QuickBooks realmId) and the token answer. */
  connectionFacts?: (callback: Readonly<Record<string, string>>, tokenBody: unknown) => Record<string, unknown>;
  /**
   * Where the application tells one person's own token from the app's (Slack: user scopes, and the person's token under
   * `authed_user`): what differs when a person connects their own account. Absent: the same flow serves both.
   */
  personal?: Pick<OAuth2Settings, 'scopes' | 'authorizeParams' | 'parseToken' | 'connectionFacts'>;
}

export interface UpstreamSettings {
  /** Default base URL; an operator may override it per integration (`PORTICO_<SERVICE>_BASE_URL`). */
  baseUrl: string | ((connection: Readonly<Record<string, unknown>>) => string);
  /** Headers carrying the credentials. Default: `Authorization: Bearer <access token>`. */
  authHeaders?: (credentials: Credentials) => Record<string, string>;
  /** Headers sent on every request (API version pins…). */
  headers?: (settings: Readonly<Record<string, unknown>>) => Record<string, string>;
  /**
   * Reads an upstream answer. Called for every response; returns a failure for error answers (including
   * 2xx answers that carry an error, as Slack's do) and undefined for success. Default: non-2xx is a failure.
   */
  inspect?: (response: UpstreamResponse) => UpstreamFailure | undefined;
  /**
   * Hosts the upstream may hand out absolute URLs on (upload URLs, paging links): `files.slack.com`, or `*.slack.com`
   * for any host below a domain (any port). The base URL's host is always allowed; a URL on another host is not
   * requested (502 `upstream_error`). Default: the base URL's host only.
   */
  egressHosts?: readonly string[];
  /**
   * What the upstream allows one connection (one company, one token): requests in flight (`concurrency`) and started
   * per second, minute or hour. Every upstream request of the connection takes a slot; above them calls wait in a
   * bounded queue or are refused with 429. Default: the gateway's concurrency cap (32), no rate. Operators override it.
   */
  limits?: UpstreamLimits;
  /**
   * Where the application takes an idempotency key on writes, when it documents one (QuickBooks: the `requestid` query
   * parameter; a request repeated with the same key is answered as the first and applied once). Every request of a call
   * to the application's API that is not a GET then carries a key of its own: derived from the caller's
   * `Idempotency-Key` when it gave one, else made for the call; retries of the request send the same key. Absent: no
   * key is sent.
   */
  idempotencyKey?: { query: string; maxLength: number };
}

export interface PluginDefinition {
  /** Default service key (`notion`): lowercase, used in `call_{service}` and `/api/v1/{service}`. */
  service: string;
  /** Display name of the application (`Notion`). */
  displayName: string;
  /** Package version of the plugin. */
  version: string;
  /** What the integration is for, one or two sentences (shown to models and in OpenAPI `info`). */
  description: string;
  /** Contract version the plugin was written against. */
  contract: number;
  upstream: UpstreamSettings;
  /** How a connection is made: a token pasted by an operator, and/or an OAuth2 authorization code flow. */
  auth: { token?: { description: string }; oauth2?: OAuth2Settings };
  /** Integration settings (validated, with defaults), e.g. an API version pin. */
  settings?: TObject;
  operations: readonly OperationDefinition[];
  /** How the plugin's OpenAPI document describes itself, when the defaults do not fit. */
  openapi?: OpenApiSettings;
  /** The application's words for search_methods: its names, product words, and what people call its records. */
  vocabulary?: PluginVocabulary;
  /** Loads the plugin's sandbox upstream (kept out of the main entry so production never loads it). */
  sandbox?: () => Promise<SandboxModule>;
  /**
   * Who a connection acts as upstream: the application's who-am-I, asked once with the connection's credentials when
   * it is stored (and again when listed, if missing). Optional; a failure only leaves the connection unidentified.
   */
  identify?: (client: IdentifyClient, connection: Readonly<Record<string, unknown>>) => Promise<ConnectionIdentity>;
  /** The application's webhooks: how a delivery is verified and what its events are (contract/events.ts). Optional. */
  events?: PluginEvents;
}

/** Sends one upstream request with the connection's credentials, the plugin's headers and the gateway's timeouts. */
export interface IdentifyClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /**
   * The base URL the connection's requests go to: the plugin's own, or the one an operator or a workspace set (a proxy,
   * a sandbox). A who-am-I on another host of the application (QuickBooks asks Intuit's accounts host) asks the same
   * origin instead when the base URL is not the plugin's.
   */
  readonly baseUrl: string;
  /**
   * Whom the connection is said to belong to: for a personal connection, the member as the gateway knows them (the
   * email their identity provider vouched for); for a shared one, the `user_email` its operator gave when saving it.
   * For an application whose API cannot say whose credentials it was given (CallRail): the plugin may look the person
   * up among the account's users, and names nobody when they are not there.
   */
  readonly person?: { email: string };
}

/** The account (company, workspace, team) and the user a connection acts as, in the application's own ids and names. */
export interface ConnectionIdentity {
  account?: { id: string; name: string };
  user?: { id: string; name: string; email?: string };
}

/**
 * A plugin's OpenAPI document settings. Default: `info.version` is the plugin's package version, and every operation
 * has one scheme, `bearerAuth` (a Portico API key as a Bearer token).
 */
export interface OpenApiSettings {
  /** `info.version` of the document (the legal CRM's is fixed at `1.0.0` by the specification). */
  version?: string;
  /**
   * `components.securitySchemes`: replaces the default `bearerAuth`. An `http` bearer scheme is a Portico API key; an
   * `oauth2` scheme is the gateway's own authorization server, whose flows the document fills in from the public URL
   * (an `oauth2` scheme is added when none is declared). No other kind of scheme is one the doors accept.
   */
  securitySchemes?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Security requirements of every operation (alternatives: any one satisfies). Default: each declared scheme alone. */
  security?: readonly SecurityRequirement[];
}

export interface Plugin extends PluginDefinition {
  readonly brand: typeof PLUGIN_BRAND;
}

export interface SandboxServer {
  /** Base URL to point the plugin at. */
  url: string;
  /** A credential the sandbox accepts. */
  token: string;
  /** Non-secret facts to store with the sandbox's connection (the QuickBooks realm id its seeded company has). */
  connection?: Readonly<Record<string, unknown>>;
  /** The limits the sandbox enforces; in sandbox mode they replace the plugin's `upstream.limits`. Default: none. */
  limits?: UpstreamLimits;
  /**
   * The sandbox's OAuth endpoints and the client it accepts, where it plays the application's authorization server:
   * in sandbox mode people connect their own accounts through them (unless the operator configured a client).
   */
  oauth?: { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; revokeUrl?: string };
  /**
   * The sandbox sends webhooks signed as the application signs them: with `secret`, to the URL last given to
   * `deliverTo` (in sandbox mode, the gateway's own inbound endpoint for the default workspace).
   */
  webhooks?: { secret: string; deliverTo(url: string): void };
  close(): Promise<void>;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
}

export interface SandboxModule {
  startSandbox(options?: SandboxOptions): Promise<SandboxServer>;
}

export function definePlugin(definition: PluginDefinition): Plugin {
  return { ...definition, brand: PLUGIN_BRAND };
}

export function isPlugin(value: unknown): value is Plugin {
  return typeof value === 'object' && value !== null && (value as { brand?: unknown }).brand === PLUGIN_BRAND;
}

/**
 * The version in the package.json next to a plugin's source or build folder (`import.meta.url` of its entry, in
 * `src/` or `dist/`), so that the version a plugin reports is the one changesets publishes.
 */
export function packageVersion(entryUrl: string): string {
  const text = readFileSync(new URL('../package.json', entryUrl), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
