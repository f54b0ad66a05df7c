import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { MIGRATIONS } from '@portico/core';
import { describe, expect, it } from 'vitest';
import { main } from './index.js';

function run(argv: string[], env: Record<string, string>, stdin = '', answer?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (l: string) => out.push(l),
    err: (l: string) => err.push(l),
    stdin: () => stdin,
    ...(answer === undefined
      ? {}
      : {
          prompt: async (question: string) => {
            err.push(question);
            return answer;
          },
        }),
  };
  return main(argv, { ...env, PORTICO_LOG_LEVEL: 'silent' }, io).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

/** Every file of the data directory (database, WAL, shared memory), as bytes. */
function dataDirContains(dir: string, text: string): boolean {
  return readdirSync(dir).some((name) => readFileSync(join(dir, name)).includes(Buffer.from(text)));
}

/** A new data directory, and the database in it named (admin commands refuse to create an unnamed one). */
const freshEnv = () => {
  const dir = mkdtempSync(join(tmpdir(), 'portico-cli-'));
  return { PORTICO_DATA_DIR: dir, PORTICO_DATABASE_URL: `file:${join(dir, 'portico.db')}`, PORTICO_PLUGINS: 'notes' };
};

describe('portico CLI', () => {
  it('prints help for every command', async () => {
    for (const command of ['serve', 'keys', 'integrations', 'connect', 'disconnect', 'workspaces', 'tool-sets', 'audit']) {
      const result = await run([command, '--help'], {});
      expect(result.code).toBe(0);
      expect(result.out).toMatch(new RegExp(`Usage:[\\s\\S]*portico ${command}`));
    }
    const top = await run(['--help'], {});
    expect(top.out).toContain('Commands:');
    expect((await run(['frobnicate'], {})).code).toBe(2);
  });

  it('answers --help for every command the top-level help lists', async () => {
    const top = (await run(['--help'], {})).out;
    const section = top.slice(top.indexOf('Commands:'), top.indexOf('\n\n', top.indexOf('Commands:')));
    const listed = [...section.matchAll(/^ {2}([a-z][a-z-]+)/gm)].map((m) => m[1] as string);
    expect(listed).toEqual([
      'serve',
      'workspaces',
      'keys',
      'grants',
      'members',
      'tool-sets',
      'integrations',
      'operations',
      'connect',
      'disconnect',
      'events',
      'encryption',
      'audit',
      'migrate',
      'env',
    ]);
    for (const command of listed) {
      const result = await run([command, '--help'], {});
      expect({ command, code: result.code, err: result.err }).toEqual({ command, code: 0, err: '' });
      expect(result.out).toMatch(new RegExp(`^Usage:[\\s\\S]*portico ${command}`));
    }
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
    expect(configured.out).toBe('notion: MCP off, REST on, connection policy personal_else_shared');
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

  it('manages workspaces: each has its own keys and connections, and a deletion says what it removes and asks first', async () => {
    const env = freshEnv();
    expect((await run(['workspaces', 'create', 'smith-law', '--name', 'Smith Law'], env)).out).toBe(
      'Created workspace smith-law (Smith Law)',
    );
    expect((await run(['workspaces', 'create', 'smith-law'], env)).err).toContain('already exists');
    expect((await run(['workspaces', 'create', 'Bad_Id'], env)).code).toBe(2);
    expect((await run(['workspaces', 'rename', 'smith-law', '--name', 'Smith & Co'], env)).code).toBe(0);
    const key = (await run(['keys', 'create', '--name', 'smith-bot', '--workspace', 'smith-law'], env)).out.trim();
    expect(key).toMatch(/^portico_/);
    expect((await run(['connect', 'notion', '--token', 'smith-token', '--workspace', 'smith-law'], env)).code).toBe(0);
    expect((await run(['keys', 'list'], env)).out).not.toContain('smith-bot');
    expect((await run(['keys', 'list', '--workspace', 'smith-law'], env)).out).toContain('smith-bot');
    expect((await run(['integrations', 'list'], env)).out).toMatch(/notion\s+.*not connected/);
    expect((await run(['integrations', 'list', '--workspace', 'smith-law'], env)).out).toMatch(/notion\s+.*token, active/);
    expect((await run(['keys', 'list', '--workspace', 'nosuch'], env)).err).toContain('No workspace nosuch');
    const listed = await run(['workspaces', 'list'], env);
    expect(
      listed.out
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['default', 'smith-law']);
    expect(listed.out).toMatch(/smith-law\s+Smith & Co\s+1\s+1\s+0/);

    // a wrong answer keeps the workspace; the right one deletes it with its records
    const refused = await run(['workspaces', 'delete', 'smith-law'], env, '', 'smith');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('removes 1 API key, 1 connection, 0 integration settings, 0 tool sets');
    expect((await run(['keys', 'list', '--workspace', 'smith-law'], env)).out).toContain('smith-bot');
    const deleted = await run(['workspaces', 'delete', 'smith-law'], env, '', 'smith-law');
    expect(deleted.code).toBe(0);
    expect(deleted.out).toContain('Deleted workspace smith-law: 1 API key, 1 connection');
    expect((await run(['keys', 'list', '--workspace', 'smith-law'], env)).code).toBe(2);
    expect((await run(['workspaces', 'delete', 'default', '--yes'], env)).err).toContain('cannot be deleted');
    await run(['workspaces', 'create', 'acme'], env);
    expect((await run(['workspaces', 'delete', 'acme', '--yes'], env)).out).toBe(
      'Deleted workspace acme: 0 API keys, 0 connections, 0 integration settings, 0 tool sets, 0 audit records',
    );
  });

  it('saves tool sets, refuses a rule that matches nothing, and binds keys to a set', async () => {
    const env = freshEnv();
    const saved = await run(['tool-sets', 'save', 'readers', '--rule', 'notion:list_*', '--read', 'notion:get_*'], env);
    expect(saved.code).toBe(0);
    expect(saved.out).toMatch(/^Saved tool set readers \(version 1\): \d+ operations$/);
    const shown = await run(['tool-sets', 'show', 'readers'], env);
    const operations = shown.out
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
    expect(operations.length).toBeGreaterThan(1);
    for (const operation of operations) expect(operation).toMatch(/^notion:(list|get)_/);
    const bad = await run(['tool-sets', 'save', 'readers', '--rule', 'notion:list_*', '--rule', 'notion:lst_*'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('Rule "notion:lst_*" matches no operation');
    expect((await run(['tool-sets', 'show', 'readers'], env)).out).toContain('version 1');
    expect((await run(['keys', 'create', '--name', 'bound', '--tool-set', 'nosuch'], env)).err).toContain('No tool set nosuch');
    expect((await run(['keys', 'create', '--name', 'bound', '--tool-set', 'readers'], env)).code).toBe(0);
    expect((await run(['keys', 'list'], env)).out).toContain('tool set readers');
    expect((await run(['tool-sets', 'delete', 'readers'], env)).err).toContain('used by 1 active key');
    expect((await run(['tool-sets', 'list', '--workspace', 'nosuch'], env)).code).toBe(2);
  });

  it('refuses to create a database it was not pointed at, unless asked with --create', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portico-cli-'));
    const env = { PORTICO_DATA_DIR: dataDir, PORTICO_PLUGINS: 'notes' };
    for (const argv of [
      ['keys', 'create', '--name', 'ops'],
      ['integrations', 'list'],
      ['migrate', 'status'],
      ['workspaces', 'list'],
    ]) {
      const refused = await run(argv, env);
      expect({ argv, code: refused.code }).toEqual({ argv, code: 2 });
      expect(refused.err).toContain(`PORTICO_DATABASE_URL is not set and ${join(dataDir, 'portico.db')} does not exist`);
      expect(refused.err).toContain('--create');
      expect(refused.out).toBe('');
    }
    expect(readdirSync(dataDir)).toEqual([]);
    const created = await run(['keys', 'create', '--name', 'ops', '--create'], env);
    expect(created.code).toBe(0);
    expect(created.out.trim()).toMatch(/^portico_/);
    // Now that it exists, the commands use it without being asked.
    expect((await run(['keys', 'list'], env)).out).toContain('ops');
  });

  it('shows the schema migrations of the embedded database, prints their SQLite text in a dry run, and applies them', async () => {
    const env = freshEnv();
    const latest = Math.max(...MIGRATIONS.map((m) => m.version));
    const status = await run(['migrate', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.out).toContain(`Schema version 0; this release knows version ${latest}.`);
    expect(status.out).toContain(`${MIGRATIONS.length} pending: 'portico migrate up' applies them`);
    const dryRun = await run(['migrate', 'up', '--dry-run'], env);
    expect(dryRun.code).toBe(0);
    expect(dryRun.out).toContain('SQLite; nothing applied');
    expect(dryRun.out).toContain('AUTOINCREMENT');
    expect(dryRun.out).not.toContain('GENERATED ALWAYS AS IDENTITY');
    for (const m of MIGRATIONS) expect(dryRun.out).toContain(`-- ${m.version}: ${m.name}`);
    expect((await run(['migrate', 'status'], env)).out).toContain('Schema version 0;');
    const up = await run(['migrate', 'up'], env);
    expect(up.code).toBe(0);
    expect(up.out.split('\n').filter((line) => /^applied \d+ .* \(\d+ ms\)$/.test(line))).toHaveLength(MIGRATIONS.length);
    const after = await run(['migrate', 'status'], env);
    expect(after.out).toContain(`Schema version ${latest};`);
    expect(after.out).not.toContain('pending');
    expect((await run(['migrate', 'up'], env)).out).toBe(`Nothing to apply: the schema is at version ${latest}.`);
    expect((await run(['migrate', 'sideways'], env)).code).toBe(2);
  });

  it('reports a bad configuration clearly', async () => {
    const result = await run(['keys', 'list'], { PORTICO_PORT: 'x' });
    expect(result.code).toBe(2);
    expect(result.err).toContain('PORTICO_PORT must be a whole number');
  });
});
