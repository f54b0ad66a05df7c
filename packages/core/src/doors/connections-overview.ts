import { ACTING_AS, ConnectionIdentities } from '../connections/identity.js';
import type { ConnectionIdentity } from '../contract/plugin.js';
import type { Engine, Principal } from '../pipeline/engine.js';
import type { ConnectionPolicy, ConnectionRecord } from '../store/types.js';

/** How long a listing waits for the connections it identifies (those not identified yet) before answering without. */
const IDENTIFY_WAIT_MS = 5_000;

/** One service a key may use, as `list_connections` and `GET /api/v1/connections` show it. */
export interface ConnectionOverview {
  service: string;
  name: string;
  /** connected; needs_reconnect (the provider refused the refresh token); not_connected. */
  status: 'connected' | 'needs_reconnect' | 'not_connected';
  /** How it was connected: a pasted token or an OAuth authorization. */
  kind?: 'token' | 'oauth2';
  /** The facts stored at connect time (QuickBooks company id, Clio region, the account's name…): never a secret. */
  account?: Record<string, unknown>;
  /**
   * Whom the connection acts as upstream, as the application named them when asked (its who-am-I): the account
   * (company, workspace, team) and the user. Absent when the application could not be asked.
   */
  acting_as?: ConnectionIdentity;
  /** The access token's expiry, when it has one; OAuth connections refresh it before it passes. */
  token?: { expires_at: string | null; expired: boolean };
  connected_at?: string;
  /** Whether this key may use it over each door (the workspace's switches). */
  doors: { mcp: boolean; rest: boolean };
  /** Whose account a person's call acts as here: `shared`, `personal`, or `personal_else_shared` (docs/workspaces.md). */
  policy: ConnectionPolicy;
  /**
   * Which connection the caller's calls use now: the caller's own (`personal`), the workspace's (`shared`), or none
   * (`none`: a call answers not_connected, and `next` says what to do).
   */
  in_use: 'personal' | 'shared' | 'none';
  /** The caller's own account for this service, when the caller is a person (a member, or a token of theirs). */
  personal?: PersonalConnectionOverview;
  /** What to do when it cannot be used. */
  next?: string;
}

/** A person's own connection of a service, as the overview shows it to that person. */
export interface PersonalConnectionOverview {
  status: 'connected' | 'needs_reconnect' | 'not_connected';
  kind?: 'token' | 'oauth2';
  acting_as?: ConnectionIdentity;
  token?: { expires_at: string | null; expired: boolean };
  connected_at?: string;
  /** What to do to connect it, or to connect it again. */
  next?: string;
}

const CONNECT_OWN = (service: string) =>
  `Connect your own ${service} account in the Portico dashboard, under Connections (/dashboard/connections).`;

/**
 * The services the caller's key may use (its services scope and tool set), each with its connection's state, the
 * non-secret facts stored at connect time, whom it acts as upstream and its token's health. Reads the store; a
 * connection not identified yet is identified first (its who-am-I, waited for at most IDENTIFY_WAIT_MS).
 */
export async function connectionsOverview(
  engine: Engine,
  principal: Principal,
  now = Date.now(),
): Promise<{ connections: ConnectionOverview[] }> {
  const records = new Map((await engine.store.listConnections(principal.workspaceId)).map((r) => [r.service, r]));
  const memberId = principal.memberId ?? null;
  const own = new Map(
    memberId ? (await engine.store.listMemberConnections(principal.workspaceId, memberId)).map((r) => [r.service, r]) : [],
  );
  const allowed = await engine.allowedOperations(principal);
  const { services } = principal.scopes;
  const usable = (service: string) => (services === '*' || services.includes(service)) && (!allowed || allowed.hasService(service));
  await Promise.all([
    identifyMissing(
      engine,
      [...records.values()].filter((r) => usable(r.service)),
      records,
    ),
    identifyMissing(
      engine,
      [...own.values()].filter((r) => usable(r.service)),
      own,
    ),
  ]);
  const connections: ConnectionOverview[] = [];
  for (const integration of engine.registry.list()) {
    const { service } = integration;
    if (!usable(service)) continue;
    const state = await engine.integrationState(principal.workspaceId, service);
    const record = records.get(service);
    const doors = { mcp: state.mcpEnabled, rest: state.restEnabled };
    const policy = state.connectionPolicy;
    const mine = own.get(service);
    // as the pipeline chooses: a person's own under `personal`, theirs if they have one else the shared under the default
    const inUse: ConnectionOverview['in_use'] =
      memberId && policy !== 'shared' && (mine || policy === 'personal') ? (mine ? 'personal' : 'none') : record ? 'shared' : 'none';
    const base = {
      service,
      name: integration.plugin.displayName,
      doors,
      policy,
      in_use: inUse,
      ...(memberId ? { personal: personalOverview(service, mine, now) } : {}),
    };
    const personalNext = memberId && policy === 'personal' && !mine ? { next: CONNECT_OWN(service) } : {};
    if (!record) {
      connections.push({
        ...base,
        status: 'not_connected',
        next:
          memberId && policy !== 'shared' && !mine
            ? CONNECT_OWN(service)
            : `Ask a workspace admin to connect ${service} (portico connect ${service}).`,
      });
      continue;
    }
    const expired = record.expiresAt !== null && Date.parse(record.expiresAt) <= now;
    const { [ACTING_AS]: _identity, ...account } = record.meta;
    const actingAs = ConnectionIdentities.of(record);
    connections.push({
      ...base,
      status: record.status === 'needs_reconnect' ? 'needs_reconnect' : 'connected',
      kind: record.kind,
      account,
      ...(actingAs ? { acting_as: actingAs } : {}),
      token: { expires_at: record.expiresAt, expired },
      connected_at: record.createdAt,
      ...(record.status === 'needs_reconnect'
        ? { next: `The provider refused the stored authorization: ask a workspace admin to connect ${service} again.` }
        : personalNext),
    });
  }
  return { connections };
}

function personalOverview(service: string, record: ConnectionRecord | undefined, now: number): PersonalConnectionOverview {
  if (!record) return { status: 'not_connected', next: CONNECT_OWN(service) };
  const actingAs = ConnectionIdentities.of(record);
  return {
    status: record.status === 'needs_reconnect' ? 'needs_reconnect' : 'connected',
    kind: record.kind,
    ...(actingAs ? { acting_as: actingAs } : {}),
    token: { expires_at: record.expiresAt, expired: record.expiresAt !== null && Date.parse(record.expiresAt) <= now },
    connected_at: record.createdAt,
    ...(record.status === 'needs_reconnect'
      ? { next: `The provider refused your authorization: connect your own ${service} account again in the dashboard (Connections).` }
      : {}),
  };
}

/** Identifies, in parallel, the connections that have no identity yet; waits for them at most IDENTIFY_WAIT_MS. */
async function identifyMissing(engine: Engine, records: ConnectionRecord[], into: Map<string, ConnectionRecord>): Promise<void> {
  const missing = records.filter((r) => !ConnectionIdentities.of(r) && r.status === 'active');
  if (missing.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, IDENTIFY_WAIT_MS);
  });
  const work = Promise.all(
    missing.map(async (record) => {
      const identified = await engine.identities.identifyIfMissing(record);
      into.set(record.service, identified);
    }),
  );
  await Promise.race([work, wait]).finally(() => clearTimeout(timer));
}
