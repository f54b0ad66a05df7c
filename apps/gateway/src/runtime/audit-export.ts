import { createWriteStream } from 'node:fs';
import type { AuditRecord, Logger } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';

export interface AuditExport {
  write(record: AuditRecord): void;
  close(): Promise<void>;
}

/**
 * PORTICO_AUDIT_EXPORT: every audit record, as it is recorded, as one JSON line — a log line (`"msg":"audit"`, the
 * record under `audit`) on the gateway's stdout, or a line appended to a file (created 0600). What a log shipper or a
 * SIEM reads; it carries what the audit table holds (no parameters, bodies or credentials). A file that cannot be
 * written is said once in an error line; the database's audit trail goes on regardless.
 */
export function openAuditExport(target: NonNullable<GatewayConfig['auditExport']>, logger: Logger): AuditExport {
  if (target.to === 'log') {
    return {
      write: (record) => logger.info({ audit: record }, 'audit'),
      close: async () => {},
    };
  }
  const stream = createWriteStream(target.path, { flags: 'a', mode: 0o600 });
  let failed = false;
  stream.on('error', (error) => {
    if (failed) return;
    failed = true;
    logger.error(
      { err: { message: error.message }, file: target.path },
      'audit export: the file cannot be written; records still go to the database',
    );
  });
  return {
    write(record) {
      if (!failed) stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}
