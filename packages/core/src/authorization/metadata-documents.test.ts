import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { SqliteStore } from '../store/sqlite.js';
import { EgressPolicy, type Resolver } from '../upstream/egress.js';
import { type ClientMetadataDocumentOptions, cacheLifetime, DOCUMENT_CACHE_BOUNDS, isMetadataDocumentId } from './metadata-documents.js';
import { type DocumentHost, documentHost, testCertificate } from './metadata-documents.test-support.js';
import { AuthorizationServer } from './server.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const certificate = testCertificate();

/** What the document host answers per path: a body (JSON-encoded unless a string), headers, or a custom handler. */
type Answer = { body?: unknown; headers?: Record<string, string>; status?: number } | ((response: ServerResponse) => void);
const answers = new Map<string, Answer>();
let host: DocumentHost;
let store: SqliteStore;

beforeAll(async () => {
  host = await documentHost(certificate, (request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) return void response.writeHead(404).end();
    if (typeof answer === 'function') return answer(response);
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(text);
  });
});
afterAll(() => host.close());
beforeEach(async () => {
  answers.clear();
  host.requests.length = 0;
  store = new SqliteStore(':memory:');
  await store.migrate();
});
afterEach(() => store.close());

const document = (id: string, extra: Record<string, unknown> = {}) => ({
  client_id: id,
  client_name: 'Claude',
  redirect_uris: [REDIRECT],
  token_endpoint_auth_method: 'none',
  ...extra,
});

function serverWith(documents: ClientMetadataDocumentOptions = {}, egress?: EgressPolicy): AuthorizationServer {
  return new AuthorizationServer(store, silentLogger, {}, documents, egress);
}

/** The test's own host is allowed and its CA trusted: what an operator sets for a client on the firm's network. */
const allowed = (extra: ClientMetadataDocumentOptions = {}) => serverWith({ allowHosts: ['127.0.0.1'], ca: certificate.cert, ...extra });

