import type { Engine, Principal } from '../pipeline/engine.js';

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
  /** The access token's expiry, when it has one; OAuth connections refresh it before it passes. */
  token?: { expires_at: string | null; expired: boolean };
  connected_at?: string;
  /** Whether this key may use it over each door (the workspace's switches). */
  doors: { mcp: boolean; rest: boolean };
  /** What to do when it cannot be used. */
  next?: string;
}

/**
 * The services the caller's key may use (its services scope and tool set), each with its connection's state, the
 * account it acts as (the non-secret facts stored at connect time) and its token's health. Reads only the store:
 * no upstream call, no credential decrypted.
 */
export async function connectionsOverview(
  engine: Engine,
  principal: Principal,
  now = Date.now(),
): Promise<{ connections: ConnectionOverview[] }> {
  const records = new Map((await engine.store.listConnections(principal.workspaceId)).map((r) => [r.service, r]));
  const allowed = await engine.allowedOperations(principal);
  const { services } = principal.scopes;
  const connections: ConnectionOverview[] = [];
  for (const integration of engine.registry.list()) {
    const { service } = integration;
    if (services !== '*' && !services.includes(service)) continue;
    if (allowed && !allowed.hasService(service)) continue;
    const state = await engine.integrationState(principal.workspaceId, service);
    const record = records.get(service);
    const doors = { mcp: state.mcpEnabled, rest: state.restEnabled };
    const base = { service, name: integration.plugin.displayName, doors };
    if (!record) {
      connections.push({
        ...base,
        status: 'not_connected',
        next: `Ask a workspace admin to connect ${service} (portico connect ${service}).`,
      });
      continue;
    }
    const expired = record.expiresAt !== null && Date.parse(record.expiresAt) <= now;
    connections.push({
      ...base,
      status: record.status === 'needs_reconnect' ? 'needs_reconnect' : 'connected',
      kind: record.kind,
      account: { ...record.meta },
      token: { expires_at: record.expiresAt, expired },
      connected_at: record.createdAt,
      ...(record.status === 'needs_reconnect'
        ? { next: `The provider refused the stored authorization: ask a workspace admin to connect ${service} again.` }
        : {}),
    });
  }
  return { connections };
}
