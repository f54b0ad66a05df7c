import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FIRM, FIRM_PEOPLE, firmPerson } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxedGateway, stopSandboxedGateway, type TestGateway } from '../gateway.test-support.js';

let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  ({ gateway, client } = await startSandboxedGateway());
});
afterAll(async () => {
  await stopSandboxedGateway({ gateway, client });
});

interface Listed {
  connections: Array<{
    service: string;
    status: string;
    account?: Record<string, unknown>;
    acting_as?: { account?: { id: string; name: string }; user?: { id: string; name: string; email?: string } };
  }>;
}

const partner = FIRM_PEOPLE[0] as (typeof FIRM_PEOPLE)[number];

describe('whom each connection acts as', () => {
  it('list_connections names the account and user of every sandboxed service, as its application answered', async () => {
    const result = await client.callTool({ name: 'list_connections', arguments: {} });
    expect(result.isError).toBeFalsy();
    const listed = result.structuredContent as unknown as Listed;
    const actingAs = Object.fromEntries(listed.connections.map((c) => [c.service, c.acting_as]));
    expect(Object.keys(actingAs).sort()).toEqual(['callrail', 'clio', 'lawmatics', 'notion', 'quickbooks', 'slack']);
    // Clio and Lawmatics: the firm's managing partner, whose token the shared connection holds
    expect(actingAs.clio?.user).toMatchObject({ name: partner.name, email: partner.email });
    expect(actingAs.lawmatics?.user).toMatchObject({ name: partner.name, email: partner.email });
    // Notion and Slack: the Portico bot, installed in the firm's workspace
    expect(actingAs.notion).toMatchObject({ user: { name: 'Portico' }, account: { name: FIRM.name } });
    expect(actingAs.slack).toMatchObject({ user: { name: 'Portico' }, account: { name: FIRM.name } });
    // QuickBooks: the company (realm) the connection reads, and the partner whose token it is (Intuit's userinfo);
    // CallRail: the account its key reaches, and the user whose email was saved with the key (its API has no who-am-I)
    const realm = String(gateway.sandboxes.quickbooks?.connection?.realmId);
    expect(actingAs.quickbooks?.account?.id).toBe(realm);
    expect(actingAs.quickbooks?.account?.name).toMatch(/\S/);
    expect(actingAs.quickbooks?.user).toMatchObject({ name: partner.name, email: partner.email });
    expect(actingAs.callrail?.account?.name).toMatch(/\S/);
    const intake = firmPerson('intake');
    expect(actingAs.callrail?.user).toMatchObject({ name: intake.name, email: intake.email });
    // the facts stored at connect time stay under `account`; whom it acts as is not repeated there
    for (const connection of listed.connections) expect(connection.account).not.toHaveProperty('acting_as');
  });

  it('GET /api/v1/connections says the same', async () => {
    const mcp = (await client.callTool({ name: 'list_connections', arguments: {} })).structuredContent;
    const rest = await gateway.rest('GET', '/api/v1/connections');
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(mcp);
  });

  it('the dashboard shows it on each integration card and on its configure page', async () => {
    const signIn = await fetch(`${gateway.url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: gateway.key }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await (await fetch(`${gateway.url}/dashboard/integrations`, { headers: { cookie } })).text();
    const card = (service: string) => page.slice(page.indexOf(`data-service="${service}"`)).split('</section>')[0] ?? '';
    expect(card('clio')).toContain(`Acting as ${partner.name} &lt;${partner.email}&gt;`);
    expect(card('slack')).toContain(`Acting as Portico · ${FIRM.name.replace('&', '&amp;')}`);
    const configure = await (await fetch(`${gateway.url}/dashboard/integrations/lawmatics`, { headers: { cookie } })).text();
    expect(configure).toMatch(new RegExp(`<dt>Acting as</dt><dd>${partner.name} &lt;${partner.email}&gt;</dd>`));
  });
});
