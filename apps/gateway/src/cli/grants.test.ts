import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { obtainGrant } from '../grants.test-support.js';
import { main } from './index.js';

/** `portico grants` on the data directory of a running gateway, whose grants a client obtained over HTTP. */
let gateway: TestGateway;
let env: Record<string, string>;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true });
  env = { PORTICO_DATA_DIR: gateway.runtime.config.dataDir, PORTICO_LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await gateway?.close();
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: () => '' });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('portico grants', () => {
  it('lists each grant with its client, scope, last use and state; revoke ends its tokens at once', async () => {
    const grant = await obtainGrant(gateway.url, gateway.key, { access_clio: 'read', expires: '7' }, 'Claude\u001b[31m');
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: grant.accessToken })).status).toBe(200);

    const listed = await run(['grants', 'list']);
    expect(listed.code).toBe(0);
    const line = listed.out.split('\n').find((l) => l.includes('Claude')) as string;
    expect(line).toMatch(/^grant_[0-9a-f]+\s+Claude\?\[31m\s+clio read-only\s+\d{4}-\d\d-\d\dT\S+\s+\d{4}-\d\d-\d\dT\S+\s+active$/);
    expect(listed.out).not.toContain('\u001b'); // a client's name cannot drive the terminal
    for (const secret of grant.secrets) expect(listed.out).not.toContain(secret);

    const id = /^grant_[0-9a-f]+/.exec(line)?.[0] as string;
    expect((await run(['grants', 'revoke', id, '--workspace', 'nosuch'])).code).toBe(2);
    const revoked = await run(['grants', 'revoke', id]);
    expect(revoked).toMatchObject({ code: 0, out: `Revoked ${id}: its tokens no longer work` });
    expect((await gateway.rest('GET', '/api/v1/clio/matters', { key: grant.accessToken })).status).toBe(401);
    expect((await run(['grants', 'list'])).out).toMatch(new RegExp(`${id}.*revoked$`, 'm'));
    expect((await run(['grants', 'revoke', id])).code).toBe(2);
    expect((await run(['grants', 'frobnicate'])).code).toBe(2);
  });

  it('says what it does in --help', async () => {
    const help = await run(['grants', '--help']);
    expect(help.out).toContain('portico grants list [--workspace ID]');
    expect(help.out).toContain('portico grants revoke <grant id>');
  });
});
