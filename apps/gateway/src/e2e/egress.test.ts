import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { examplePlugin } from '@portico/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index.js';
import { ConfigError, loadConfig } from '../config/load.js';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

/**
 * Base URL overrides on link-local or cloud metadata addresses, or with another scheme, are refused at every door an
 * operator has — the environment (the gateway does not start), the admin API (400) and the CLI — unless
 * PORTICO_EGRESS_ALLOW_PRIVATE allows them. Nothing here sends a request to those addresses: a refused value never
 * reaches a client, and an allowed one is only stored.
 */

const REFUSED: Array<[string, string]> = [
  ['http://169.254.169.254/latest/meta-data/', 'points at 169.254.169.254, a cloud metadata address'],
  ['http://[fe80::1]/', 'points at fe80::1, a link-local address (169.254.0.0/16, fe80::/10)'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'points at metadata.google.internal, a cloud metadata address'],
  ['file:///etc/passwd', 'must be an http(s) URL'],
];

function run(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stdin: () => '' };
  return main(argv, { ...env, PORTICO_LOG_LEVEL: 'silent' }, io).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

/** A new data directory, and the database in it named (admin commands refuse to create an unnamed one). */
const freshEnv = () => {
  const dir = mkdtempSync(join(tmpdir(), 'portico-egress-'));
  return { PORTICO_DATA_DIR: dir, PORTICO_DATABASE_URL: `file:${join(dir, 'portico.db')}`, PORTICO_PLUGINS: 'notes' };
};

describe('PORTICO_<SERVICE>_BASE_URL', () => {
  it('is refused on link-local and metadata addresses and other schemes, naming the variable and the reason', () => {
    for (const [url, reason] of REFUSED) {
      expect(() => loadConfig({ PORTICO_NOTION_BASE_URL: url }), url).toThrow(ConfigError);
      expect(() => loadConfig({ PORTICO_NOTION_BASE_URL: url }), url).toThrow(`PORTICO_NOTION_BASE_URL ${reason}`);
    }
    expect(() => loadConfig({ PORTICO_NOTION_BASE_URL: 'http://169.254.169.254/' })).toThrow(
      /unless PORTICO_EGRESS_ALLOW_PRIVATE allows it/,
    );
  });

  it('holds the OAuth endpoint overrides to the same rule', () => {
    const oauth = { PORTICO_SLACK_CLIENT_ID: 'id', PORTICO_SLACK_CLIENT_SECRET: 'secret' };
    for (const suffix of ['OAUTH_AUTHORIZE_URL', 'OAUTH_TOKEN_URL', 'OAUTH_REVOKE_URL']) {
      expect(() => loadConfig({ ...oauth, [`PORTICO_SLACK_${suffix}`]: 'http://169.254.169.254/token' }), suffix).toThrow(
        `PORTICO_SLACK_${suffix} points at 169.254.169.254`,
      );
    }
    expect(loadConfig({ ...oauth, PORTICO_SLACK_OAUTH_TOKEN_URL: 'http://127.0.0.1:9/token' }).oauthClients.slack?.tokenUrl).toBe(
      'http://127.0.0.1:9/token',
    );
  });

  it('stops the gateway from starting, with the message', async () => {
    const serving = run(['serve', '--port', '0'], { ...freshEnv(), PORTICO_NOTION_BASE_URL: 'http://169.254.169.254/' });
    // a refusal returns at once; a gateway that started would serve until a signal
    const result = await Promise.race([
      serving,
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('the gateway started')), 5_000)),
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('PORTICO_NOTION_BASE_URL points at 169.254.169.254, a cloud metadata address');
    expect(result.out).not.toContain('listening');
  });

  it('is accepted on those addresses when the operator allows them (on, or a list)', () => {
    for (const [url] of REFUSED.slice(0, 3)) {
      expect(loadConfig({ PORTICO_NOTION_BASE_URL: url, PORTICO_EGRESS_ALLOW_PRIVATE: '1' }).baseUrls.notion, url).toBe(
        url.replace(/\/+$/, ''),
      );
    }
    const listed = loadConfig({ PORTICO_NOTION_BASE_URL: 'http://169.254.10.5:8080/v1', PORTICO_EGRESS_ALLOW_PRIVATE: '169.254.10.0/24' });
    expect(listed.baseUrls.notion).toBe('http://169.254.10.5:8080/v1');
    expect(listed.egressAllowPrivate).toEqual(['169.254.10.0/24']);
    // a list allows what it lists, nothing more
    expect(() =>
      loadConfig({ PORTICO_NOTION_BASE_URL: 'http://169.254.169.254/', PORTICO_EGRESS_ALLOW_PRIVATE: '169.254.10.0/24' }),
    ).toThrow(/metadata address/);
    expect(() => loadConfig({ PORTICO_EGRESS_ALLOW_PRIVATE: 'maybe please' })).toThrow(/PORTICO_EGRESS_ALLOW_PRIVATE: "maybe please"/);
  });

  it('stays allowed on loopback and private ranges by default', () => {
    const config = loadConfig({ PORTICO_NOTION_BASE_URL: 'http://10.0.0.5:8080/v1', PORTICO_SLACK_BASE_URL: 'http://localhost:9/api' });
    expect(config.baseUrls).toEqual({ notion: 'http://10.0.0.5:8080/v1', slack: 'http://localhost:9/api' });
  });
});

