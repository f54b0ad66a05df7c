import { randomUUID } from 'node:crypto';
import type { AttemptWindows } from '../access/attempts.js';
import type { OAuthClientRecord } from '../store/authorization-types.js';
import type { Store } from '../store/types.js';
import { type ClientMetadataDocuments, isMetadataDocumentId, MetadataDocumentRefused } from './metadata-documents.js';
import type { AUTHORIZATION_DEFAULTS } from './options.js';
import { isAcceptableRedirectUri, OAuthError } from './protocol.js';

/** What a registration answers (RFC 7591 §3.2.1): the client's id and the metadata as accepted. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
}

const MAX_REDIRECT_URIS = 10;
/**
 * Token endpoint authentication methods a registration may ask for. The secret-based ones are accepted and answered
 * as `none` (RFC 7591 §3.2.1 lets the server replace requested metadata): hosted connectors ask for
 * `client_secret_post` although they run PKCE like any public client.
 */
const AUTH_METHODS: readonly unknown[] = ['none', 'client_secret_post', 'client_secret_basic'];
const MAX_URI_LENGTH = 2_000;
const MAX_NAME_LENGTH = 100;

/**
 * Dynamic Client Registration (RFC 7591), public clients only: no secret is ever issued. A client that asks for
 * `client_secret_post` or `client_secret_basic` is registered as public all the same, and the answer says `none`; any
 * other method (`private_key_jwt`, …) is refused. A registration gives no access by itself (an admin still consents);
 * one nobody consented to is deleted after a day.
 */
export class ClientRegistry {
  constructor(
    private readonly store: Store,
    private readonly options: typeof AUTHORIZATION_DEFAULTS,
    private readonly documents: ClientMetadataDocuments,
    /** Where registrations per caller are counted: this process, or the primary of the gateway's workers. */
    private readonly attempts: AttemptWindows,
  ) {}

  async register(body: unknown, caller: string, now = Date.now()): Promise<RegisteredClient> {
    await this.limit(caller);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidMetadata('The registration must be a JSON object');
    const meta = body as Record<string, unknown>;
    const uris = meta.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
      throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    for (const uri of uris) {
      if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH || !isAcceptableRedirectUri(uri)) {
        throw new OAuthError(
          'invalid_redirect_uri',
          'Each redirect URI must be https, http on loopback, or a private-use scheme, without a fragment or user information',
        );
      }
    }
    if (!AUTH_METHODS.includes(meta.token_endpoint_auth_method ?? 'none')) {
      throw invalidMetadata('Only public clients register here: token_endpoint_auth_method must be none (no secret is issued)');
    }
    for (const [field, allowed] of [
      ['grant_types', ['authorization_code', 'refresh_token']],
      ['response_types', ['code']],
    ] as const) {
      const value = meta[field];
      if (value !== undefined && (!Array.isArray(value) || value.some((v) => !(allowed as readonly unknown[]).includes(v)))) {
        throw invalidMetadata(`${field} may name only ${allowed.join(', ')}`);
      }
    }
    const rawName = typeof meta.client_name === 'string' ? meta.client_name.trim() : '';
    const name = rawName ? rawName.slice(0, MAX_NAME_LENGTH) : 'Unnamed client';
    const record: OAuthClientRecord = {
      clientId: `client_${randomUUID().replaceAll('-', '')}`,
      kind: 'dcr',
      name,
      redirectUris: uris as string[],
      createdAt: new Date(now).toISOString(),
      lastUsedAt: null,
      expiresAt: new Date(now + this.options.unusedClientTtlMs).toISOString(),
    };
    await this.store.authorization.pruneClients(record.createdAt);
    await this.store.authorization.putClient(record);
    return {
      client_id: record.clientId,
      client_id_issued_at: Math.floor(now / 1000),
      client_name: name,
      redirect_uris: record.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * The client an authorization request names: a URL is a Client ID Metadata Document, fetched (or taken from the
   * cache) and checked; anything else a registration. Answers why not, for the person at the consent page, when there
   * is no usable client.
   */
  async resolve(clientId: string, now = Date.now()): Promise<OAuthClientRecord | string> {
    if (isMetadataDocumentId(clientId)) {
      try {
        return await this.documents.client(clientId, now);
      } catch (error) {
        if (error instanceof MetadataDocumentRefused) return `The client’s metadata document was refused: ${error.message}.`;
        throw error;
      }
    }
    return (await this.find(clientId, now)) ?? 'This client is not registered here, or its registration expired.';
  }

  /** A client by id; expired registrations nobody used are unknown. */
  async find(clientId: string, now = Date.now()): Promise<OAuthClientRecord | undefined> {
    if (clientId.length > MAX_URI_LENGTH) return undefined;
    const client = await this.store.authorization.getClient(clientId);
    if (!client) return undefined;
    if (client.expiresAt && client.lastUsedAt === null && Date.parse(client.expiresAt) <= now) return undefined;
    return client;
  }

  /** A sliding minute per caller: registrations are cheap to ask for and each one is a row. Every request counts. */
  private async limit(caller: string): Promise<void> {
    const { wait } = await this.attempts.take(`registration\u0000${caller}`, this.options.registrationsPerMinute, 60_000);
    if (wait > 0) {
      throw new OAuthError('too_many_registrations', `Too many registrations from this address; try again in ${wait} seconds`, 429, wait);
    }
  }
}

const invalidMetadata = (message: string) => new OAuthError('invalid_client_metadata', message);
