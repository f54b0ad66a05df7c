import { errorSummary } from '../errors.js';
import type { ConnectionRecord, Store } from '../store/types.js';
import { connectionAad } from './connection-keys.js';
import { Encryptor } from './crypto.js';
import type { KeyRing } from './key-ring.js';

export interface ReencryptionReport {
  total: number;
  rewritten: number;
  /** Already under the active key. */
  current: number;
  failed: Array<{ workspaceId: string; service: string; reason: string }>;
}

/**
 * Re-encrypts every connection of every workspace under the active key (after a rotation), while the gateway
 * keeps serving: each row is rewritten with compare-and-swap, so a refresh that lands meanwhile is never
 * overwritten (the row is read again and retried).
 */
export async function reencryptConnections(store: Store, keys: KeyRing): Promise<ReencryptionReport> {
  const report: ReencryptionReport = { total: 0, rewritten: 0, current: 0, failed: [] };
  for (const listed of await store.allConnections()) {
    report.total++;
    let record: ConnectionRecord | undefined = listed;
    for (let attempt = 0; record && attempt < 5; attempt++) {
      if (Encryptor.keyIdOf(record.secret) === keys.current.activeKeyId) {
        report.current++;
        record = undefined;
        break;
      }
      try {
        const aad = connectionAad(record.workspaceId, record.service, record.memberId);
        const secret = keys.current.encrypt(keys.current.decrypt(record.secret, aad), aad);
        const saved = await store.swapConnection({ ...record, secret }, record.version);
        if (saved) {
          report.rewritten++;
          record = undefined;
          break;
        }
        record = await store.getConnection(listed.workspaceId, listed.service, listed.memberId); // written meanwhile: again
      } catch (error) {
        report.failed.push({ workspaceId: listed.workspaceId, service: listed.service, reason: errorSummary(error) });
        record = undefined;
      }
    }
  }
  return report;
}