describe('portico integrations configure --base-url', () => {
  it('refuses link-local and metadata addresses and other schemes, and accepts them when allowed', async () => {
    const env = freshEnv();
    for (const [url, reason] of REFUSED) {
      const result = await run(['integrations', 'configure', 'notion', '--base-url', url], env);
      expect(result.code, url).toBe(2);
      expect(result.err, url).toContain(`The base URL ${reason.replace('must be an http(s) URL', 'is not http or https')}`);
    }
    // a private address needs the operator's approval for workspace base URLs (PORTICO_WORKSPACE_UPSTREAM_HOSTS)
    expect((await run(['integrations', 'configure', 'notion', '--base-url', 'http://10.0.0.5/v1'], env)).code).toBe(2);
    const approved = { ...env, PORTICO_WORKSPACE_UPSTREAM_HOSTS: '10.0.0.0/8,169.254.169.254' };
    expect((await run(['integrations', 'configure', 'notion', '--base-url', 'http://10.0.0.5/v1'], approved)).code).toBe(0);
    const allowed = await run(['integrations', 'configure', 'notion', '--base-url', 'http://169.254.169.254/'], {
      ...approved,
      PORTICO_EGRESS_ALLOW_PRIVATE: 'on',
    });
    expect(allowed.code).toBe(0);
    expect(allowed.out).toContain('base URL http://169.254.169.254/');
  });
});

describe('PATCH /api/admin/integrations/{service} with base_url', () => {
  const gateways: TestGateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
  });

  it('is 400 with the error body for link-local and metadata addresses and other schemes; allowed, it is stored', async () => {
    const gateway = await startTestGateway({ plugins: [examplePlugin] });
    gateways.push(gateway);
    for (const [url, reason] of REFUSED) {
      const res = await gateway.rest('PATCH', '/api/admin/integrations/example', { body: { base_url: url } });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({
        error: true,
        code: 'bad_request',
        message: expect.stringContaining(`The base URL ${reason.replace('must be an http(s) URL', 'is not http or https')}`),
      });
    }
    const listed = await gateway.rest('GET', '/api/admin/integrations');
    expect(JSON.stringify(listed.body)).not.toContain('169.254');

    const allowing = await startTestGateway({
      plugins: [examplePlugin],
      env: { PORTICO_EGRESS_ALLOW_PRIVATE: '1', PORTICO_WORKSPACE_UPSTREAM_HOSTS: 'fe80::/10' },
    });
    gateways.push(allowing);
    const res = await allowing.rest('PATCH', '/api/admin/integrations/example', { body: { base_url: 'http://[fe80::1]/' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ base_url: 'http://[fe80::1]/' });
  });
});
