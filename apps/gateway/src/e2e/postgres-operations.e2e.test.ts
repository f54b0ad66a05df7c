import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { examplePlugin } from '@portico/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { createLogger } from '../observability/logger.js';
import { type RunningGateway, startGateway } from '../server/start.js';

/**
 * What an operator sees of the gateway's PostgreSQL connections: pool sizes from the environment, and the loss and
 * return of the LISTEN connection in the log and in /metrics. Each run has its own schema and application_name, so
 * it only ever counts (and cuts) its own connections.
 */
const problem = await postgresProblem();
const schema = `portico_ops_${randomBytes(5).toString('hex')}`;
const applicationName = `portico-ops-${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'portico-ops-'));
const lines: Array<{ msg: string; [field: string]: unknown }> = [];
let gateway: RunningGateway;
let admin: pg.Client;

const key = () => gateway.createdKey?.key as string;
const get = (path: string) => fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${key()}` } });

async function backends(name: string): Promise<number[]> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);
  return rows.map((row) => Number(row.pid));
}

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const metric = async (name: string) => {
  const text = await (await get('/metrics')).text();
  return Number(new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
};

describe.skipIf(problem !== undefined)(
  `PostgreSQL connections under the operator's control${problem ? ` (skipped: ${problem})` : ''}`,
  () => {
    beforeAll(async () => {
      admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      const destination = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      const config = loadConfig({
        PORTICO_DATA_DIR: dataDir,
        PORTICO_PORT: '0',
        PORTICO_DATABASE_URL: TEST_POSTGRES_URL,
        PORTICO_DATABASE_SCHEMA: schema,
        PORTICO_DATABASE_POOL_SIZE: '2',
        PORTICO_DATABASE_LOCK_POOL_SIZE: '1',
        PORTICO_DATABASE_APPLICATION_NAME: applicationName,
        PORTICO_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      });
      gateway = await startGateway({ config, logger: createLogger('info', destination), plugins: [examplePlugin] });
    });

    afterAll(async () => {
      await gateway?.close();
      await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin?.end();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('opens no more query connections than PORTICO_DATABASE_POOL_SIZE, however many requests wait', async () => {
      const answers = await Promise.all(Array.from({ length: 30 }, () => get('/api/admin/audit?limit=5')));
      expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
      const open = await backends(applicationName);
      expect(open.length).toBeGreaterThanOrEqual(1);
      expect(open.length).toBeLessThanOrEqual(2);
      expect(await backends(`${applicationName}:listen`)).toHaveLength(1);
    });

    it('logs the loss and the return of the LISTEN connection, and counts both in /metrics', async () => {
      await until('the LISTEN connection', async () => (await backends(`${applicationName}:listen`)).length === 1);
      expect(await metric('portico_listen_connection_up')).toBe(1);
      const [listener] = await backends(`${applicationName}:listen`);
      await admin.query('SELECT pg_terminate_backend($1)', [listener]);
      await until('the loss logged', () => lines.some((l) => l.msg.startsWith('lost the LISTEN connection')));
      await until('the return logged', () => lines.some((l) => l.msg.startsWith('the LISTEN connection to PostgreSQL is back')));
      const lost = lines.find((l) => l.msg.startsWith('lost the LISTEN connection'));
      expect(lost?.level).toBe(40); // warn
      expect(String(lost?.reason)).toBe('57P01'); // PostgreSQL's admin_shutdown: terminated by an administrator
      expect(lines.find((l) => l.msg.startsWith('the LISTEN connection to PostgreSQL is back'))?.downMs).toEqual(expect.any(Number));
      expect(await metric('portico_listen_connection_events_total{event="lost"}')).toBe(1);
      expect(await metric('portico_listen_connection_events_total{event="restored"}')).toBe(1);
      expect(await metric('portico_listen_connection_up')).toBe(1);
      const [again] = await backends(`${applicationName}:listen`);
      expect(again).not.toBe(listener);
    });
  },
);
