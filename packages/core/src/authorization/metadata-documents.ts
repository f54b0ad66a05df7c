import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { normalizeHost } from '../contract/egress-hosts.js';
import type { OAuthClientRecord } from '../store/authorization-types.js';
import type { Store } from '../store/types.js';
import { EgressPolicy } from '../upstream/egress.js';
import type { AUTHORIZATION_DEFAULTS } from './options.js';
import { isAcceptableRedirectUri } from './protocol.js';
import { isPublicAddress } from './public-addresses.js';

/**
 * Client ID Metadata Documents (the MCP authorization specification's preferred registration): a client's `client_id`
 * is an https URL, and the document there says who the client is (`client_name`) and where it may be sent back
 * (`redirect_uris`). The gateway fetches it when an authorization request names it — only from public addresses,
 * through the egress policy, size- and time-capped, without following redirects — checks it, and keeps it for as
 * long as its Cache-Control says, within bounds.
 */
export interface ClientMetadataDocumentOptions {
  /**
   * Hosts (names or IP addresses) a document may be fetched from although they are not public
   * (`PORTICO_OAUTH_CIMD_ALLOW_HOSTS`): for a client the firm runs on its own network, and for tests. Default: none.
   */
  allowHosts?: readonly string[];
  /** Certificate authorities (PEM) trusted for these fetches besides the public ones (`PORTICO_OAUTH_CIMD_CA_FILE`). */
  ca?: string;
  /** How long a fetch may take in all (default 5 s). */
  timeoutMs?: number;
  /** The largest document accepted (default 5 KB). */
  maxBytes?: number;
}

export const CLIENT_METADATA_DOCUMENT_DEFAULTS = { timeoutMs: 5_000, maxBytes: 5 * 1024 } as const;

/** How long a fetched document is kept: its `Cache-Control: max-age`, held between these bounds; 5 minutes without one. */
export const DOCUMENT_CACHE_BOUNDS = { minMs: 60_000, maxMs: 24 * 60 * 60_000, defaultMs: 5 * 60_000 } as const;

const MAX_URL_LENGTH = 2_000;
const MAX_REDIRECT_URIS = 10;
const MAX_NAME_LENGTH = 100;
const CACHE_LIMIT = 1_000;

/** Why a metadata document was not used; the message is shown to the admin on the consent page. */
export class MetadataDocumentRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetadataDocumentRefused';
  }
}

/** Whether a `client_id` is meant as a metadata document's URL (rather than a registration's id). */
export const isMetadataDocumentId = (clientId: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);

export class ClientMetadataDocuments {
  private readonly cache = new Map<string, { client: OAuthClientRecord; until: number }>();
  private readonly pending = new Map<string, Promise<OAuthClientRecord>>();
  private readonly allowed: Set<string>;
  private readonly ca: string[] | undefined;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly store: Store,
    private readonly authorization: typeof AUTHORIZATION_DEFAULTS,
    options: ClientMetadataDocumentOptions = {},
    private readonly egress: EgressPolicy = new EgressPolicy(),
  ) {
    this.allowed = new Set((options.allowHosts ?? []).map(normalizeHost));
    this.ca = options.ca ? [...rootCertificates, options.ca] : undefined;
    this.timeoutMs = options.timeoutMs ?? CLIENT_METADATA_DOCUMENT_DEFAULTS.timeoutMs;
    this.maxBytes = options.maxBytes ?? CLIENT_METADATA_DOCUMENT_DEFAULTS.maxBytes;
  }

  /** The client a metadata document URL describes: from the cache, or fetched and checked. Throws {@link MetadataDocumentRefused}. */
  async client(clientId: string, now = Date.now()): Promise<OAuthClientRecord> {
    const cached = this.cache.get(clientId);
    if (cached && cached.until > now) return cached.client;
    let pending = this.pending.get(clientId);
    if (!pending) {
      pending = this.load(clientId, now).finally(() => this.pending.delete(clientId));
      this.pending.set(clientId, pending);
    }
    return pending;
  }

  private async load(clientId: string, now: number): Promise<OAuthClientRecord> {
    const url = checkedUrl(clientId);
    const hostname = normalizeHost(url.hostname);
    if (isIP(hostname) !== 0 && !this.allowed.has(hostname) && !isPublicAddress(hostname)) {
      throw new MetadataDocumentRefused(`${hostname} is not a public address: the gateway does not fetch metadata documents there`);
    }
    const { body, maxAgeMs } = await this.fetch(url);
    const client = clientOf(clientId, body, now, this.authorization.unusedClientTtlMs);
    await this.store.authorization.putClient(client);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    // Never longer than the stored client lives unused, so the cache cannot outlast the row grants name.
    this.cache.set(clientId, { client, until: now + Math.min(maxAgeMs, this.authorization.unusedClientTtlMs) });
    return client;
  }

  /**
   * Resolves through the egress policy (which refuses metadata and link-local destinations), then refuses any name
   * with an address that is not public unless the operator allowed that host: a DNS answer cannot lead the fetch into
   * the gateway's own network.
   */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    const name = normalizeHost(hostname);
    this.egress.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as Array<{ address: string; family: number }>;
      if (!this.allowed.has(name)) {
        const inner = list.find(({ address }) => !isPublicAddress(address));
        if (inner) {
          const refusal = new MetadataDocumentRefused(`${name} resolves to ${inner.address}, which is not a public address`);
          return callback(Object.assign(refusal, { code: 'EPORTICOCIMD' }), '', 0);
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0] as { address: string; family: number };
      return callback(null, first.address, first.family);
    });
  };

  private fetch(url: URL): Promise<{ body: unknown; maxAgeMs: number }> {
    const limit = this.maxBytes;
    return new Promise((resolve, reject) => {
      const fail = (message: string) => {
        clearTimeout(timer);
        request.destroy();
        reject(new MetadataDocumentRefused(message));
      };
      const request = https.request(url, {
        method: 'GET',
        agent: false,
        lookup: this.lookup,
        ...(this.ca ? { ca: this.ca } : {}),
        headers: { accept: 'application/json', 'user-agent': 'Portico (client metadata document)' },
      });
      const timer = setTimeout(() => fail(`The metadata document took longer than ${this.timeoutMs} ms to fetch`), this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error instanceof MetadataDocumentRefused) return reject(error);
        const reason = error.code === 'EPORTICOEGRESS' ? error.message : (error.code ?? error.message);
        reject(new MetadataDocumentRefused(`The metadata document could not be fetched (${reason})`));
      });
      request.on('response', (response) => {
        if (response.statusCode !== 200) return fail(`The metadata document answered ${response.statusCode}, not 200`);
        if (Number(response.headers['content-length'] ?? 0) > limit) return fail(`The metadata document is larger than ${limit} bytes`);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) return fail(`The metadata document is larger than ${limit} bytes`);
          chunks.push(chunk);
        });
        response.on('error', () => fail('The metadata document could not be read'));
        response.on('end', () => {
          clearTimeout(timer);
          if (size > limit) return;
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return reject(new MetadataDocumentRefused('The metadata document is not JSON'));
          }
          resolve({ body, maxAgeMs: cacheLifetime(response.headers['cache-control']) });
        });
      });
      request.end();
    });
  }
}

