import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../upstream/client.js';
import { type OAuthClient, requestToken, revokeToken } from './oauth-protocol.js';

// A token and revocation endpoint that records what each request sent.
const seen: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    seen.push({ path: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/token' ? JSON.stringify({ access_token: 'at', token_type: 'Bearer', expires_in: 3600 }) : '{}');
  });
});
let base = '';
const http = new UpstreamClient();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http.close();
  await new Promise((resolve) => server.close(resolve));
});

/** The id and secret as a server decodes HTTP Basic client credentials (RFC 6749 §2.3.1): split, then form-decoded. */
function decodeBasic(header: string | undefined): [string, string] {
  const text = Buffer.from(String(header).replace(/^Basic /, ''), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  return [decode(text.slice(0, colon)), decode(text.slice(colon + 1))];
}

describe('HTTP Basic client credentials', () => {
  // a secret holding the two characters Basic's encoding must protect: the separator and the escape
  const client = (): OAuthClient => ({
    clientId: 'app:id',
    clientSecret: 's3cr%t:with+colon',
    redirectUri: 'http://127.0.0.1/callback',
    settings: { authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, revokeUrl: `${base}/revoke`, scopes: [] },
  });

  it('reach the token endpoint and the revocation endpoint as they were configured, a colon and a % included', async () => {
    seen.length = 0;
    await requestToken(http, client(), { grant_type: 'refresh_token', refresh_token: 'rt' });
    await revokeToken(http, client(), { accessToken: 'at', refreshToken: 'rt' });
    expect(seen.map((request) => request.path)).toEqual(['/token', '/revoke']);
    for (const request of seen) expect(decodeBasic(request.headers.authorization)).toEqual(['app:id', 's3cr%t:with+colon']);
    expect(new URLSearchParams(seen[1]?.body).get('token')).toBe('rt');
  });
});
