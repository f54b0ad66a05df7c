import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { describe, expect, it } from 'vitest';
import { main } from './cli.js';

function run(argv: string[], env: Record<string, string>, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  return main(argv, { ...env, PORTICO_LOG_LEVEL: 'silent' }, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => stdin }).then(
    (code) => ({ code, out: out.join('\n'), err: err.join('\n') }),
  );
}

/** Every file of the data directory (database, WAL, shared memory), as bytes. */
function dataDirContains(dir: string, text: string): boolean {
  return readdirSync(dir).some((name) => readFileSync(join(dir, name)).includes(Buffer.from(text)));
}

const freshEnv = () => ({ PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-cli-')), PORTICO_PLUGINS: 'notes' });

describe('portico CLI', () => {
  it('prints help for every command', async () => {
    for (const command of ['serve', 'keys', 'integrations', 'connect', 'disconnect']) {
      const result = await run([command, '--help'], {});
      expect(result.code).toBe(0);
      expect(result.out).toMatch(new RegExp(`Usage:[\\s\\S]*portico ${command}`));
    }
    const top = await run(['--help'], {});
    expect(top.out).toContain('Commands:');
    expect((await run(['frobnicate'], {})).code).toBe(2);
  });

  it('creates, lists and revokes keys; the key is printed once and stored hashed', async () => {
    const env = freshEnv();
    const created = await run(['keys', 'create', '--name', 'ci-bot', '--services', 'notion', '--read-only'], env);
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^portico_[0-9A-Za-z]{38}$/);
    const list = await run(['keys', 'list'], env);
    expect(list.out).toContain('ci-bot');
    expect(list.out).toContain('read-only notion');
    expect(list.out).not.toContain(key);
    expect(dataDirContains(env.PORTICO_DATA_DIR, key)).toBe(false);
    const id = /key_[0-9a-f]+/.exec(list.out)?.[0] as string;
    expect((await run(['keys', 'revoke', id], env)).code).toBe(0);
    expect((await run(['keys', 'list'], env)).out).toContain('revoked');
    expect((await run(['keys', 'revoke', id], env)).code).toBe(2);
    expect((await run(['keys', 'create', '--services', 'nosuch', '--name', 'x'], env)).code).toBe(2);
  });

  it('toggles protocols and stores a token encrypted, never in plaintext', async () => {
    const env = freshEnv();
    expect((await run(['integrations', 'list'], env)).out).toMatch(/notion\s+Notion\s+20\s+on\s+off\s+not connected/);
    const configured = await run(['integrations', 'configure', 'notion', '--rest', 'on', '--mcp', 'off'], env);
    expect(configured.out).toBe('notion: MCP off, REST on');
    expect((await run(['integrations', 'configure', 'notion', '--rest', 'maybe'], env)).code).toBe(2);
    const connected = await run(['connect', 'notion', '--token', '-'], env, 'secret_plaintext_token_123\n');
    expect(connected.code).toBe(0);
    expect((await run(['integrations', 'list'], env)).out).toMatch(/notion\s+Notion\s+20\s+off\s+on\s+token, active/);
    const client = createClient({ url: `file:${join(env.PORTICO_DATA_DIR, 'portico.db')}` });
    const rows = (await client.execute('SELECT secret FROM connections')).rows;
    client.close();
    expect(String(rows[0]?.secret)).toMatch(/^enc1:/);
    expect(dataDirContains(env.PORTICO_DATA_DIR, 'secret_plaintext_token_123')).toBe(false);
    expect(dataDirContains(env.PORTICO_DATA_DIR, 'enc1:')).toBe(true); // the check can see what the database holds
    expect(statSync(join(env.PORTICO_DATA_DIR, 'encryption.key')).mode & 0o777).toBe(0o600);
    expect((await run(['disconnect', 'notion'], env)).code).toBe(0);
    expect((await run(['disconnect', 'notion'], env)).code).toBe(2);
  });

  it('reports a bad configuration clearly', async () => {
    const result = await run(['keys', 'list'], { PORTICO_PORT: 'x' });
    expect(result.code).toBe(2);
    expect(result.err).toContain('PORTICO_PORT must be a whole number');
  });
});
