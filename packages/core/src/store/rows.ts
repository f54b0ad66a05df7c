import type {
  ApiKeyRecord,
  AuditEntry,
  AuditRecord,
  ConnectionPolicy,
  ConnectionRecord,
  IntegrationSettingsRecord,
  OAuthStateRecord,
} from './types.js';

/**
 * Row → record mapping shared by the SQLite and PostgreSQL stores: both keep the same columns, with JSON in TEXT
 * columns and booleans as 0/1, so one mapping serves both.
 */
export type DbRow = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

export function apiKey(row: DbRow): ApiKeyRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    name: String(row.name),
    hash: String(row.hash),
    prefix: String(row.prefix),
    scopes: JSON.parse(String(row.scopes)),
    createdAt: String(row.created_at),
    lastUsedAt: text(row.last_used_at),
    expiresAt: text(row.expires_at),
    revokedAt: text(row.revoked_at),
  };
}

export function integration(row: DbRow): IntegrationSettingsRecord {
  return {
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    mcpEnabled: Number(row.mcp_enabled) === 1,
    restEnabled: Number(row.rest_enabled) === 1,
    baseUrl: text(row.base_url),
    settings: JSON.parse(String(row.settings)),
    connectionPolicy: row.connection_policy ? (String(row.connection_policy) as ConnectionPolicy) : null,
    updatedAt: String(row.updated_at),
  };
}

export function connection(row: DbRow): ConnectionRecord {
  return {
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    memberId: row.member_id ? String(row.member_id) : null,
    kind: String(row.kind) as ConnectionRecord['kind'],
    secret: String(row.secret),
    meta: JSON.parse(String(row.meta)),
    status: String(row.status) as ConnectionRecord['status'],
    expiresAt: text(row.expires_at),
    version: Number(row.version),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export function oauthState(row: DbRow): OAuthStateRecord {
  return {
    stateHash: String(row.state_hash),
    workspaceId: String(row.workspace_id),
    service: String(row.service),
    keyId: text(row.key_id),
    memberId: text(row.member_id),
    verifier: text(row.verifier),
    redirectUri: String(row.redirect_uri),
    createdAt: String(row.created_at),
    expiresAt: String(row.expires_at),
    usedAt: text(row.used_at),
  };
}

export function auditRecord(row: DbRow): Omit<AuditEntry, 'id'> {
  return {
    at: String(row.at),
    workspaceId: String(row.workspace_id),
    keyId: text(row.key_id),
    service: String(row.service),
    operation: String(row.operation),
    protocol: String(row.protocol) as AuditRecord['protocol'],
    status: Number(row.status),
    code: text(row.code),
    durationMs: Number(row.duration_ms),
    clientAddress: text(row.client_address),
    // only where a person is named: records of keys keep their shape
    ...(row.member_id === null || row.member_id === undefined ? {} : { memberId: String(row.member_id) }),
    ...(row.connection === null || row.connection === undefined ? {} : { connection: String(row.connection) as 'personal' | 'shared' }),
  };
}
