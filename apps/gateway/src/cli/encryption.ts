import { Encryptor } from '@portico/core';
import { loadConfig } from '../config/load.js';
import { addKeyToFile, keyFile, pruneKeyFile } from '../runtime/key-file.js';
import { type Command, type Io, UsageError, withRuntime } from './command.js';

const HELP = `Usage:
  portico encryption status     Which key encrypts, and how many stored credentials each key holds
  portico encryption rotate     Re-encrypt every stored credential under a new key
  portico encryption prune      Drop old keys that no stored credential uses any more (key file only)

With the key file (<data dir>/encryption.key, the default): rotate writes a new key in front of the file, keeps the
old ones for decryption, and re-encrypts every connection and webhook signing secret. Running gateways pick the new key up by themselves the
first time they meet it. Run prune afterwards to retire the old keys. Back the file up after each change.

With PORTICO_ENCRYPTION_KEY, in two phases the gateway enforces:
  1. stage: set the new key as PORTICO_ENCRYPTION_KEY and the old one(s) in PORTICO_ENCRYPTION_PREVIOUS_KEYS on every
     instance (rolling restart). Until every live instance reports the new key, all of them keep sealing with the
     old one, so no instance writes a credential another cannot read; status shows who still lacks it.
  2. promote: once status says every live instance has the new key, the instances seal with it by themselves; run
     rotate (with the same two variables) to re-encrypt every connection under it — it refuses while an instance
     lacks the key. Then remove the old keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS (another rolling restart).`;

async function encryption(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [sub] = args;
  if (sub !== 'rotate' && sub !== 'status' && sub !== 'prune')
    throw new UsageError('encryption takes rotate, status or prune (see portico encryption --help)');
  const config = loadConfig(env);
  if (sub === 'rotate' && !config.encryptionKey) {
    const id = addKeyToFile(config);
    io.err(`Added key ${id} in front of ${keyFile(config)}; back the file up.`);
  }
  return withRuntime(env, async (runtime) => {
    const { engine, store } = runtime;
    const agreement = await engine.keyAgreement.beat();
    const lacking = agreement.lacking.map((i) => `${i.host} (pid ${i.pid}, keys ${i.keyIds.join(', ')})`);
    if (sub === 'rotate') {
      if (lacking.length > 0) {
        io.err(
          `Not re-encrypting: ${lacking.length} live instance(s) cannot decrypt with key ${agreement.active} yet: ${lacking.join('; ')}.\n` +
            'Restart them with this key as PORTICO_ENCRYPTION_KEY and the old one in PORTICO_ENCRYPTION_PREVIOUS_KEYS, ' +
            'then run rotate again (portico encryption status shows the instances).',
        );
        return 1;
      }
      const report = await engine.reencryptAll();
      await engine.keyAgreement.sealProbe(); // the readiness probe too, so that pruning the old key leaves it readable
      io.out(
        `Active key ${engine.activeKeyId}: ${report.rewritten} re-encrypted, ${report.current} already current, ${report.failed.length} failed (of ${report.total}).`,
      );
      for (const failure of report.failed) io.err(`  ${failure.workspaceId}/${failure.service}: ${failure.reason}`);
      return report.failed.length === 0 ? 0 : 1;
    }
    const counts = new Map<string, number>();
    for (const connection of await store.allConnections()) {
      const id = Encryptor.keyIdOf(connection.secret) ?? 'unknown';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const eventSecrets = new Map<string, number>(); // webhook and subscription secrets (docs/events.md): their keys too
    const registered = (await store.registrations.all()).flatMap((r) => (r.secret === null ? [] : [{ secret: r.secret }]));
    for (const record of [...(await store.events.allSecrets()), ...(await store.subscriptions.all()), ...registered]) {
      const id = Encryptor.keyIdOf(record.secret) ?? 'unknown';
      eventSecrets.set(id, (eventSecrets.get(id) ?? 0) + 1);
    }
    if (sub === 'status') {
      io.out(`Active key: ${agreement.active} (${config.encryptionKey ? 'PORTICO_ENCRYPTION_KEY' : keyFile(config)})`);
      if (agreement.sealing !== agreement.active)
        io.out(`Sealing with: ${agreement.sealing} (not every live instance knows ${agreement.active} yet)`);
      for (const id of new Set([...counts.keys(), ...eventSecrets.keys()])) {
        const secrets = eventSecrets.get(id);
        io.out(`  ${id}: ${counts.get(id) ?? 0} connection(s)${secrets ? `, ${secrets} webhook signing secret(s)` : ''}`);
      }
      io.out(`Live instances: ${agreement.instances.length}`);
      for (const i of agreement.instances) {
        const knows = !agreement.lacking.includes(i);
        io.out(`  ${i.host} pid ${i.pid}: keys ${i.keyIds.join(', ')}${knows ? '' : ` (lacks ${agreement.active})`}, seen ${i.seenAt}`);
      }
      return 0;
    }
    if (config.encryptionKey) {
      throw new UsageError(
        'prune works on the key file; with PORTICO_ENCRYPTION_KEY, remove unused keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS yourself',
      );
    }
    const probe = await store.instances.probe();
    const probeKey = probe === undefined ? undefined : Encryptor.keyIdOf(probe);
    const dropped = pruneKeyFile(config, new Set([...counts.keys(), ...eventSecrets.keys(), ...(probeKey ? [probeKey] : [])]));
    io.out(dropped.length > 0 ? `Dropped ${dropped.length} unused key(s): ${dropped.join(', ')}` : 'No unused keys to drop.');
    return 0;
  });
}

export const encryptionCommand: Command = { help: HELP, run: encryption };
