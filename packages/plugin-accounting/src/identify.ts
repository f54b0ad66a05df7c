import type { ConnectionIdentity, IdentifyClient, UpstreamRequest } from '@portico/core/plugin';
import { companyGet, companyPath, PRODUCTION_HOST, SANDBOX_HOST, SANDBOX_USERINFO_URL, USERINFO_URL } from './upstream.js';

/** How long the userinfo question may take: the company is kept whatever it answers (the whole identification has 10 s). */
export const USERINFO_TIMEOUT_MS = 5_000;

interface UserInfo {
  sub?: unknown;
  givenName?: unknown;
  familyName?: unknown;
  email?: unknown;
}

/**
 * The QuickBooks company (realm) the connection reads (`/companyinfo/<realm id>`), and the person whose token it is,
 * as Intuit's OpenID Connect userinfo names them (`sub`, `givenName`, `familyName`, `email`; the token needs the
 * `openid`, `profile` and `email` scopes). The person is asked beside the company and only adds to it: a token without
 * those scopes, or a userinfo that fails or is slow, leaves the company alone.
 */
export async function identify(client: IdentifyClient, connection: Readonly<Record<string, unknown>>): Promise<ConnectionIdentity> {
  const company = companyPath(connection);
  const realm = company.slice(company.lastIndexOf('/') + 1);
  const person = withTimeout(client.send(userinfoRequest(client.baseUrl, connection)), USERINFO_TIMEOUT_MS).then(
    (response) => userOf(response.body),
    () => undefined,
  );
  const response = await client.send(companyGet(connection, {}, `/companyinfo/${realm}`));
  const info = (response.body as { CompanyInfo?: { CompanyName?: unknown; LegalName?: unknown } } | undefined)?.CompanyInfo;
  const name = info?.CompanyName ?? info?.LegalName;
  const user = await person;
  return {
    ...(typeof name === 'string' ? { account: { id: realm, name } } : {}),
    ...(user ? { user } : {}),
  };
}

/**
 * Intuit's userinfo for the connection's environment, with its token. Where the base URL is not Intuit's company host
 * (an operator's proxy, the Portico sandbox), the same path on the base URL's origin: the token is never sent to
 * Intuit when the company host is elsewhere.
 */
export function userinfoRequest(baseUrl: string, connection: Readonly<Record<string, unknown>>): UpstreamRequest {
  const origin = originOf(baseUrl);
  if (origin === PRODUCTION_HOST || origin === SANDBOX_HOST) {
    return { method: 'GET', url: connection.environment === 'sandbox' ? SANDBOX_USERINFO_URL : USERINFO_URL, auth: true };
  }
  return { method: 'GET', url: `${origin}${new URL(USERINFO_URL).pathname}`, auth: true };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function userOf(body: unknown): ConnectionIdentity['user'] {
  const info = (typeof body === 'object' && body !== null ? body : {}) as UserInfo;
  if (typeof info.sub !== 'string' || info.sub === '') return undefined;
  const email = typeof info.email === 'string' && info.email ? info.email : undefined;
  const name = [info.givenName, info.familyName].filter((part) => typeof part === 'string' && part.trim()).join(' ') || email;
  if (!name) return undefined;
  return { id: info.sub, name, ...(email ? { email } : {}) };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
