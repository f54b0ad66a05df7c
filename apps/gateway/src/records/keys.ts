import type { ApiKeyRecord } from '@portico/core';

/** A key as the API shows it: never the hash. */
export function publicKey(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    admin: record.scopes.admin,
    operator: record.scopes.operator ?? false,
    services: record.scopes.services,
    read_only: record.scopes.readOnly,
    tool_set: record.scopes.toolSet ?? null,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    expires_at: record.expiresAt,
    revoked_at: record.revokedAt,
  };
}
