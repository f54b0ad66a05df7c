import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A firm's identity provider on loopback, for tests: an OpenID Connect discovery document, a JWKS, and a signer of
 * access tokens with its keys (RS256 and ES256). `rotate` adds a key the JWKS did not have; `fetches` counts JWKS
 * requests. `forge` signs what a real provider never would (alg none, HS256 keyed with the public key, a foreign key).
 */
export interface IdentityProvider {
  issuer: string;
  /** JWKS requests received. */
  fetches: number;
  sign(claims: Record<string, unknown>, options?: { alg?: 'RS256' | 'ES256'; kid?: string }): string;
  /** A new RSA key, published in the JWKS from now on; returns its kid. */
  rotate(): string;
  forge: {
    none(claims: Record<string, unknown>): string;
    /** HS256 with the RSA key's public PEM as the secret (the classic algorithm confusion). */
    hmacWithPublicKey(claims: Record<string, unknown>): string;
    /** RS256 by a key the JWKS does not hold, under the kid of one it does. */
    foreignKey(claims: Record<string, unknown>): string;
  };
  close(): Promise<void>;
}

interface Key {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function newKey(kid: string, alg: 'RS256' | 'ES256'): Key {
  const pair = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, alg, ...pair };
}

function signWith(key: Pick<Key, 'alg' | 'privateKey'>, kid: string, claims: Record<string, unknown>): string {
  const input = `${b64({ alg: key.alg, typ: 'JWT', kid })}.${b64(claims)}`;
  const signature =
    key.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const keys: Key[] = [newKey('rsa-1', 'RS256'), newKey('ec-1', 'ES256')];
  let rotations = 0;
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/realms/firm/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] }));
      return;
    }
    if (path === '/realms/firm/keys') {
      provider.fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          keys: keys.map((key) => ({ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: key.alg, use: 'sig' })),
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/firm`;
  const rsa = keys[0] as Key;
  const provider: IdentityProvider = {
    issuer,
    fetches: 0,
    sign(claims, options = {}) {
      const alg = options.alg ?? 'RS256';
      // a kid the JWKS does not hold is named over the first key of the algorithm
      const key = keys.find((k) => k.kid === options.kid) ?? (keys.find((k) => k.alg === alg) as Key);
      return signWith(key, options.kid ?? key.kid, claims);
    },
    rotate() {
      rotations++;
      const key = newKey(`rsa-rotated-${rotations}`, 'RS256');
      keys.push(key);
      return key.kid;
    },
    forge: {
      none: (claims) => `${b64({ alg: 'none', typ: 'JWT', kid: rsa.kid })}.${b64(claims)}.`,
      hmacWithPublicKey(claims) {
        const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: rsa.kid })}.${b64(claims)}`;
        const secret = rsa.publicKey.export({ format: 'pem', type: 'spki' });
        return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      },
      foreignKey: (claims) => signWith(newKey(rsa.kid, 'RS256'), rsa.kid, claims),
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}
