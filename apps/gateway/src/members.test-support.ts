import { DEFAULT_WORKSPACE } from '@portico/core';
import type { TestGateway } from './gateway.test-support.js';
import { SessionStore } from './routes/dashboard/session.js';

/** A member of the workspace signed in to the dashboard: the session the identity provider's sign-in makes. */
export interface SignedInMember {
  id: string;
  /** `portico_session=…`, for the Cookie header. */
  cookie: string;
  /** The CSRF token the dashboard's forms carry. */
  csrf: string;
}

/** Invites `email` as a member and signs them in (a session as a sign-in makes one), with the dashboard's CSRF token. */
export async function signedInMember(gateway: TestGateway, email: string, name: string): Promise<SignedInMember> {
  const { engine, store } = gateway.runtime;
  const record = await engine.members.invite(DEFAULT_WORKSPACE, { email, name, role: 'member' }, null);
  const { id } = await new SessionStore(store.sessions).create(record.id, DEFAULT_WORKSPACE);
  const cookie = `portico_session=${id}`;
  const page = await fetch(`${gateway.url}/dashboard/connections`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`the member's dashboard answered ${page.status}`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error('no CSRF token on the member’s dashboard');
  return { id: record.id, cookie, csrf };
}
