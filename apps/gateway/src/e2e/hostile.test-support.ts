import type { TestGateway } from '../gateway.test-support.js';

/** Test-only helpers of the attack tests (hostile-*.test.ts): a tenant with its own admin key, and a dashboard browser. */

/** A REST request with a key: status, error code (if any) and body. */
export async function callWith(gateway: TestGateway, key: string, method: string, path: string, body?: unknown) {
  const res = await gateway.rest(method, path, { key, ...(body === undefined ? {} : { body }) });
  return { status: res.status, code: (res.body as { code?: string } | undefined)?.code, body: res.body };
}

/** Creates workspace `id` with the operator key and a (non-operator) admin key in it; returns that key. */
export async function tenantAdmin(
  gateway: TestGateway,
  id: string,
  key: Record<string, unknown> = {},
): Promise<{ key: string; id: string }> {
  const created = await callWith(gateway, gateway.key, 'POST', '/api/admin/workspaces', { id, name: `Firm ${id}` });
  if (created.status !== 201) throw new Error(`workspace ${id}: ${created.status} ${JSON.stringify(created.body)}`);
  const admin = await callWith(gateway, gateway.key, 'POST', `/api/admin/workspaces/${id}/keys`, {
    name: `${id}-admin`,
    admin: true,
    ...key,
  });
  if (admin.status !== 201) throw new Error(`admin key of ${id}: ${admin.status} ${JSON.stringify(admin.body)}`);
  return admin.body as { key: string; id: string };
}

/** A signed-in dashboard browser: its cookie and CSRF token, and form posts with them. */
export async function dashboardAs(gateway: TestGateway, key: string) {
  const signIn = await fetch(`${gateway.url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key }).toString(),
  });
  if (signIn.status !== 303) throw new Error(`sign-in answered ${signIn.status}`);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const get = (path: string) => fetch(`${gateway.url}${path}`, { redirect: 'manual', headers: { cookie } });
  const page = await (await get('/dashboard/keys')).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF token on the keys page');
  const post = (path: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams({ _csrf: csrf });
    for (const [name, value] of Object.entries(form)) for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    return fetch(`${gateway.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: body.toString(),
    });
  };
  return { cookie, csrf, get, post };
}
