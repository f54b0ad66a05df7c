import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { PostgresStore } from '../store/postgres.js';
import { TEST_POSTGRES_URL as PG_URL, postgresProblem, POSTGRES_REQUIRED as REQUIRE_PG } from '../store/postgres.test-support.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { AuthorizationServer } from './server.js';

/** Two gateway instances on one PostgreSQL database: what one issues, the other redeems; what one revokes, both refuse. */
const GATEWAY = 'https://gw.example';
const REDIRECT = 'http://127.0.0.1:33418/callback';

const problem = await postgresProblem();

if (problem === undefined) {
  const schema = `portico_test_${randomBytes(6).toString('hex')}`;
  const stores: PostgresStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
  });

  describe('the authorization server on two instances over PostgreSQL', () => {
    it('redeems on one instance a code issued by the other, and a revoke on one ends the token on the other at once', async () => {
      for (let i = 0; i < 2; i++) {
        const store = new PostgresStore(PG_URL, { schema, poolSize: 2 });
        stores.push(store);
        await store.migrate();
      }
      const [one, two] = stores.map((store) => new AuthorizationServer(store, silentLogger)) as [AuthorizationServer, AuthorizationServer];
      const { client_id } = await one.clients.register({ client_name: 'Claude', redirect_uris: [REDIRECT] }, '127.0.0.1');
      const verifier = randomBytes(32).toString('base64url');
      const check = await two.authorizer.check(
        {
          response_type: 'code',
          client_id,
          redirect_uri: REDIRECT,
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
          resource: `${GATEWAY}/api/mcp`,
        },
        GATEWAY,
      );
      if (check.kind !== 'ok') throw new Error(JSON.stringify(check));
      const consent = {
        workspaceId: DEFAULT_WORKSPACE,
        scopes: { services: '*' as const, readOnly: false, toolSet: null },
        expiresAt: null,
        createdBy: null,
      };
      const code = new URL(await one.authorizer.approve(check.request, consent)).searchParams.get('code') as string;
      const tokens = await two.tokens.exchange(
        { grant_type: 'authorization_code', code, code_verifier: verifier, client_id, redirect_uri: REDIRECT },
        GATEWAY,
      );
      expect((await one.authenticate(tokens.access_token, GATEWAY)).workspaceId).toBe(DEFAULT_WORKSPACE);
      await two.tokens.revoke({ token: tokens.access_token });
      const started = Date.now();
      await expect(one.authenticate(tokens.access_token, GATEWAY)).rejects.toMatchObject({ code: 'unauthorized' });
      expect(Date.now() - started).toBeLessThan(1_000);
    });
  });
} else if (REQUIRE_PG) {
  describe('the authorization server over PostgreSQL', () => {
    it('needs PostgreSQL (PORTICO_REQUIRE_POSTGRES=1)', () => {
      throw new Error(`PostgreSQL is required but cannot be reached: ${problem}`);
    });
  });
} else {
  describe.skip(`the authorization server over PostgreSQL (skipped: not reachable: ${problem})`, () => {
    it('two instances', () => {});
  });
}
