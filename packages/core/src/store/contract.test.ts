// The store contract (contract.test-support.ts) held by SQLite; on PostgreSQL: contract-postgres.e2e.test.ts.
import { storeContract } from './contract.test-support.js';
import { SqliteStore } from './sqlite.js';

storeContract('SqliteStore(:memory:)', async () => new SqliteStore(':memory:'));
