import { type KeyScopes, mayWrite } from '../store/scopes.js';

/**
 * OAuth scopes of the built-in authorization server: `<service>:read` and `<service>:write` for each installed
 * service (write includes read). Nothing admin can be asked for: a grant is never admin, by construction. A grant's
 * scopes are kept as KeyScopes (services, read-only, writes, tool set), so that every check of keys applies to
 * grants unchanged; these functions translate between the two.
 */

/** Every scope a client may ask for, for `scopes_supported` of both metadata documents. */
export function supportedScopes(services: readonly string[]): string[] {
  return services.flatMap((service) => [`${service}:read`, `${service}:write`]);
}

/** What a `scope` parameter asks for, per service: `read` or `write`. Unknown scopes are left out (RFC 6749 §3.3). */
export function requestedScopes(scope: string | undefined, services: readonly string[]): Map<string, 'read' | 'write'> {
  const asked = new Map<string, 'read' | 'write'>();
  for (const item of (scope ?? '').split(' ')) {
    const match = /^([a-z0-9_-]+):(read|write)$/.exec(item);
    if (!match || !services.includes(match[1] as string)) continue;
    const [, service, access] = match as unknown as [string, string, 'read' | 'write'];
    if (access === 'write' || !asked.has(service)) asked.set(service, access);
  }
  return asked;
}

/** A grant's scopes as the scope string of a token response: read for every service, write where it may write. */
export function scopeString(scopes: KeyScopes, services: readonly string[]): string {
  const reach = scopes.services === '*' ? services : services.filter((s) => (scopes.services as string[]).includes(s));
  return reach.flatMap((service) => (mayWrite(scopes, service) ? [`${service}:read`, `${service}:write`] : [`${service}:read`])).join(' ');
}

/** KeyScopes from per-service choices: the services chosen, read-only when none writes, else the ones that write. */
export function grantScopes(choices: ReadonlyMap<string, 'read' | 'write'>, toolSet: string | null): KeyScopes {
  const services = [...choices.keys()];
  const writes = services.filter((service) => choices.get(service) === 'write');
  const scopes: KeyScopes = { admin: false, services, readOnly: writes.length === 0 };
  if (writes.length > 0 && writes.length < services.length) scopes.writes = writes;
  if (toolSet) scopes.toolSet = toolSet;
  return scopes;
}

/**
 * The scope a step-up asks for (RFC 6750 §3.1, the MCP authorization specification's `insufficient_scope`): what the
 * grant has, and `needed` on `service` besides, so that the client's new authorization asks for all of it at once.
 */
export function stepUpScope(current: KeyScopes, service: string, needed: 'read' | 'write', services: readonly string[]): string {
  const choices = new Map<string, 'read' | 'write'>();
  for (const s of services) {
    const reaches = current.services === '*' || current.services.includes(s);
    if (reaches) choices.set(s, mayWrite(current, s) ? 'write' : 'read');
  }
  if (needed === 'write' || !choices.has(service)) choices.set(service, needed);
  return scopeString(grantScopes(choices, null), services);
}
