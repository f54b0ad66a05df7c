import type { Principal } from '../access/api-keys.js';
import { type AttemptWindows, MemoryAttemptWindows } from '../access/attempts.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/types.js';
import type { EgressPolicy } from '../upstream/egress.js';
import { Authorizer } from './authorize.js';
import { ClientRegistry } from './clients.js';
import type { ExternalIssuer } from './external-issuer.js';
import { looksLikeJwt } from './jwt.js';
import { type ClientMetadataDocumentOptions, ClientMetadataDocuments } from './metadata-documents.js';
import { AUTHORIZATION_DEFAULTS, type AuthorizationOptions } from './options.js';
import { supportedScopes } from './scopes.js';
import { Tokens } from './tokens.js';

/** Where the server's endpoints are, below the gateway's public URL. */
export const AUTHORIZATION_PATHS = {
  /** A page of the dashboard: consent needs the admin's session (apps/gateway's routes/dashboard/consent.ts). */
  authorize: '/dashboard/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** The doors a protected-resource metadata document can describe: the gateway, its MCP door, its REST door. */
export type ResourcePath = '' | '/api/mcp' | '/api/v1';

/**
 * The built-in OAuth 2.1 authorization server of the MCP and REST doors, as the MCP authorization specification
 * describes it: metadata (RFC 8414, RFC 9728), clients by Client ID Metadata Document or by Dynamic Client Registration
 * (public clients only), the authorization code grant with PKCE S256 only, rotating refresh tokens, revocation. Framework-free: the gateway's routes translate
 * HTTP to these calls. The issuer is the gateway's public URL.
 */
export class AuthorizationServer {
  readonly options: typeof AUTHORIZATION_DEFAULTS;
  readonly clients: ClientRegistry;
  readonly authorizer: Authorizer;
  readonly tokens: Tokens;

  /** The firm's own identity provider, when one is configured: its JWTs are accepted beside this server's tokens. */
  readonly external: ExternalIssuer | undefined;

  constructor(
    store: Store,
    logger: Logger,
    options: AuthorizationOptions = {},
    documents: ClientMetadataDocumentOptions = {},
    egress?: EgressPolicy,
    external?: ExternalIssuer,
    /** The installed services: the scopes a client may ask for are theirs. */
    services: () => readonly string[] = () => [],
    /** Where registrations per caller are counted (access/attempts.ts): this process' memory unless given. */
    attempts: AttemptWindows = new MemoryAttemptWindows(),
  ) {
    this.external = external;
    this.services = services;
    this.options = { ...AUTHORIZATION_DEFAULTS, ...dropUndefined(options) };
    this.clients = new ClientRegistry(store, this.options, new ClientMetadataDocuments(store, this.options, documents, egress), attempts);
    this.authorizer = new Authorizer(store, this.clients, this.options);
    this.tokens = new Tokens(store, logger, this.options, services);
  }

  /** The installed services (scopes are per service). */
  readonly services: () => readonly string[];

  /** RFC 8414 metadata. */
  metadata(publicUrl: string): Record<string, unknown> {
    const issuer = trim(publicUrl);
    return {
      issuer,
      authorization_endpoint: issuer + AUTHORIZATION_PATHS.authorize,
      token_endpoint: issuer + AUTHORIZATION_PATHS.token,
      registration_endpoint: issuer + AUTHORIZATION_PATHS.register,
      revocation_endpoint: issuer + AUTHORIZATION_PATHS.revoke,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      scopes_supported: supportedScopes(this.services()),
    };
  }

  /** RFC 9728 protected-resource metadata of one door (or of the whole gateway). */
  resourceMetadata(publicUrl: string, path: ResourcePath): Record<string, unknown> {
    const issuer = trim(publicUrl);
    return {
      resource: issuer + path,
      // the firm's provider first: a client takes the first, and the firm has one so that its people sign in there
      authorization_servers: this.external ? [this.external.issuer, issuer] : [issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'Portico',
      scopes_supported: supportedScopes(this.services()),
    };
  }

  /** The URL of a door's protected-resource metadata, as a 401's `WWW-Authenticate` names it. */
  static resourceMetadataUrl(publicUrl: string, path: ResourcePath): string {
    return `${trim(publicUrl)}/.well-known/oauth-protected-resource${path}`;
  }

  /** Whether a bearer value is for this server (its access tokens, or the external provider's JWTs), not an API key. */
  takes(token: string): boolean {
    return Tokens.isAccessToken(token) || (this.external !== undefined && looksLikeJwt(token));
  }

  authenticate(token: string, publicUrl: string | undefined): Promise<Principal> {
    if (this.external && looksLikeJwt(token)) return this.external.authenticate(token, publicUrl);
    return this.tokens.authenticate(token, publicUrl);
  }
}

const trim = (url: string) => url.replace(/\/+$/, '');

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
