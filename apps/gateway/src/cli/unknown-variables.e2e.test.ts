import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** A misspelt variable through the built CLI, as an operator meets it. Needs `pnpm build` first. */
const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'portico-unknown-variables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function portico(args: string[], env: Record<string, string>) {
  if (!existsSync(bin)) throw new Error('this test runs the built gateway: run `pnpm build` first');
  return spawnSync(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 30_000 });
}

describe('a misspelt PORTICO_ variable', () => {
  it('stops serve before it makes a database or a key, naming the variable meant and not the value', () => {
    const data = mkdtempSync(join(dir, 'data-'));
    const run = portico(['serve', '--port', '0'], {
      PORTICO_DATA_DIR: data,
      PORTICO_DATABSE_URL: 'postgres://portico:hunter2@db.example/portico',
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('PORTICO_DATABSE_URL is not a Portico variable: did you mean PORTICO_DATABASE_URL?');
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('portico_'); // no admin key was made
    expect(readdirSync(data)).toEqual([]);
  });

  it('stops the other commands too', () => {
    const run = portico(['keys', 'list', '--create'], { PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')), PORTICO_PORTT: '1' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('did you mean PORTICO_PORT?');
  });

  it('warns on stderr about a variable near none, naming the nearest, and carries on', () => {
    const run = portico(['keys', 'list', '--create'], {
      PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')),
      PORTICO_FAVOURITE_COLOUR: 'blue',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /portico: warning: PORTICO_FAVOURITE_COLOUR is not a Portico variable and is ignored; the nearest is PORTICO_/,
    );
  });
});