describe('Client ID Metadata Documents', () => {
  it('the metadata advertises them, and an https client_id is read as one', () => {
    expect(serverWith().metadata('https://gw.example')).toMatchObject({ client_id_metadata_document_supported: true });
    expect(isMetadataDocumentId('https://app.example/client.json')).toBe(true);
    expect(isMetadataDocumentId('client_0123')).toBe(false);
  });

  it('a valid document becomes a client the consent page can show, kept in the store and fetched once while fresh', async () => {
    const id = `${host.origin}/client.json`;
    answers.set('/client.json', { body: document(id), headers: { 'cache-control': 'max-age=120' } });
    const server = allowed();
    const client = await server.clients.resolve(id, 1_000_000);
    expect(client).toMatchObject({ clientId: id, kind: 'cimd', name: 'Claude', redirectUris: [REDIRECT] });
    expect(await store.authorization.getClient(id)).toMatchObject({ kind: 'cimd', name: 'Claude' });
    await server.clients.resolve(id, 1_000_000 + 119_000);
    expect(host.requests).toEqual(['/client.json']);
    await server.clients.resolve(id, 1_000_000 + 121_000);
    expect(host.requests).toEqual(['/client.json', '/client.json']);

    const check = await server.authorizer.check(
      {
        response_type: 'code',
        client_id: id,
        redirect_uri: REDIRECT,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
      'https://gw.example',
    );
    expect(check.kind).toBe('ok');
  });

  it('Cache-Control is respected within bounds', () => {
    expect(cacheLifetime(undefined)).toBe(DOCUMENT_CACHE_BOUNDS.defaultMs);
    expect(cacheLifetime('public, max-age=600')).toBe(600_000);
    expect(cacheLifetime('max-age=5')).toBe(DOCUMENT_CACHE_BOUNDS.minMs);
    expect(cacheLifetime('no-store')).toBe(DOCUMENT_CACHE_BOUNDS.minMs);
    expect(cacheLifetime('max-age=99999999')).toBe(DOCUMENT_CACHE_BOUNDS.maxMs);
  });

  describe('refused with the default policy, before any connection', () => {
    const refusedBy = async (id: string, server = serverWith()) => {
      const answer = await server.clients.resolve(id);
      expect(typeof answer, `${id} was accepted`).toBe('string');
      return answer as string;
    };

    it.each([
      ['loopback', '127.0.0.1'],
      ['another loopback address', '127.1.2.3'],
      ['IPv6 loopback', '[::1]'],
      ['link-local', '169.254.10.20'],
      ['the cloud metadata address', '169.254.169.254'],
      ['private 10/8', '10.0.0.7'],
      ['private 172.16/12', '172.20.1.1'],
      ['private 192.168/16', '192.168.1.10'],
      ['IPv4-mapped loopback', '[::ffff:7f00:1]'],
      ['IPv6 unique local', '[fd12::1]'],
    ])('%s (%s)', async (_, address) => {
      const id = `https://${address}:${host.port}/client.json`;
      answers.set('/client.json', { body: document(id) });
      expect(await refusedBy(id)).toMatch(/is not a public address/);
      expect(host.requests).toEqual([]);
    });

    it('a DNS name that resolves to loopback (localhost)', async () => {
      const id = `https://localhost:${host.port}/client.json`;
      answers.set('/client.json', { body: document(id) });
      expect(await refusedBy(id, serverWith({ ca: certificate.cert }))).toMatch(
        /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
      );
      expect(host.requests).toEqual([]);
    });

    it('a public-looking name whose DNS answer is private or the metadata address', async () => {
      const answersOf: Record<string, string> = { 'app.example.com': '10.1.2.3', 'meta.example.com': '169.254.169.254' };
      const resolve: Resolver = (name, _options, callback) => callback(null, [{ address: answersOf[name] as string, family: 4 }]);
      const server = serverWith({}, new EgressPolicy({ resolve }));
      expect(await refusedBy('https://app.example.com/client.json', server)).toMatch(
        /resolves to 10\.1\.2\.3, which is not a public address/,
      );
      expect(await refusedBy('https://meta.example.com/client.json', server)).toMatch(/169\.254\.169\.254, a cloud metadata address/);
    });

    it('http, no path, a fragment, user information, dot segments', async () => {
      expect(await refusedBy(`http://127.0.0.1:${host.port}/client.json`)).toMatch(/must be https/);
      for (const id of [
        'https://app.example.com/',
        'https://app.example.com/c.json#x',
        'https://u:p@app.example.com/c.json',
        'https://app.example.com/a/../c.json',
      ]) {
        expect(await refusedBy(id)).toMatch(/must have a path/);
      }
      // Loopback written as a decimal or octal number: the URL parser reads it as 127.0.0.1, which is not how it was written.
      for (const id of [`https://2130706433:${host.port}/client.json`, `https://0177.0.0.1:${host.port}/client.json`]) {
        expect(await refusedBy(id)).toMatch(/canonical form/);
      }
      expect(host.requests).toEqual([]);
    });
  });

  describe('refused after fetching from an allowed host', () => {
    it('a document larger than 5 KB, announced or streamed', async () => {
      const id = `${host.origin}/big.json`;
      answers.set('/big.json', { body: document(id, { logo_uri: `https://app.example.com/${'x'.repeat(6_000)}` }) });
      expect(await allowed().clients.resolve(id)).toMatch(/larger than 5120 bytes/);
      const streamed = `${host.origin}/streamed.json`;
      answers.set('/streamed.json', (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(document(streamed, { padding: 'y'.repeat(6_000) })));
      });
      expect(await allowed().clients.resolve(streamed)).toMatch(/larger than 5120 bytes/);
    });

    it('a host that does not answer in time', async () => {
      const id = `${host.origin}/slow.json`;
      answers.set('/slow.json', (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"client_id":');
      });
      expect(await allowed({ timeoutMs: 300 }).clients.resolve(id)).toMatch(/took longer than 300 ms/);
    });

    it('a document whose client_id is not its URL', async () => {
      const id = `${host.origin}/other.json`;
      answers.set('/other.json', { body: document(`${host.origin}/client.json`) });
      expect(await allowed().clients.resolve(id)).toMatch(/client_id is not the URL it was fetched from/);
    });

    it.each([
      ['an unacceptable redirect URI', { redirect_uris: ['http://evil.example/cb'] }, /redirect URI/],
      ['no redirect URIs', { redirect_uris: [] }, /redirect_uris/],
      ['no client_name', { client_name: undefined }, /client_name/],
      ['a secret-based client', { token_endpoint_auth_method: 'client_secret_basic' }, /must be none/],
    ])('%s', async (_, extra, message) => {
      const id = `${host.origin}/bad.json`;
      answers.set('/bad.json', { body: document(id, extra) });
      expect(await allowed().clients.resolve(id)).toMatch(message);
    });

    it('a redirect (not followed), an error status, not JSON, an untrusted certificate', async () => {
      const id = (path: string) => `${host.origin}${path}`;
      answers.set('/moved.json', { status: 302, headers: { location: 'https://169.254.169.254/' }, body: '' });
      expect(await allowed().clients.resolve(id('/moved.json'))).toMatch(/answered 302/);
      expect(await allowed().clients.resolve(id('/missing.json'))).toMatch(/answered 404/);
      answers.set('/text.json', { body: 'not json' });
      expect(await allowed().clients.resolve(id('/text.json'))).toMatch(/not JSON/);
      answers.set('/client.json', { body: document(id('/client.json')) });
      expect(await serverWith({ allowHosts: ['127.0.0.1'] }).clients.resolve(id('/client.json'))).toMatch(/could not be fetched/);
    });
  });
});
