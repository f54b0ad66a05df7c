import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EncryptionKey, Encryptor, generateEncryptionKey, type Logger, parseEncryptionKey } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';

/** Why an instance on PostgreSQL without a key refuses to start, and what to set. */
export const SHARED_DATABASE_NEEDS_KEY =
  'PORTICO_ENCRYPTION_KEY is not set and the database is PostgreSQL, which several instances share: a key generated here would ' +
  'seal credentials no other instance can read. Set PORTICO_ENCRYPTION_KEY (or PORTICO_ENCRYPTION_KEY_FILE) to the key every ' +
  'instance uses (a new one: openssl rand -base64 32), or put it in <data dir>/encryption.key';

/**
 * The key ring. From the environment: PORTICO_ENCRYPTION_KEY (encrypts) and PORTICO_ENCRYPTION_PREVIOUS_KEYS
 * (comma-separated, decrypt only). Otherwise from `<data dir>/encryption.key`, one key per line, the first one
 * encrypting: generated (mode 0600) on first run — on the embedded database only. On a database several instances
 * share (`shared`: PostgreSQL) a missing key is an error: each instance would generate its own, and none could read
 * what another sealed. Losing the keys makes stored credentials unreadable: back them up.
 */
export function loadEncryptor(config: GatewayConfig, logger: Logger, options: { shared?: boolean } = {}): Encryptor {
  if (config.encryptionKey) {
    return new Encryptor(parseEncryptionKey(config.encryptionKey), config.previousEncryptionKeys.map(parseEncryptionKey));
  }
  const file = keyFile(config);
  if (!existsSync(file) && options.shared) throw new Error(SHARED_DATABASE_NEEDS_KEY);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${generateEncryptionKey()}\n`, { mode: 0o600, flag: 'wx' });
    logger.warn({ file }, 'generated a new encryption key for upstream credentials; back this file up, or set PORTICO_ENCRYPTION_KEY');
  }
  return readKeyFile(file);
}

export const keyFile = (config: GatewayConfig) => join(config.dataDir, 'encryption.key');

/**
 * The data directory holds the database and the key that decrypts its credentials: owner-only. An existing directory
 * or key file that others could read (from an older version, or a copy) is made 0700 / 0600; returns what changed.
 * A missing directory is left to whoever creates it (the SQLite store, the key file), with mode 0700.
 */
export function keepDataDirPrivate(config: GatewayConfig): string[] {
  if (process.platform === 'win32') return [];
  const tightened: string[] = [];
  for (const [path, mode] of [
    [config.dataDir, 0o700],
    [keyFile(config), 0o600],
  ] as const) {
    if (!existsSync(path) || (statSync(path).mode & 0o077) === 0) continue;
    chmodSync(path, mode);
    tightened.push(path);
  }
  return tightened;
}

export function readKeyFile(file: string): Encryptor {
  const keys = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map(parseEncryptionKey);
  if (keys.length === 0) throw new Error(`${file} holds no key`);
  return new Encryptor(keys[0] as EncryptionKey, keys.slice(1));
}

/** Writes a key file atomically (a reader never sees half a file), readable by the owner only. */
function writeKeyFile(file: string, keys: string[]): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${keys.join('\n')}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Puts a new key in front of the key file's ring; returns its id. Older keys stay, for decryption, until pruned. */
export function addKeyToFile(config: GatewayConfig): string {
  const file = keyFile(config);
  const existing = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
  const key = generateEncryptionKey();
  writeKeyFile(file, [key, ...existing]);
  return parseEncryptionKey(key).id;
}

/** Drops every key of the file except the active one and those still named by a ciphertext; returns the dropped ids. */
export function pruneKeyFile(config: GatewayConfig, inUse: ReadonlySet<string>): string[] {
  const file = keyFile(config);
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const kept = lines.filter((line, i) => i === 0 || inUse.has(parseEncryptionKey(line).id));
  writeKeyFile(file, kept);
  return lines.filter((line) => !kept.includes(line)).map((line) => parseEncryptionKey(line).id);
}
