import { fileURLToPath } from 'node:url';
import { PostgresStore, type PostgresStoreOptions } from './postgres.js';
import { SqliteStore } from './sqlite.js';
import type { Store } from './types.js';

// The package entry exports the store family from here, in one line.
export { PostgresStore, type PostgresStoreOptions } from './postgres.js';
export type { StoreChange, StoreChangeListener } from './types.js';

/**
 * Opens the store a database URL names (not yet migrated):
 * - `file:<path>` (or `file:///absolute/path`) and `:memory:` → the embedded SQLite store;
 * - `postgres://…` and `postgresql://…` → PostgreSQL; `options` apply to it only.
 */
export function openStore(url: string, options: PostgresStoreOptions = {}): Store {
  if (url === ':memory:') return new SqliteStore(':memory:');
  if (url.startsWith('file:')) {
    const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
    if (path === '') throw new Error('Database URL "file:" names no file: expected file:<path>');
    return new SqliteStore(path);
  }
  if (/^postgres(ql)?:\/\//i.test(url)) return new PostgresStore(url, options);
  // Say only the scheme: the rest of a URL may carry a password.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(
    `Unsupported database URL${scheme ? ` (scheme "${scheme}:")` : ''}: expected file:<path>, :memory:, postgres://… or postgresql://…`,
  );
}
