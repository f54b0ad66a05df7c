import type { UpstreamRequest } from '../contract/operation.js';
import type { ConnectionIdentity } from '../contract/plugin.js';
import type { RegisteredIntegration, Registry } from '../contract/registry.js';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ConnectionRecord, Store } from '../store/types.js';
import type { UpstreamSender } from '../upstream/send.js';
import type { Connections } from './credentials.js';

/** The key of a connection's non-secret facts under which whom it acts as is kept. */
export const ACTING_AS = 'acting_as';
/** The fact an operator may save with a shared connection to say whose credentials they are (`--meta user_email=…`). */
export const USER_EMAIL = 'user_email';
const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** The longest an identification may take, every upstream attempt included. */
export const IDENTIFY_TIMEOUT_MS = 10_000;
/** After a failed identification, how long a listing waits before asking again. */
const RETRY_AFTER_MS = 10 * 60_000;
const MAX_TEXT = 200;

/**
 * What identifying needs of an integration's state in a workspace: its plugin settings, and whatever the base URL is
 * chosen from (the engine passes access/integration-settings.ts's state, which connections/ does not import).
 */
interface IntegrationState {
  baseUrl: string | null;
  settings: Record<string, unknown>;
}

interface IdentitiesOptions<S extends IntegrationState = IntegrationState> {
  registry: Registry;
  store: Store;
  logger: Logger;
  connections: Pick<Connections, 'credentialsFor'>;
  sender: UpstreamSender;
  state: (workspaceId: string, service: string) => Promise<S>;
  baseUrlFor: (integration: RegisteredIntegration, state: S, meta: Readonly<Record<string, unknown>>) => string;
  timeoutMs?: number;
}

/**
 * Whom each connection acts as upstream: asks the plugin's `identify` (one who-am-I request with the connection's
 * credentials) and keeps the answer in the connection's non-secret facts under `acting_as`. A failure is logged
 * (never a credential) and leaves the connection as it was.
 */
export class ConnectionIdentities<S extends IntegrationState = IntegrationState> {
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly options: IdentitiesOptions<S>) {}

  /** The stored identity of a connection, if it has one. */
  static of(record: Pick<ConnectionRecord, 'meta'>): ConnectionIdentity | undefined {
    const value = record.meta[ACTING_AS];
    return typeof value === 'object' && value !== null ? (value as ConnectionIdentity) : undefined;
  }

  /** Identifies a connection and stores the answer; resolves with the record as stored then, or the given one on failure. */
  async identify(record: ConnectionRecord): Promise<ConnectionRecord> {
    const { registry, logger } = this.options;
    const integration = registry.get(record.service);
    const identify = integration?.plugin.identify;
    if (!integration || !identify) return record;
    const key = identityKey(record);
    try {
      const identity = clean(await this.withTimeout(this.ask(integration, record, identify)));
      this.failedAt.delete(key);
      return (await this.keep(record, identity)) ?? record;
    } catch (error) {
      this.failedAt.set(key, Date.now());
      logger.warn(
        { service: record.service, workspaceId: record.workspaceId, reason: errorSummary(error) },
        'could not tell whom the connection acts as',
      );
      return record;
    }
  }

  /** Identifies a connection that has no identity yet, unless an attempt failed lately. */
  async identifyIfMissing(record: ConnectionRecord): Promise<ConnectionRecord> {
    if (ConnectionIdentities.of(record) || record.status !== 'active') return record;
    const failed = this.failedAt.get(identityKey(record));
    if (failed !== undefined && Date.now() - failed < RETRY_AFTER_MS) return record;
    return this.identify(record);
  }

  private async ask(
    integration: RegisteredIntegration,
    record: ConnectionRecord,
    identify: NonNullable<RegisteredIntegration['plugin']['identify']>,
  ): Promise<ConnectionIdentity> {
    const { connections, sender, state, baseUrlFor } = this.options;
    const loaded = await connections.credentialsFor(integration, record.workspaceId, undefined, record.memberId ?? null);
    const settings = await state(record.workspaceId, integration.service);
    const baseUrl = baseUrlFor(integration, settings, loaded.record.meta);
    const operation = { name: 'identify' };
    const email = await this.personOf(record);
    const client = {
      baseUrl,
      send: (request: UpstreamRequest) => sender.send(integration, operation, request, baseUrl, loaded.credentials, settings.settings),
      ...(email ? { person: { email } } : {}),
    };
    return identify(client, loaded.record.meta);
  }

  /** The email of whom the connection is said to belong to: its member's, or the `user_email` given with a shared one. */
  private async personOf(record: ConnectionRecord): Promise<string | undefined> {
    if (record.memberId) return (await this.options.store.members.get(record.workspaceId, record.memberId))?.email;
    const given = record.meta[USER_EMAIL];
    return typeof given === 'string' && EMAIL.test(given.trim()) ? given.trim().toLowerCase() : undefined;
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    const ms = this.options.timeoutMs ?? IDENTIFY_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** Writes the identity into the facts of the connection as stored now (compare-and-swap: a refresh may have written it). */
  private async keep(record: ConnectionRecord, identity: ConnectionIdentity): Promise<ConnectionRecord | undefined> {
    const { store } = this.options;
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await store.getConnection(record.workspaceId, record.service, record.memberId ?? null);
      if (!current) return undefined;
      const { version, ...rest } = current;
      const next = { ...rest, meta: { ...current.meta, [ACTING_AS]: identity } };
      const swapped = await store.swapConnection(next, version);
      if (swapped) return swapped;
    }
    return undefined;
  }
}

/** One connection: its workspace, service and (a personal one) member. */
const identityKey = (record: Pick<ConnectionRecord, 'workspaceId' | 'service' | 'memberId'>) =>
  `${record.workspaceId}\u0000${record.service}\u0000${record.memberId ?? ''}`;

function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || !value.trim()) return undefined;
  return value.trim().slice(0, MAX_TEXT);
}

/** Keeps only non-empty short strings of the shape the contract names: a plugin's answer is not trusted blindly. */
function clean(identity: ConnectionIdentity): ConnectionIdentity {
  const out: ConnectionIdentity = {};
  const account = identity?.account;
  const accountId = text(account?.id);
  const accountName = text(account?.name);
  if (accountId && accountName) out.account = { id: accountId, name: accountName };
  const user = identity?.user;
  const userId = text(user?.id);
  const userName = text(user?.name);
  const email = text(user?.email);
  if (userId && userName) out.user = { id: userId, name: userName, ...(email ? { email } : {}) };
  if (!out.account && !out.user) throw new Error('the answer named neither an account nor a user');
  return out;
}
