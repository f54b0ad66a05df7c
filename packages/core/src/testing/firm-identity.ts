import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import {
  type EmulatorReply,
  type EmulatorRequest,
  jsonReply,
  parseForm,
  parseJson,
  readBody,
  textReply,
  writeReply,
} from './emulator-http.js';
import { AuthorizationCodes, oauthError, redirectBack } from './emulator-oauth.js';
import { FIRM, FIRM_PEOPLE, type FirmPerson } from './firm.js';
import { firmSignIn } from './firm-sign-in.js';

/**
 * The firm's identity provider, for sandbox mode: an OpenID Connect provider on loopback whose sign-in page lists the
 * firm's people (as each sandbox application's login does), so that on `portico serve --sandbox` a person signs in to
 * the dashboard as Priya or Tom, connects their own accounts and approves their own assistant. Authorization code
 * with PKCE (S256) only, for one public client; ES256 ID tokens with `email`, `name` and `groups`; a UserInfo endpoint.
 * It accepts only redirect URIs on loopback ending in the dashboard's callback path, and each code once, for a minute.
 */
export interface FirmIdentityProvider {
  issuer: string;
  clientId: string;
  /** The groups its ID tokens carry, by the member role they map to (`PORTICO_OIDC_ROLE_GROUPS`). */
  roleGroups: ReadonlyArray<{ role: 'owner' | 'admin' | 'member'; group: string }>;
  close(): Promise<void>;
}

export const FIRM_IDENTITY_CLIENT_ID = 'portico-sandbox';
const CALLBACK_PATH = '/dashboard/sign-in/callback';
const CODE_TTL_MS = 60_000;
const TOKEN_TTL_S = 300;
const ROLE_GROUPS = [
  { role: 'owner', group: 'managing-partner' },
  { role: 'admin', group: 'partners' },
  { role: 'member', group: 'staff' },
] as const;

interface Grant {
  person: FirmPerson;
  challenge: string;
  nonce: string | undefined;
}

/** The person's stable subject at the provider, and the groups that make their role. */
const subjectOf = (person: FirmPerson) => `firm-${person.first.toLowerCase()}`;
function groupsOf(person: FirmPerson): string[] {
  if (person === FIRM_PEOPLE[0]) return ['staff', 'partners', 'managing-partner'];
  return person.role === 'partner' ? ['staff', 'partners'] : ['staff'];
}

const loopbackCallback = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.pathname === CALLBACK_PATH;
  } catch {
    return false;
  }
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startFirmIdentityProvider(options: { host?: string; port?: number } = {}): Promise<FirmIdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const kid = randomBytes(8).toString('hex');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const codes = new AuthorizationCodes<Grant>({
    mint: () => randomBytes(24).toString('base64url'),
    ttlMs: CODE_TTL_MS,
    spentOnFailure: true,
  });
  const tokens = new Map<string, { person: FirmPerson; expires: number }>();

  const claimsOf = (person: FirmPerson) => ({
    sub: subjectOf(person),
    email: person.email,
    email_verified: true,
    name: person.name,
    groups: groupsOf(person),
  });

  const authorize = (request: EmulatorRequest, issuer: string): EmulatorReply => {
    const q = request.query;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== FIRM_IDENTITY_CLIENT_ID || !loopbackCallback(redirectUri)) {
      return textReply(400, 'Unknown client or redirect URI: this sign-in only serves the Portico sandbox on this machine.');
    }
    const back = { state: q.get('state') || undefined, iss: issuer };
    const challenge = q.get('code_challenge') ?? '';
    if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(challenge)) {
      const error = { error: 'invalid_request', error_description: 'the code flow with a PKCE S256 challenge is required' };
      return redirectBack(redirectUri, { ...back, ...error });
    }
    // Always the firm's sign-in page (never a silent sign-in as the account holder), unless a person was chosen.
    const asked = q.get('login_hint') ? request : { ...request, query: new URLSearchParams([...q, ['prompt', 'login']]) };
    const signIn = firmSignIn(asked, FIRM.shortName);
    if ('page' in signIn) return signIn.page;
    const code = codes.issue(
      { clientId: FIRM_IDENTITY_CLIENT_ID, redirectUri },
      { person: signIn.person, challenge, nonce: q.get('nonce') ?? undefined },
    );
    return redirectBack(redirectUri, { ...back, code });
  };

  const token = async (request: EmulatorRequest, issuer: string): Promise<EmulatorReply> => {
    const form = request.form();
    const refuse = (error: string, description: string) => oauthError(400, error, description);
    if (form.grant_type !== 'authorization_code') return refuse('unsupported_grant_type', 'only authorization_code');
    if (form.client_id !== FIRM_IDENTITY_CLIENT_ID) return refuse('invalid_client', 'unknown client');
    const grant = codes.redeem(form.code, { clientId: form.client_id, redirectUri: form.redirect_uri }); // once, whatever the outcome
    if (!grant) return refuse('invalid_grant', 'the code is unknown, used, expired or for another redirect URI');
    const verifier = form.code_verifier ?? '';
    if (!sameText(createHash('sha256').update(verifier).digest('base64url'), grant.challenge)) {
      return refuse('invalid_grant', 'the code verifier does not match the challenge');
    }
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { person: grant.person, expires: Date.now() + TOKEN_TTL_S * 1000 });
    const idToken = await new SignJWT({ ...claimsOf(grant.person), ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(issuer)
      .setAudience(FIRM_IDENTITY_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_S}s`)
      .sign(privateKey);
    return jsonReply(200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_S,
      id_token: idToken,
      scope: 'openid email profile',
    });
  };

  const userinfo = (request: EmulatorRequest): EmulatorReply => {
    const bearer = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
    const held = tokens.get(bearer);
    if (!held || held.expires < Date.now()) {
      return jsonReply(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    return jsonReply(200, claimsOf(held.person));
  };

  const handle = (request: EmulatorRequest, issuer: string): EmulatorReply | Promise<EmulatorReply> => {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /.well-known/openid-configuration') {
      return jsonReply(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['openid', 'email', 'profile'],
        claims_supported: ['sub', 'email', 'email_verified', 'name', 'groups'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (route === 'GET /jwks') return jsonReply(200, { keys: [jwk] });
    if (route === 'GET /authorize') return authorize(request, issuer);
    if (route === 'POST /token') return token(request, issuer);
    if (route === 'GET /userinfo') return userinfo(request);
    return jsonReply(404, { error: 'not_found' });
  };

  let issuer = '';
  const server = createServer((req, res) => {
    readBody(req, 64 * 1024)
      .then((body) => {
        const url = new URL(req.url ?? '/', issuer);
        const request: EmulatorRequest = {
          method: (req.method ?? 'GET').toUpperCase(),
          url,
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          seq: 0,
          origin: issuer,
          text: () => body.toString('utf8'),
          json: () => parseJson(body),
          form: () => parseForm(body),
          mediaType: () => (String(req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase(),
        };
        return handle(request, issuer);
      })
      .then((reply) => writeReply(res, reply))
      .catch(() => {
        if (!res.headersSent) writeReply(res, jsonReply(400, { error: 'invalid_request' }));
        else res.destroy();
      });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  issuer = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { issuer, clientId: FIRM_IDENTITY_CLIENT_ID, roleGroups: ROLE_GROUPS, close };
}
