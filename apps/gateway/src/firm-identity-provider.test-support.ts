import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A firm's identity provider on loopback: `oidc-provider` (a certified OpenID Provider we did not write), with its
 * development login form (any password), the firm's people as accounts (login = the part before the @), and a
 * `groups` claim. The port is taken first and the provider attached once the gateway's callback is known, since each
 * must name the other.
 */
export interface FirmPerson {
  login: string;
  name: string;
  groups: string[];
}

export const FIRM_DOMAIN = 'harlowpike.example';

export interface FirmIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Starts answering, with the gateway's sign-in callback as the client's redirect URI. */
  attach(gatewayUrl: string): void;
  close(): Promise<void>;
}

export async function firmIdentityProvider(people: readonly FirmPerson[]): Promise<FirmIdentityProvider> {
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'portico-gateway';
  const clientSecret = 'a-client-secret-of-the-test-provider-0123456789';
  return {
    issuer,
    clientId,
    clientSecret,
    attach(gatewayUrl) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [`${gatewayUrl}/dashboard/sign-in/callback`],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        async findAccount(_ctx, id) {
          const person = people.find((p) => p.login === id);
          if (!person) return undefined;
          return {
            accountId: id,
            async claims() {
              return { sub: `sub-${id}`, email: `${id}@${FIRM_DOMAIN}`, email_verified: true, name: person.name, groups: person.groups };
            },
          };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        pkce: { required: () => true },
      });
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
