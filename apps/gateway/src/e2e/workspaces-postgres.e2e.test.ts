// Workspace isolation with two instances on one PostgreSQL (the suite: workspaces.test-support.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { dropTestSchemas, postgresProblem, TEST_POSTGRES_URL } from '../gateway.test-support.js';
import { isolationSuite } from './workspaces.test-support.js';

const problem = await postgresProblem();
const schemas: string[] = [];

afterAll(async () => {
  await dropTestSchemas(...schemas);
});

describe.skipIf(problem !== undefined)(`on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const schema = `portico_ws_${randomBytes(5).toString('hex')}`;
  schemas.push(schema);
  isolationSuite('PostgreSQL, two instances', () => ({ PORTICO_DATABASE_URL: TEST_POSTGRES_URL, PORTICO_DATABASE_SCHEMA: schema }), 2);
  const grantSchema = `${schema}_g`;
  schemas.push(grantSchema);
  const grantDatabase = () => ({ PORTICO_DATABASE_URL: TEST_POSTGRES_URL, PORTICO_DATABASE_SCHEMA: grantSchema });
  isolationSuite('PostgreSQL, two instances', grantDatabase, 2, 'grant');
});
