import type { ConnectionRecord } from '@portico/core';

/** A connection as the API shows it: never the secret. */
export function publicConnection(record: ConnectionRecord) {
  return {
    service: record.service,
    kind: record.kind,
    status: record.status,
    meta: record.meta,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}
