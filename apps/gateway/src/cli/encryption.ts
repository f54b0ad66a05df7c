import { Encryptor } from '@portico/core';
import { loadConfig } from '../config/load.js';
import { addKeyToFile, keyFile, pruneKeyFile } from '../runtime/key-file.js';
import { type Command, type Io, UsageError, withRuntime } from './command.js';

const HELP = `Usage:
  portico encryption status     Which key encrypts, and how many stored credentials each key holds
  portico encryption rotate     Re-encrypt every stored credential under a new key
  portico encryption prune      Drop old keys that no stored credential uses any more (key file only)

With the key file (<data dir>/encryption.key, the default): rotate writes a new key in front of the file, keeps the
old ones for decryption, and re-encrypts every connection. Running gateways pick the new key up by themselves the
first time they meet it. Run prune afterwards to retire the old keys. Back the file up after each change.

With PORTICO_ENCRYPTION_KEY: set the new key as PORTICO_ENCRYPTION_KEY and the old one(s) in
PORTICO_ENCRYPTION_PREVIOUS_KEYS on every instance first (restart them), then run rotate, which re-encrypts every
connection under the new key; then remove the old keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS.`;

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
    if (sub === 'rotate') {
      const report = await engine.reencryptAll();
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
    if (sub === 'status') {
      io.out(`Active key: ${engine.activeKeyId} (${config.encryptionKey ? 'PORTICO_ENCRYPTION_KEY' : keyFile(config)})`);
      for (const [id, count] of counts) io.out(`  ${id}: ${count} connection(s)`);
      return 0;
    }
    if (config.encryptionKey) {
      throw new UsageError(
        'prune works on the key file; with PORTICO_ENCRYPTION_KEY, remove unused keys from PORTICO_ENCRYPTION_PREVIOUS_KEYS yourself',
      );
    }
    const dropped = pruneKeyFile(config, new Set(counts.keys()));
    io.out(dropped.length > 0 ? `Dropped ${dropped.length} unused key(s): ${dropped.join(', ')}` : 'No unused keys to drop.');
    return 0;
  });
}

export const encryptionCommand: Command = { help: HELP, run: encryption };
