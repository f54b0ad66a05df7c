import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MULTI_PROCESS_TIMEOUT } from '../e2e/cluster.test-support.js';

/**
 * What `portico serve` writes where, on the built CLI: stdout is the JSON log alone (what a log shipper collects);
 * the banner with the first admin key goes to stderr. Needs `pnpm build` first.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'apps/gateway/dist/bin.js');
const dir = mkdtempSync(join(tmpdir(), 'portico-serve-output-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function firstStart(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  if (!existsSync(bin)) throw new Error('this test runs the built gateway: run `pnpm build` first');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
    env: { PATH: process.env.PATH, PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')), PORTICO_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = Date.now();
  while (!stderr.includes('Stop with Ctrl-C.') && child.exitCode === null) {
    if (Date.now() - started > 15_000) throw new Error(`gateway did not start:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  await exited;
  return { stdout, stderr };
}

describe('portico serve output', { timeout: MULTI_PROCESS_TIMEOUT }, () => {
  it('prints the first admin key to stderr only; every stdout line is a JSON log record without it', async () => {
    const { stdout, stderr } = await firstStart({});
    const key = /^\s+(portico_\S+)$/m.exec(stderr)?.[1];
    expect(key, stderr).toBeDefined();
    expect(stderr).toContain('shown only now');
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0); // at least "gateway listening"
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((line) => JSON.parse(line).msg === 'gateway listening')).toBe(true);
    expect(stdout).not.toContain(key as string);
  });

  it('starts with its encryption key from PORTICO_ENCRYPTION_KEY_FILE, and refuses a missing file by name', async () => {
    const keyFile = join(dir, 'encryption-key');
    writeFileSync(keyFile, 'q2y3J1m8Hc5m2Fvx3p8e2oK0f4y6W9b1c3d5e7g9h0I=\n', { mode: 0o600 });
    const { stderr } = await firstStart({ PORTICO_ENCRYPTION_KEY_FILE: keyFile });
    expect(stderr).toContain('is listening on');
    const missing = await firstStart({ PORTICO_ENCRYPTION_KEY_FILE: join(dir, 'missing') });
    expect(missing.stderr).toContain(`PORTICO_ENCRYPTION_KEY_FILE: cannot read ${join(dir, 'missing')} (no such file)`);
    expect(missing.stderr).not.toContain('is listening on');
  });

  it('warns, on stderr and in the log, when the public URL is http on a host that is not loopback', async () => {
    const { stdout, stderr } = await firstStart({ PORTICO_PUBLIC_URL: 'http://portico.example.com' });
    expect(stderr).toContain('is listening on http://portico.example.com');
    expect(stderr).toContain('Warning: PORTICO_PUBLIC_URL is http://portico.example.com, not https');
    expect(stderr).toContain('Claude and ChatGPT connect from their cloud and need a public https URL');
    const warned = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number | string; msg: string; publicUrl?: string })
      .filter((record) => record.msg.includes('need a public https URL'));
    expect(warned).toHaveLength(1);
    expect(warned[0]?.publicUrl).toBe('http://portico.example.com');

    for (const quiet of ['https://portico.example.com', 'http://127.0.0.1:8787', 'http://localhost:8787']) {
      const started = await firstStart({ PORTICO_PUBLIC_URL: quiet });
      expect(started.stderr, quiet).toContain('is listening on');
      expect(started.stderr, quiet).not.toContain('Warning:');
      expect(started.stdout, quiet).not.toContain('need a public https URL');
    }
  });
});
