import type { DbRow } from './rows.js';
import { DEFAULT_WORKSPACE, type StoreChange, type ToolSetRecord, type Workspace, type WorkspaceUsage } from './types.js';

/** One SQL statement with `?` placeholders (the PostgreSQL runner numbers them). */
export interface Statement {
  sql: string;
  args: unknown[];
}

/** How the workspace and tool-set SQL, shared by both stores, reaches a database. */
export interface SqlRunner {
  query(statement: Statement): Promise<DbRow[]>;
  /**
   * Runs `before`, then `write` (an INSERT, UPDATE or DELETE without RETURNING) with `RETURNING *`, in one transaction.
   * When `write` returned rows, `change` is reported to this store's listeners and, where other processes listen
   * (PostgreSQL), notified in the same transaction, so that it is delivered if and only if the write commits.
   * Resolves the rows of `write` and how many rows each statement of `before` changed.
   */
  write(before: Statement[], write: Statement, change: StoreChange): Promise<{ rows: DbRow[]; counts: number[] }>;
}

/** `?` → `$1`, `$2`…: the statements of this file use no `?` other than placeholders. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const workspace = (row: DbRow): Workspace => ({ id: String(row.id), name: String(row.name), createdAt: String(row.created_at) });

function toolSet(row: DbRow): ToolSetRecord {
  return {
    workspaceId: String(row.workspace_id),
    id: String(row.id),
    name: String(row.name),
    rules: JSON.parse(String(row.rules)),
    version: Number(row.version),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

/** The tables whose rows belong to a workspace, in the order a deletion removes them (the workspace row last). */
const OWNED: ReadonlyArray<[table: string, counted: keyof WorkspaceUsage | undefined]> = [
  ['api_keys', 'keys'],
  ['connections', 'connections'],
  ['integrations', 'integrations'],
  ['tool_sets', 'toolSets'],
  ['audit', 'auditRecords'],
  ['oauth_states', undefined],
  ['dashboard_sessions', undefined],
  ['oauth_tokens', undefined],
  ['oauth_codes', undefined],
  ['oauth_grants', undefined],
  ['members', undefined],
  ['event_delivery_attempts', undefined],
  ['event_deliveries_out', undefined],
  ['event_subscriptions', undefined],
  ['events', undefined],
  ['event_deliveries', undefined],
  ['event_secrets', undefined],
  ['webhook_registrations', undefined],
];

/** The workspace and tool-set half of the `Store` interface, in the SQL SQLite and PostgreSQL share. */
export class WorkspaceRecords {
  constructor(private readonly db: SqlRunner) {}

  async get(id: string): Promise<Workspace | undefined> {
    const [row] = await this.db.query({ sql: 'SELECT * FROM workspaces WHERE id = ?', args: [id] });
    return row ? workspace(row) : undefined;
  }

  async list(): Promise<Workspace[]> {
    const rows = await this.db.query({
      sql: 'SELECT * FROM workspaces ORDER BY CASE WHEN id = ? THEN 0 ELSE 1 END, created_at, id',
      args: [DEFAULT_WORKSPACE],
    });
    return rows.map(workspace);
  }

  async create(w: Workspace): Promise<boolean> {
    const { rows } = await this.db.write(
      [],
      {
        sql: 'INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
        args: [w.id, w.name, w.createdAt],
      },
      { kind: 'workspace', workspaceId: w.id, id: w.id },
    );
    return rows.length > 0;
  }

  async rename(id: string, name: string): Promise<boolean> {
    const { rows } = await this.db.write(
      [],
      { sql: 'UPDATE workspaces SET name = ? WHERE id = ?', args: [name, id] },
      { kind: 'workspace', workspaceId: id, id },
    );
    return rows.length > 0;
  }

  async usage(id: string): Promise<WorkspaceUsage | undefined> {
    const counted = OWNED.filter((entry): entry is [string, keyof WorkspaceUsage] => entry[1] !== undefined);
    const [row] = await this.db.query({
      sql: `SELECT (SELECT COUNT(*) FROM workspaces WHERE id = ?) AS found,
              ${counted.map(([table, name]) => `(SELECT COUNT(*) FROM ${table} WHERE workspace_id = ?) AS ${name}`).join(', ')}`,
      args: [id, ...counted.map(() => id)],
    });
    if (!row || Number(row.found) === 0) return undefined;
    // PostgreSQL folds unquoted column aliases to lowercase.
    const value = (name: string) => Number(row[name] ?? row[name.toLowerCase()]);
    return Object.fromEntries(counted.map(([, name]) => [name, value(name)])) as unknown as WorkspaceUsage;
  }

