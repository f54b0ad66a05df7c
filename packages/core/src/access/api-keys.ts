import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { SETTINGS_CACHE_MS } from '../store/changes.js';
import { DatabaseOutage, isDatabaseDown } from '../store/outage.js';
import type { ApiKeyRecord, KeyScopes, Store } from '../store/types.js';
import { storeSpan } from '../upstream/spans.js';
import { displayPrefix, generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey, newKeyId } from './key-format.js';

/** Who is calling: resolved from the bearer credential (or the dashboard session) on every request. */
export interface Principal {
  /** The credential's id: an API key's, a grant's (`grant_…`), `idp:<sub>`, or a member's (`mem_…`) for a session. */
  keyId: string | null;
  workspaceId: string;
  scopes: KeyScopes;
  /** The person behind the call: a signed-in member, or the member a grant acts for. Absent or null: nobody named. */
  memberId?: string | null;
  /** What authenticated the call; absent: an API key. */
  via?: PrincipalKind;
}

/** An API key, a grant's access token, the firm's identity provider's token, or a member's dashboard session. */
export type PrincipalKind = 'key' | 'grant' | 'idp' | 'member';

/** How messages name the principal to the person reading them: "This key", "This token", "Your account". */
export function principalNoun(principal: Pick<Principal, 'via'>): string {
  switch (principal.via) {
    case 'grant':
    case 'idp':
      return 'This token';
    case 'member':
      return 'Your account';
    default:
      return 'This API key';
  }
}

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

const TOUCH_INTERVAL_MS = 60_000;

/** API keys: issuing them, and resolving a bearer token to a principal on every request. */
export class ApiKeys {
  /** API keys by hash: dropped on change notifications (`forget`), else after SETTINGS_CACHE_MS. */
  private readonly keyCache = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly outage: DatabaseOutage = new DatabaseOutage(),
  ) {}

  async create(input: { workspaceId: string; name: string; scopes: KeyScopes; expiresAt?: string | null }): Promise<CreatedKey> {
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      id: newKeyId(),
      workspaceId: input.workspaceId,
      name: input.name,
      hash: hashApiKey(key),
      prefix: displayPrefix(key),
      scopes: input.scopes,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await this.store.createApiKey(record);
    return { key, record };
  }

  /** Resolves a bearer token to a principal, or throws `unauthorized` (one message for every failure). */
  async authenticate(token: string | undefined): Promise<Principal> {
    // "Unauthorized" first: browser clients (MCP Inspector) recognise a 401 by that word in the body and start OAuth
    const reject = () =>
      new GatewayError('unauthorized', 'Unauthorized: send a valid API key or OAuth access token as Authorization: Bearer <credential>');
    if (!token || !isWellFormedApiKey(token)) throw reject();
    const hash = hashApiKey(token);
    const cached = this.keyCache.get(hash);
    // a fresh cached key is read without another promise; else the store is asked (lookupKey)
    const record = cached && cached.expires > Date.now() ? cached.record : await this.lookupKey(hash);
    if (!record || !hashesEqual(record.hash, hash)) throw reject();
    if (record.revokedAt) throw reject();
    if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) throw reject();
    this.touch(record.id);
    return { keyId: record.id, workspaceId: record.workspaceId, scopes: record.scopes, via: 'key' };
  }

  /** Drops every cached key: keys are cached by hash, which a change notification does not carry. */
  forget(): void {
    this.keyCache.clear();
  }

  private async lookupKey(hash: string): Promise<ApiKeyRecord | undefined> {
    const now = Date.now();
    const cached = this.keyCache.get(hash);
    if (cached && cached.expires > now) return cached.record;
    // The database down: a key read before is still known (degraded mode); an unknown one gets 503 unavailable.
    // Memory answers as it is: its entry is not renewed, so that degraded mode ends when its time is up.
    return this.outage.read(
      'api key lookup',
      async () => {
        const record = await storeSpan('key lookup', () => this.store.findApiKeyByHash(hash));
        // Unknown hashes are cached too (briefly), so that a flood of bad keys does not become a flood of queries;
        // the cache is bounded so that it cannot grow without limit.
        if (this.keyCache.size >= 10_000) this.keyCache.clear();
        this.keyCache.set(hash, { record, expires: now + SETTINGS_CACHE_MS });
        return record;
      },
      () => (cached ? { value: cached.record } : undefined),
    );
  }

  /** last_used_at is written at most once a minute per key, off the request path. */
  private touch(id: string): void {
    const now = Date.now();
    if ((this.touched.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    this.touched.set(id, now);
    this.store.touchApiKey(id, new Date(now).toISOString()).catch((error) => {
      if (isDatabaseDown(error)) this.outage.down('api key use', error);
      else this.logger.warn({ err: error, keyId: id }, 'could not record key use');
    });
  }
}
