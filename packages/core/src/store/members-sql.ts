import type { Dialect } from './audit-sql.js';
import type { MemberRecord, MemberTable } from './member-types.js';
import type { DbRow } from './rows.js';

/** Runs one statement: its rows and how many it changed. */
export type MemberQuery = (sql: string, args: Array<string | null>) => Promise<{ rows: readonly DbRow[]; changed: number }>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function member(row: DbRow): MemberRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    email: String(row.email),
    name: text(row.name),
    role: String(row.role) as MemberRecord['role'],
    narrowing: JSON.parse(String(row.narrowing)),
    issuer: text(row.issuer),
    subject: text(row.subject),
    source: String(row.source) as MemberRecord['source'],
    createdAt: String(row.created_at),
    createdBy: text(row.created_by),
    lastSignInAt: text(row.last_sign_in_at),
  };
}

/** The members of workspaces, in the SQL both databases share; only the placeholders differ. */
export class SqlMemberTable implements MemberTable {
  constructor(
    private readonly dialect: Dialect,
    private readonly query: MemberQuery,
  ) {}

  private run(sql: string, args: Array<string | null>) {
    let n = 0;
    return this.query(this.dialect === 'sqlite' ? sql : sql.replace(/\?/g, () => `$${++n}`), args);
  }

  async create(r: MemberRecord): Promise<boolean> {
    const sql = `INSERT INTO members (id, workspace_id, email, name, role, narrowing, issuer, subject, source, created_at, created_by, last_sign_in_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, email) DO NOTHING`;
    const args = [
      r.id,
      r.workspaceId,
      r.email,
      r.name,
      r.role,
      JSON.stringify(r.narrowing),
      r.issuer,
      r.subject,
      r.source,
      r.createdAt,
      r.createdBy,
      r.lastSignInAt,
    ];
    return (await this.run(sql, args)).changed > 0;
  }

  async get(workspaceId: string, id: string): Promise<MemberRecord | undefined> {
    const row = (await this.run('SELECT * FROM members WHERE workspace_id = ? AND id = ?', [workspaceId, id])).rows[0];
    return row ? member(row) : undefined;
  }

  async list(workspaceId: string): Promise<MemberRecord[]> {
    const { rows } = await this.run('SELECT * FROM members WHERE workspace_id = ? ORDER BY email', [workspaceId]);
    return rows.map(member);
  }

  async findBySubject(issuer: string, subject: string): Promise<MemberRecord[]> {
    const sql = 'SELECT * FROM members WHERE issuer = ? AND subject = ? ORDER BY created_at, workspace_id';
    return (await this.run(sql, [issuer, subject])).rows.map(member);
  }

  async findByEmail(email: string): Promise<MemberRecord[]> {
    const sql = 'SELECT * FROM members WHERE email = ? ORDER BY created_at, workspace_id';
    return (await this.run(sql, [email])).rows.map(member);
  }

  async update(r: MemberRecord): Promise<boolean> {
    const sql = `UPDATE members SET name = ?, role = ?, narrowing = ?, issuer = ?, subject = ?, source = ?, last_sign_in_at = ?
       WHERE workspace_id = ? AND id = ?`;
    const args = [r.name, r.role, JSON.stringify(r.narrowing), r.issuer, r.subject, r.source, r.lastSignInAt, r.workspaceId, r.id];
    return (await this.run(sql, args)).changed > 0;
  }

  async remove(workspaceId: string, id: string, at: string): Promise<boolean> {
    // What the person could use ends with them: their grants (and so every token of those), their sessions
    await this.run('UPDATE oauth_grants SET revoked_at = ? WHERE workspace_id = ? AND member_id = ? AND revoked_at IS NULL', [
      at,
      workspaceId,
      id,
    ]);
    await this.run('DELETE FROM dashboard_sessions WHERE workspace_id = ? AND key_id = ?', [workspaceId, id]);
    // and their own upstream accounts (the engine revoked and deleted them first; this removes what that could not)
    await this.run('DELETE FROM connections WHERE workspace_id = ? AND member_id = ?', [workspaceId, id]);
    return (await this.run('DELETE FROM members WHERE workspace_id = ? AND id = ?', [workspaceId, id])).changed > 0;
  }
}

/** Migration 12: members, the person behind a grant, and the person behind an audit record. */
export const MEMBERS_TABLES = [
  `CREATE TABLE members (
     id TEXT PRIMARY KEY,
     workspace_id TEXT NOT NULL REFERENCES workspaces(id),
     email TEXT NOT NULL,
     name TEXT,
     role TEXT NOT NULL,
     narrowing TEXT NOT NULL,
     issuer TEXT,
     subject TEXT,
     source TEXT NOT NULL,
     created_at TEXT NOT NULL,
     created_by TEXT,
     last_sign_in_at TEXT,
     UNIQUE (workspace_id, email))`,
  'CREATE INDEX members_subject ON members(issuer, subject)',
  'CREATE INDEX members_email ON members(email)',
  'ALTER TABLE oauth_grants ADD COLUMN member_id TEXT',
  'CREATE INDEX oauth_grants_member ON oauth_grants(member_id)',
  'ALTER TABLE audit ADD COLUMN member_id TEXT',
];
