import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORKSPACE, SqliteStore } from '@portico/core';
import { afterAll, expect, it } from 'vitest';
import { listening, MULTI_PROCESS_TIMEOUT, type PorticoProcess, runPortico } from './cluster.test-support.js';

/**
 * What a SIGKILL (the OOM killer, a node lost) costs the audit trail: audit records are written in batches off the
 * request path, every second (PORTICO's flush interval), so the records of calls answered in the last second before
 * the kill may be lost — and nothing answered earlier. The built CLI serves the sandbox on SQLite under steady load, is
 * killed, and the database left behind is counted against the answers the clients saw. The documented bound
 * (docs/security.md, "The audit log"): at most the calls answered in the last second; here checked with a margin of
 * half a second for scheduling on a loaded machine. Needs `pnpm build` first.
 */
const FLUSH_MS = 1_000;
const MARGIN_MS = 500;
let gateway: PorticoProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'portico-audit-kill-'));

afterAll(() => {
  if (gateway?.child.exitCode === null) gateway.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it(
  'a SIGKILL under load loses at most the audit records of the last second; every call answered before is on disk',
  async () => {
    gateway = runPortico(['serve', '--sandbox'], {
      PORTICO_DATA_DIR: dataDir,
      PORTICO_HOST: '127.0.0.1',
      PORTICO_PORT: '0',
      PORTICO_RATE_LIMIT_PER_MINUTE: '0', // the load is the point, not the key's limit
    });
    const url = await listening(gateway);
    const key = /portico_[A-Za-z0-9]{20,}/.exec(gateway.output())?.[0] as string;
    expect(key).toBeDefined();

    const answered: number[] = []; // when each 200 reached its client
    let running = true;
    const caller = async () => {
      while (running) {
        try {
          const response = await fetch(`${url}/api/v1/notion/users`, { headers: { authorization: `Bearer ${key}` } });
          await response.arrayBuffer();
          if (response.status === 200) answered.push(Date.now());
        } catch {
          return; // the gateway is gone
        }
      }
    };
    const callers = Array.from({ length: 6 }, caller);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    gateway.child.kill('SIGKILL');
    const killedAt = Date.now();
    running = false;
    await Promise.all(callers);
    await gateway.exited;

    const store = new SqliteStore(join(dataDir, 'sandbox.db')); // sandbox mode keeps its own database;
    try {
      let written = 0;
      let before: string | undefined;
      for (;;) {
        const page = await store.queryAudit({
          workspaceId: DEFAULT_WORKSPACE,
          operation: 'list_users',
          status: 200,
          limit: 1000,
          ...(before ? { before } : {}),
        });
        written += page.records.length;
        if (!page.next) break;
        before = page.next;
      }
      const lost = answered.length - written;
      const lastSecond = answered.filter((at) => at > killedAt - FLUSH_MS - MARGIN_MS).length;
      expect(answered.length).toBeGreaterThan(50); // under load, not a trickle
      expect(written).toBeLessThanOrEqual(answered.length);
      expect(lost, `${answered.length} answered, ${written} audited, ${lastSecond} in the last second`).toBeLessThanOrEqual(lastSecond);
      console.log(`audit under SIGKILL: ${answered.length} answered, ${written} audited, ${lost} lost (bound: ${lastSecond})`);
    } finally {
      await store.close();
    }
  },
  MULTI_PROCESS_TIMEOUT,
);