  async delete(id: string): Promise<WorkspaceUsage | undefined> {
    const { rows, counts } = await this.db.write(
      OWNED.map(([table]) => ({ sql: `DELETE FROM ${table} WHERE workspace_id = ?`, args: [id] })),
      { sql: 'DELETE FROM workspaces WHERE id = ?', args: [id] },
      { kind: 'workspace', workspaceId: id, id },
    );
    if (rows.length === 0) return undefined;
    const removed: Partial<Record<keyof WorkspaceUsage, number>> = {};
    OWNED.forEach(([, name], i) => {
      if (name) removed[name] = counts[i] ?? 0;
    });
    return removed as WorkspaceUsage;
  }

  async getToolSet(workspaceId: string, id: string): Promise<ToolSetRecord | undefined> {
    const [row] = await this.db.query({ sql: 'SELECT * FROM tool_sets WHERE workspace_id = ? AND id = ?', args: [workspaceId, id] });
    return row ? toolSet(row) : undefined;
  }

  async listToolSets(workspaceId: string): Promise<ToolSetRecord[]> {
    return (await this.db.query({ sql: 'SELECT * FROM tool_sets WHERE workspace_id = ? ORDER BY id', args: [workspaceId] })).map(toolSet);
  }

  async putToolSet(r: Omit<ToolSetRecord, 'version'>): Promise<ToolSetRecord> {
    const { rows } = await this.db.write(
      [],
      {
        sql: `INSERT INTO tool_sets (workspace_id, id, name, rules, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)
              ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, rules = excluded.rules,
                version = tool_sets.version + 1, updated_at = excluded.updated_at`,
        args: [r.workspaceId, r.id, r.name, JSON.stringify(r.rules), r.createdAt, r.updatedAt],
      },
      { kind: 'tool_set', workspaceId: r.workspaceId, id: r.id },
    );
    const [row] = rows;
    if (!row) throw new Error('INSERT … RETURNING returned no row');
    return toolSet(row);
  }

  async deleteToolSet(workspaceId: string, id: string): Promise<boolean> {
    const { rows } = await this.db.write(
      [],
      { sql: 'DELETE FROM tool_sets WHERE workspace_id = ? AND id = ?', args: [workspaceId, id] },
      { kind: 'tool_set', workspaceId, id },
    );
    return rows.length > 0;
  }
}

/**
 * The workspace and tool-set methods of a `Store`, for a store that keeps them with `WorkspaceRecords` (both stores
 * do): each passes its `SqlRunner` to the records it sets in its constructor.
 */
export abstract class WorkspaceMethods {
  protected abstract readonly workspaces: WorkspaceRecords;

  getWorkspace(id: string): Promise<Workspace | undefined> {
    return this.workspaces.get(id);
  }

  listWorkspaces(): Promise<Workspace[]> {
    return this.workspaces.list();
  }

  createWorkspace(workspace: Workspace): Promise<boolean> {
    return this.workspaces.create(workspace);
  }

  renameWorkspace(id: string, name: string): Promise<boolean> {
    return this.workspaces.rename(id, name);
  }

  workspaceUsage(id: string): Promise<WorkspaceUsage | undefined> {
    return this.workspaces.usage(id);
  }

  deleteWorkspace(id: string): Promise<WorkspaceUsage | undefined> {
    return this.workspaces.delete(id);
  }

  getToolSet(workspaceId: string, id: string): Promise<ToolSetRecord | undefined> {
    return this.workspaces.getToolSet(workspaceId, id);
  }

  listToolSets(workspaceId: string): Promise<ToolSetRecord[]> {
    return this.workspaces.listToolSets(workspaceId);
  }

  putToolSet(record: Omit<ToolSetRecord, 'version'>): Promise<ToolSetRecord> {
    return this.workspaces.putToolSet(record);
  }

  deleteToolSet(workspaceId: string, id: string): Promise<boolean> {
    return this.workspaces.deleteToolSet(workspaceId, id);
  }
}
