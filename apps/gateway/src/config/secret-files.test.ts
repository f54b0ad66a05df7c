import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEncryptionKey } from '@portico/core';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { loadConfig } from './load.js';

/** Secrets from files (`PORTICO_ENCRYPTION_KEY_FILE`…), as Docker and Kubernetes secrets mount them. */
const dir = mkdtempSync(join(tmpdir(), 'portico-secret-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'q2y3J1m8Hc5m2Fvx3p8e2oK0f4y6W9b1c3d5e7g9h0I=';
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
};

describe('secrets from *_FILE variables', () => {
  it('reads the encryption key, the database URL and an OAuth client secret from files, trimmed', () => {
    const config = loadConfig({
      PORTICO_DATA_DIR: dir,
      PORTICO_ENCRYPTION_KEY_FILE: file('key', `${KEY}\n`),
      PORTICO_DATABASE_URL_FILE: file('db', '  postgres://portico@db.internal:5432/portico \n'),
      PORTICO_NOTION_CLIENT_ID: 'client-1',
      PORTICO_NOTION_CLIENT_SECRET_FILE: file('secret', 'shh-client-secret\n'),
    });
    expect(config.encryptionKey).toBe(KEY);
    expect(config.databaseUrl).toBe('postgres://portico@db.internal:5432/portico');
    expect(JSON.stringify(config.oauthClients)).toContain('shh-client-secret');
  });

  it('a missing or empty file, or the secret given both ways, is a clear error that names the variable', () => {
    expect(() => loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_ENCRYPTION_KEY_FILE: join(dir, 'nope') })).toThrow(
      `PORTICO_ENCRYPTION_KEY_FILE: cannot read ${join(dir, 'nope')} (no such file)`,
    );
    expect(() => loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_ENCRYPTION_KEY_FILE: file('empty', '\n') })).toThrow(
      `PORTICO_ENCRYPTION_KEY_FILE: ${join(dir, 'empty')} is empty`,
    );
    const both = () => loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_ENCRYPTION_KEY: KEY, PORTICO_ENCRYPTION_KEY_FILE: file('k2', KEY) });
    expect(both).toThrow('PORTICO_ENCRYPTION_KEY and PORTICO_ENCRYPTION_KEY_FILE are both set');
  });

  it('the error never shows a file’s content, and variables that are not secrets are not read from files', () => {
    let message = '';
    try {
      loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_ENCRYPTION_KEY_FILE: file('bad', 'not-a-key-but-secret\n') });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORTICO_ENCRYPTION_KEY');
    expect(message).not.toContain('not-a-key-but-secret');
    expect(loadConfig({ PORTICO_DATA_DIR: dir, PORTICO_HOST_FILE: file('host', '0.0.0.0') }).host).toBe('127.0.0.1');
  });

  it('the CLI uses the key from the file', async () => {
    const out: string[] = [];
    const data = mkdtempSync(join(dir, 'cli-'));
    const code = await main(
      ['encryption', 'status'],
      {
        PORTICO_DATA_DIR: data,
        // Named, so the CLI may create it (it refuses to create a database it was not pointed at).
        PORTICO_DATABASE_URL: `file:${join(data, 'portico.db')}`,
        PORTICO_LOG_LEVEL: 'silent',
        PORTICO_ENCRYPTION_KEY_FILE: file('cli-key', `${KEY}\n`),
      },
      { out: (l) => out.push(l), err: () => {}, stdin: () => '' },
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(`Active key: ${parseEncryptionKey(KEY).id} (PORTICO_ENCRYPTION_KEY)`);
  });
});