/** The `client_id` as a URL the specification allows: https, a path, no fragment, user information or dot segments. */
function checkedUrl(clientId: string): URL {
  if (clientId.length > MAX_URL_LENGTH) throw new MetadataDocumentRefused('The client_id URL is too long');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new MetadataDocumentRefused('The client_id is not a valid URL');
  }
  if (url.protocol !== 'https:') throw new MetadataDocumentRefused('A client_id URL must be https');
  if (url.pathname === '/' || url.hash || url.username || url.password || url.href !== clientId) {
    throw new MetadataDocumentRefused(
      'A client_id URL must have a path, no fragment, no user information and no dot segments, written in its canonical form',
    );
  }
  return url;
}

/** Checks a document against its URL and turns it into a client record. */
function clientOf(clientId: string, body: unknown, now: number, unusedTtlMs: number): OAuthClientRecord {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new MetadataDocumentRefused('The metadata document is not a JSON object');
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== clientId) throw new MetadataDocumentRefused('The metadata document’s client_id is not the URL it was fetched from');
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw new MetadataDocumentRefused(`The metadata document must list 1 to ${MAX_REDIRECT_URIS} redirect_uris`);
  }
  for (const uri of uris) {
    if (typeof uri !== 'string' || uri.length > MAX_URL_LENGTH || !isAcceptableRedirectUri(uri)) {
      throw new MetadataDocumentRefused(
        'Each redirect URI of the metadata document must be https, http on loopback, or a private-use scheme, without a fragment or user information',
      );
    }
  }
  const name = typeof doc.client_name === 'string' ? doc.client_name.trim() : '';
  if (!name) throw new MetadataDocumentRefused('The metadata document names no client (client_name)');
  if ((doc.token_endpoint_auth_method ?? 'none') !== 'none' || 'client_secret' in doc) {
    throw new MetadataDocumentRefused('A metadata document describes a public client: token_endpoint_auth_method must be none');
  }
  return {
    clientId,
    kind: 'cimd',
    name: name.slice(0, MAX_NAME_LENGTH),
    redirectUris: uris as string[],
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
    expiresAt: new Date(now + unusedTtlMs).toISOString(),
  };
}

/** `max-age` (or `no-store`/`no-cache`, read as 0) held within {@link DOCUMENT_CACHE_BOUNDS}. */
export function cacheLifetime(header: string | undefined): number {
  if (!header) return DOCUMENT_CACHE_BOUNDS.defaultMs;
  const directives = header
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  let seconds: number | undefined;
  if (directives.includes('no-store') || directives.includes('no-cache')) seconds = 0;
  else {
    const maxAge = directives.find((d) => d.startsWith('max-age='));
    if (maxAge && /^max-age=\d{1,10}$/.test(maxAge)) seconds = Number(maxAge.slice(8));
  }
  if (seconds === undefined) return DOCUMENT_CACHE_BOUNDS.defaultMs;
  return Math.min(DOCUMENT_CACHE_BOUNDS.maxMs, Math.max(DOCUMENT_CACHE_BOUNDS.minMs, seconds * 1000));
}
