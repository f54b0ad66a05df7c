import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { PostgresStore } from '../store/postgres.js';
import { TEST_POSTGRES_URL as PG_URL, postgresProblem, POSTGRES_REQUIRED as REQUIRE_PG } from '../store/postgres.test-support.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { documentHost, testCertificate } from './metadata-documents.test-support.js';
import { AuthorizationServer } from './server.js';

/**
 * A client known by its metadata document, on two gateway instances over one PostgreSQL database: each instance
 * fetches and checks the document itself (its cache is its own), and a code one issues the other redeems.
 */
const GATEWAY = 'https://gw.example';
const REDIRECT = 'http://127.0.0.1:33418/callback';

const problem = await postgresProblem();

if (problem === undefined) {
  const schema = `portico_cimd_${randomBytes(6).toString('hex')}`;
  const stores: PostgresStore[] = [];
  const certificate = testCertificate();
  let clientId = '';
  const host = await documentHost(certificate, (request, response) => {
    if (request.url !== '/client.json') return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ client_id: clientId, client_name: 'Claude', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }));
  });
  clientId = `${host.origin}/client.json`;
  afterAll(async () => {
    await host.close();
    for (const store of stores) await store.close();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
  });

  describe('a metadata-document client on two instances over PostgreSQL', () => {
    it('each instance fetches the document; a code issued on one is redeemed on the other', async () => {
      for (let i = 0; i < 2; i++) {
        const store = new PostgresStore(PG_URL, { schema, poolSize: 2 });
        stores.push(store);
        await store.migrate();
      }
      const [one, two] = stores.map(
        (store) => new AuthorizationServer(store, silentLogger, {}, { allowHosts: ['127.0.0.1'], ca: certificate.cert }),
      ) as [AuthorizationServer, AuthorizationServer];
      const verifier = randomBytes(32).toString('base64url');
      const params = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource: `${GATEWAY}/api/mcp`,
      };
      const check = await one.authorizer.check(params, GATEWAY);
      if (check.kind !== 'ok') throw new Error(JSON.stringify(check));
      expect((await two.authorizer.check(params, GATEWAY)).kind).toBe('ok');
      expect(host.requests).toEqual(['/client.json', '/client.json']);
      expect(await stores[1]?.authorization.getClient(clientId)).toMatchObject({ kind: 'cimd', name: 'Claude', redirectUris: [REDIRECT] });

      const consent = {
        workspaceId: DEFAULT_WORKSPACE,
        scopes: { services: '*' as const, readOnly: true, toolSet: null },
        expiresAt: null,
        createdBy: null,
      };
      const code = new URL(await one.authorizer.approve(check.request, consent)).searchParams.get('code') as string;
      const tokens = await two.tokens.exchange(
        { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT },
        GATEWAY,
      );
      expect((await one.authenticate(tokens.access_token, GATEWAY)).workspaceId).toBe(DEFAULT_WORKSPACE);
      const grants = await stores[0]?.authorization.listGrants(DEFAULT_WORKSPACE);
      expect(grants?.map((g) => [g.clientId, g.clientName])).toEqual([[clientId, 'Claude']]);
    });
  });
} else if (REQUIRE_PG) {
  describe('a metadata-document client over PostgreSQL', () => {
    it('needs PostgreSQL (PORTICO_REQUIRE_POSTGRES=1)', () => {
      throw new Error(`PostgreSQL is required but cannot be reached: ${problem}`);
    });
  });
} else {
  describe.skip(`a metadata-document client over PostgreSQL (skipped: not reachable: ${problem})`, () => {
    it('two instances', () => {});
  });
}
