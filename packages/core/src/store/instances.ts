import type { Dialect } from './audit-sql.js';
import type { DbRow } from './rows.js';
import type { InstanceRecord, InstanceTable } from './types.js';

export type InstanceQuery = (sql: string, args: Array<string | number | null>) => Promise<{ rows: readonly DbRow[]; changed: number }>;

/** The instance table in the SQL both databases share; only the placeholders differ. */
export class SqlInstanceTable implements InstanceTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: InstanceQuery,
  ) {}

  private sql(text: string): string {
    if (this.dialect === 'sqlite') return text;
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  }

  async beat(r: InstanceRecord): Promise<void> {
    await this.query(
      this.sql(
        `INSERT INTO gateway_instances (id, host, pid, key_ids, key_file, started_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET key_ids = excluded.key_ids, key_file = excluded.key_file, seen_at = excluded.seen_at`,
      ),
      [r.id, r.host, r.pid, r.keyIds.join(','), r.keyFile, r.startedAt, r.seenAt],
    );
  }

  async live(since: string): Promise<InstanceRecord[]> {
    const { rows } = await this.query(this.sql('SELECT * FROM gateway_instances WHERE seen_at >= ? ORDER BY started_at, id'), [since]);
    return rows.map((row) => ({
      id: String(row.id),
      host: String(row.host),
      pid: Number(row.pid),
      keyIds: String(row.key_ids).split(',').filter(Boolean),
      keyFile: row.key_file === null || row.key_file === undefined ? null : String(row.key_file),
      startedAt: String(row.started_at),
      seenAt: String(row.seen_at),
    }));
  }

  async probe(): Promise<string | undefined> {
    const { rows } = await this.query('SELECT sealed FROM encryption_probe WHERE id = 1', []);
    return rows[0] ? String(rows[0].sealed) : undefined;
  }

  async sealProbe(sealed: string, previous: string | undefined): Promise<boolean> {
    const at = new Date().toISOString();
    if (previous === undefined) {
      const { changed } = await this.query(
        this.sql('INSERT INTO encryption_probe (id, sealed, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING'),
        [sealed, at],
      );
      return changed > 0;
    }
    const { changed } = await this.query(this.sql('UPDATE encryption_probe SET sealed = ?, updated_at = ? WHERE id = 1 AND sealed = ?'), [
      sealed,
      at,
      previous,
    ]);
    return changed > 0;
  }

  async remove(target: string | { before: string }): Promise<number> {
    if (typeof target === 'string') return (await this.query(this.sql('DELETE FROM gateway_instances WHERE id = ?'), [target])).changed;
    return (await this.query(this.sql('DELETE FROM gateway_instances WHERE seen_at < ?'), [target.before])).changed;
  }
}

export const ENCRYPTION_PROBE_TABLE = [
  `CREATE TABLE encryption_probe (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     sealed TEXT NOT NULL,
     updated_at TEXT NOT NULL)`,
];

export const INSTANCES_TABLE = [
  `CREATE TABLE gateway_instances (
     id TEXT PRIMARY KEY,
     host TEXT NOT NULL,
     pid INTEGER NOT NULL,
     key_ids TEXT NOT NULL,
     key_file TEXT,
     started_at TEXT NOT NULL,
     seen_at TEXT NOT NULL)`,
];
