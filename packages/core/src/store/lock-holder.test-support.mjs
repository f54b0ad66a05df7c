// Test helper, run as a separate Node process by contract-postgres.e2e.test.ts: takes a Portico connection lock with plain `pg`,
// deriving the advisory key on its own from the documented formula (see advisoryLockText in postgres-locks.ts), so that a
// PostgresStore in another process blocking on it proves the derivation is shared, not just the database.
// Usage: node lock-holder.test-support.mjs <url> <schema> <workspaceId> <service>; prints "locked", releases on a "release"
// line on stdin (or when stdin closes), prints "released" and exits.
import pg from 'pg';

const [url, namespace, workspaceId, service] = process.argv.slice(2);
const lock = JSON.stringify(['portico', namespace, 'connection', workspaceId, service]);
const client = new pg.Client({ connectionString: url, application_name: 'portico-test:lock-holder' });
await client.connect();
await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
process.stdout.write('locked\n');
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) {
  if (String(chunk).includes('release')) break;
}
await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
process.stdout.write('released\n');
await client.end();
