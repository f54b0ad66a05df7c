import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * What an MCP client application brings to an OAuth test: its redirect endpoint (a loopback server, as desktop
 * clients run), its Client ID Metadata Document on an https host (with a certificate authority of the test's own,
 * which the gateway is told to trust), and an in-memory OAuthClientProvider of the official SDK.
 */

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The loopback endpoint the browser is sent back to; it records each query it receives. */
export async function callbackServer(): Promise<{ url: string; received: URLSearchParams[]; close(): Promise<void> }> {
  const received: URLSearchParams[] = [];
  const server = createHttpServer((request, response) => {
    received.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Done</title><p>You may close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received, close: () => close(server) };
}

/**
 * An https host on 127.0.0.1 serving one client's metadata document at /oauth/client.json, with a self-signed
 * certificate made by the openssl command; `caFile` holds that certificate for PORTICO_OAUTH_CIMD_CA_FILE.
 */
export async function metadataDocumentHost(
  metadata: Omit<OAuthClientMetadata, 'client_id'>,
): Promise<{ clientId: string; caFile: string; fetched: number; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'portico-cimd-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  writeFileSync(join(dir, 'ca.pem'), cert);
  const state = { clientId: '', caFile: join(dir, 'ca.pem'), fetched: 0, close: async () => {} };
  const server = createHttpsServer({ key, cert }, (request, response) => {
    if (request.url !== '/oauth/client.json') return void response.writeHead(404).end();
    state.fetched += 1;
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' })
      .end(JSON.stringify({ client_id: state.clientId, ...metadata }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.clientId = `https://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`;
  state.close = async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  };
  return state;
}

/**
 * An in-memory OAuthClientProvider, as an MCP client application implements one. With `clientMetadataUrl`, the SDK
 * uses it as the client_id when the authorization server supports metadata documents; without, it registers (DCR).
 * The browser step is the test's: `redirectToAuthorization` only records the URL.
 */
export class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    readonly clientMetadataUrl?: string,
  ) {}

  state = () => 'state-42';
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed) => {
    this.client = info;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
  /** The authorization URL the SDK asked the application to open; throws when it asked for none. */
  opened(): URL {
    if (!this.authorizationUrl) throw new Error('The SDK did not ask to open an authorization URL');
    return this.authorizationUrl;
  }
  invalidateCredentials = (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') => {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  };
}
