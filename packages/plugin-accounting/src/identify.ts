import type { ConnectionIdentity, IdentifyClient } from '@portico/core/plugin';
import { companyGet, companyPath } from './upstream.js';

/** The QuickBooks company (realm) the connection reads (`/companyinfo/<realm id>`). */
export async function identify(client: IdentifyClient, connection: Readonly<Record<string, unknown>>): Promise<ConnectionIdentity> {
  const company = companyPath(connection);
  const realm = company.slice(company.lastIndexOf('/') + 1);
  const response = await client.send(companyGet(connection, {}, `/companyinfo/${realm}`));
  const info = (response.body as { CompanyInfo?: { CompanyName?: unknown; LegalName?: unknown } } | undefined)?.CompanyInfo;
  const name = info?.CompanyName ?? info?.LegalName;
  return typeof name === 'string' ? { account: { id: realm, name } } : {};
}
