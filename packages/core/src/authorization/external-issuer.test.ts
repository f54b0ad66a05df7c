import { generateKeyPairSync, type JsonWebKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { EgressPolicy } from '../upstream/egress.js';
import { ExternalIssuer, scopesFromClaim } from './external-issuer.js';
import { Jwks } from './jwks.js';
import { decodeJwt, JwtRefusal, looksLikeJwt, publicKeyFor, signatureValid } from './jwt.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the claim that says what a provider token may do', () => {
  it('reads workspace, services, tool set and write from a string or an array, ignoring the firm’s other roles', () => {
    expect(scopesFromClaim('workspace:smith-law service:clio service:slack')).toEqual({
      workspaceId: 'smith-law',
      scopes: { admin: false, operator: false, toolSet: null, services: ['clio', 'slack'], readOnly: true },
    });
    expect(scopesFromClaim(['Partner', 'workspace:default', 'tool_set:intake', 'write'])).toEqual({
      workspaceId: 'default',
      scopes: { admin: false, operator: false, toolSet: 'intake', services: '*', readOnly: false },
    });
    expect(scopesFromClaim('workspace:default service:*').scopes.services).toBe('*');
    // nothing named, nothing callable
    expect(scopesFromClaim('workspace:default').scopes).toMatchObject({ services: [], toolSet: null, readOnly: true });
  });

  it('refuses a claim without exactly one workspace, or with two tool sets', () => {
    for (const value of [undefined, 42, 'service:clio', 'workspace:a workspace:b', ['workspace:a', 'tool_set:x', 'tool_set:y']]) {
      expect(() => scopesFromClaim(value), JSON.stringify(value)).toThrow(JwtRefusal);
    }
  });
});

describe('JWS checks', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signed = (alg: string, key: typeof rsa.privateKey) => {
    const input = `${b64({ alg })}.${b64({ sub: 'x' })}`;
    const signature =
      alg === 'ES256' ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }) : sign('sha256', Buffer.from(input), key);
    return `${input}.${signature.toString('base64url')}`;
  };

  it('binds each algorithm to its key type: an RSA key never verifies ES256, an EC key never RS256, a short RSA key nothing', async () => {
    const rsaJwk = rsa.publicKey.export({ format: 'jwk' }) as JsonWebKey;
    const ecJwk = ec.publicKey.export({ format: 'jwk' }) as JsonWebKey;
    expect(publicKeyFor(rsaJwk, 'ES256')).toBeUndefined();
    expect(publicKeyFor(ecJwk, 'RS256')).toBeUndefined();
    expect(publicKeyFor({ ...rsaJwk, use: 'enc' }, 'RS256')).toBeUndefined();
    expect(publicKeyFor({ ...rsaJwk, alg: 'RS512' }, 'RS256')).toBeUndefined();
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }) as JsonWebKey;
    expect(publicKeyFor(short, 'RS256')).toBeUndefined();
    const rsaKey = publicKeyFor(rsaJwk, 'RS256');
    const ecKey = publicKeyFor(ecJwk, 'ES256');
    expect(rsaKey && (await signatureValid('RS256', rsaKey, decodeJwt(signed('RS256', rsa.privateKey))))).toBe(true);
    expect(ecKey && (await signatureValid('ES256', ecKey, decodeJwt(signed('ES256', ec.privateKey))))).toBe(true);
    expect(
      ecKey &&
        (await signatureValid('ES256', ecKey, decodeJwt(signed('ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)))),
    ).toBe(false);
  });

  it('tells a JWS from an API key, and refuses critical headers and non-JSON segments', () => {
    expect(looksLikeJwt('portico_abc')).toBe(false);
    expect(looksLikeJwt(`${b64({ alg: 'none' })}.${b64({})}.`)).toBe(true);
    expect(() => decodeJwt(`${b64({ alg: 'RS256', crit: ['exp'] })}.${b64({})}.c2ln`)).toThrow(JwtRefusal);
    expect(() => decodeJwt(`eyJub3Q.${b64({})}.c2ln`)).toThrow(JwtRefusal);
  });
});

describe('the JWKS cache', () => {
  it('fetches on an unknown kid at most once per floor, and keeps the known keys when a fetch fails', async () => {
    let keys: JsonWebKey[] = [{ kid: 'a', kty: 'RSA' }];
    const fetched: string[] = [];
    let down = false;
    const jwks = new Jwks(
      { issuer: 'https://idp.example', cacheMs: 600_000, refetchFloorMs: 30_000 },
      async (url) => {
        fetched.push(url);
        if (down) throw new Error('down');
        return url.endsWith('openid-configuration') ? { issuer: 'https://idp.example', jwks_uri: 'https://idp.example/keys' } : { keys };
      },
      silentLogger,
    );
    expect((await jwks.candidates('a', 0)).map((k) => k.kid)).toEqual(['a']);
    expect(fetched).toEqual(['https://idp.example/.well-known/openid-configuration', 'https://idp.example/keys']);
    keys = [...keys, { kid: 'b', kty: 'RSA' }];
    expect(await jwks.candidates('b', 10_000)).toEqual([]); // within the floor: no fetch
    expect(fetched).toHaveLength(2);
    expect((await jwks.candidates('b', 30_000)).map((k) => k.kid)).toEqual(['b']);
    expect(fetched).toHaveLength(3);
    down = true;
    expect(await jwks.candidates('c', 60_000)).toEqual([]);
    expect((await jwks.candidates('a', 60_001)).map((k) => k.kid)).toEqual(['a']); // known keys survive the failure
    expect(fetched).toHaveLength(4);
  });
});

describe('where the provider’s keys may come from', () => {
  it('never from a link-local or metadata address, nor over plain http off loopback: its tokens are refused', async () => {
    const store = { getWorkspace: async () => ({ id: 'default', name: 'Default', createdAt: '' }) } as never;
    const token = `${b64({ alg: 'RS256', kid: 'a' })}.${b64({ iss: 'https://idp.example', aud: 'https://gw.example', exp: 4e9 })}.c2ln`;
    const cases: Array<[string, RegExp]> = [
      ['http://169.254.169.254/keys', /link-local|metadata/],
      ['https://metadata.google.internal/keys', /metadata/],
      ['http://idp.example/keys', /must come over https/],
    ];
    for (const [jwksUri, why] of cases) {
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (obj: object) => warnings.push(String((obj as { err?: Error }).err?.message)) };
      const issuer = new ExternalIssuer({ issuer: 'https://idp.example', jwksUri }, store, logger, new EgressPolicy());
      await expect(issuer.authenticate(token, 'https://gw.example'), jwksUri).rejects.toMatchObject({ code: 'unauthorized' });
      expect(warnings, jwksUri).toEqual([expect.stringMatching(why)]);
    }
  });
});
