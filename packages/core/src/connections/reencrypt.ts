import { errorSummary } from '../errors.js';
import type { ConnectionRecord, Store } from '../store/types.js';
import { connectionAad, eventSecretAad, registrationSecretAad, subscriptionSecretAad } from './connection-keys.js';
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
 * Re-encrypts the workspaces' webhook signing secrets, event subscriptions' secrets and the secrets of the webhooks
 * the plugins registered under the active key, into the same report (a failure names the service as
 * `<service> events`, `subscription <id>` or `<service> webhook`): compare-and-swap, so a secret saved meanwhile is kept (it is sealed afresh anyway).
 */
async function reencryptEventSecrets(store: Store, keys: KeyRing, report: ReencryptionReport): Promise<void> {
  for (const record of await store.events.allSecrets()) {
    report.total++;
    if (Encryptor.keyIdOf(record.secret) === keys.current.activeKeyId) {
      report.current++;
      continue;
    }
    try {
      const aad = eventSecretAad(record.workspaceId, record.service);
      const secret = keys.current.encrypt(keys.for(record.secret).decrypt(record.secret, aad), aad);
      if (await store.events.swapSecret({ ...record, secret, updatedAt: new Date().toISOString() }, record.secret)) report.rewritten++;
      else report.current++; // saved again meanwhile, with the key every instance seals with
    } catch (error) {
      report.failed.push({ workspaceId: record.workspaceId, service: `${record.service} events`, reason: errorSummary(error) });
    }
  }
  for (const record of await store.subscriptions.all()) {
    report.total++;
    if (Encryptor.keyIdOf(record.secret) === keys.current.activeKeyId) {
      report.current++;
      continue;
    }
    try {
      const aad = subscriptionSecretAad(record.workspaceId, record.id);
      const secret = keys.current.encrypt(keys.for(record.secret).decrypt(record.secret, aad), aad);
      if (await store.subscriptions.swapSecret(record.id, secret, record.secret)) report.rewritten++;
      else report.current++;
    } catch (error) {
      report.failed.push({ workspaceId: record.workspaceId, service: `subscription ${record.id}`, reason: errorSummary(error) });
    }
  }
  for (const record of await store.registrations.all()) {
    const sealed = record.secret;
    if (sealed === null) continue;
    report.total++;
    if (Encryptor.keyIdOf(sealed) === keys.current.activeKeyId) {
      report.current++;
      continue;
    }
    try {
      const aad = registrationSecretAad(record);
      const secret = keys.current.encrypt(keys.for(sealed).decrypt(sealed, aad), aad);
      if (await store.registrations.swapSecret(record, secret, sealed)) report.rewritten++;
      else report.current++;
    } catch (error) {
      report.failed.push({
        workspaceId: record.workspaceId,
        service: `${record.service} ${record.topic} webhook`,
        reason: errorSummary(error),
      });
    }
  }
}

/**
 * Re-encrypts every connection of every workspace, and every webhook signing secret, under the active key (after a
 * rotation), while the gateway
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
  await reencryptEventSecrets(store, keys, report);
  return report;
}
