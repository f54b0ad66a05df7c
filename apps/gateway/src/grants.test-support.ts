import { createHash, randomBytes } from 'node:crypto';

/**
 * A grant obtained the way an OAuth client obtains one, over HTTP only: Dynamic Client Registration, the consent page
 * answered by an admin signed in to the dashboard (with `adminKey`, whose workspace the grant is for), and the code
 * exchanged with its PKCE verifier. For suites that run with grants as well as keys.
 */
export interface ObtainedGrant {
  accessToken: string;
  refreshToken: string;
  clientId: string;
  /** Everything secret the flow produced or sent: the code, the verifier and both tokens. */
  secrets: string[];
}

/** What the person picks on the consent page: `access_<service>` (`read`|`write`), `tool_set`, `expires` (days, or `never`). */
export type ConsentChoices = Record<string, string>;

const REDIRECT = 'http://127.0.0.1:9/callback';

const form = (url: string, fields: Record<string, string>, cookie?: string) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

function must(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`obtaining a grant: ${what}`);
}

/** Where the flow goes; default: the gateway's own endpoints. A test can take them from a document that names them. */
export interface GrantEndpoints {
  authorize?: string;
  token?: string;
  /** The resource (RFC 8707) asked for; default the gateway's MCP door. Behind a public URL, that URL's. */
  resource?: string;
}

/**
 * The consent step alone: an admin signs in to the dashboard with `adminKey`, opens `authorizeUrl` (an authorization
 * request as a client builds it), answers the consent form with `choices`, and gets where the browser is sent back.
 */
/** Who signs the consent page: an admin key (signed in with it), or a person's dashboard session cookie. */
export type Approver = string | { cookie: string };

export async function approveAsAdmin(gatewayUrl: string, adminKey: Approver, authorizeUrl: URL, choices: ConsentChoices): Promise<URL> {
  let cookie: string;
  if (typeof adminKey === 'string') {
    const signIn = await form(`${gatewayUrl}/dashboard/sign-in`, { key: adminKey });
    must(signIn.status === 303, `sign-in answered ${signIn.status}`);
    cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  } else {
    cookie = adminKey.cookie;
  }
  const page = await fetch(authorizeUrl, { redirect: 'manual', headers: { cookie } });
  const text = await page.text();
  must(page.status === 200, `the consent page answered ${page.status}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
  must(csrf, 'the consent page has no CSRF field');
  const hidden = Object.fromEntries([...text.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
  const answer = await form(`${gatewayUrl}/dashboard/authorize`, { ...hidden, _csrf: csrf, decision: 'approve', ...choices }, cookie);
  must(answer.status === 303, `consent answered ${answer.status}`);
  return new URL(answer.headers.get('location') as string);
}

export async function obtainGrant(
  gatewayUrl: string,
  adminKey: Approver,
  choices: ConsentChoices,
  clientName = 'Grant test client',
  endpoints: GrantEndpoints = {},
): Promise<ObtainedGrant> {
  const registered = await fetch(`${gatewayUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: clientName, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  must(registered.status === 201, `registration answered ${registered.status}`);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(endpoints.authorize ?? `${gatewayUrl}/dashboard/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'grant-test',
    resource: endpoints.resource ?? `${gatewayUrl}/api/mcp`,
  })) {
    authorize.searchParams.set(name, value);
  }
  const back = await approveAsAdmin(gatewayUrl, adminKey, authorize, choices);
  const code = back.searchParams.get('code');
  must(code, `consent sent no code: ${back.href}`);

  const exchanged = await form(endpoints.token ?? `${gatewayUrl}/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: clientId,
  });
  must(exchanged.status === 200, `the token endpoint answered ${exchanged.status}`);
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    clientId,
    secrets: [code, verifier, tokens.access_token, tokens.refresh_token],
  };
}
