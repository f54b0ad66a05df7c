import { GatewayError } from '../errors.js';
import { type KeyScopes, mayWrite } from '../store/scopes.js';
import { type Principal, principalNoun } from './api-keys.js';

/**
 * One rule for powers: a principal (a key, a member, a grant, or a dashboard session, which acts as its key or member)
 * never creates, approves, edits or revokes anything wider than itself: keys, grants (consent), members, tool sets,
 * connections. "Wider" is measured on every narrowing a principal can have:
 * - services: a key limited to some services reaches only those;
 * - read-only, and writes per service: a principal grants no write it may not make itself;
 * - tool set: a key bound to a tool set grants only that tool set;
 * - operator: only an operator key makes or revokes operator keys (and manages workspaces);
 * - workspace: a non-operator key acts only in its own workspace (checked where the workspace is resolved).
 * A key it creates or revokes must lie within it on each of these; an integration's toggles, base URL, settings and
 * connection, and a tool set, govern every key of the workspace, so only a key not narrowed on that service (all its
 * operations, reads and writes, no tool set) may change them; a tool set may be edited only by a key bound to none.
 * The CLI runs with the database's own authority (the operator's) and is not held to it.
 */

/** Scopes for a new key: what the request asks, with what it leaves out inherited from the creator's own narrowing. */
export function scopesWithin(
  actor: Principal,
  asked: { admin?: boolean; operator?: boolean; services?: '*' | string[]; readOnly?: boolean; toolSet?: string | null },
): KeyScopes {
  const own = actor.scopes;
  const scopes: KeyScopes = {
    admin: asked.admin ?? false,
    services: asked.services ?? own.services,
    readOnly: asked.readOnly ?? own.readOnly,
  };
  if (asked.operator) scopes.operator = true;
  const toolSet = asked.toolSet === undefined ? own.toolSet : asked.toolSet;
  if (toolSet) scopes.toolSet = toolSet;
  assertKeyWithin(actor, scopes, 'create');
  return scopes;
}

/** Why a key with `scopes` is wider than `actor` (the first narrowing it escapes), or undefined when it lies within. */
export function widerThan(actor: Principal, scopes: KeyScopes): string | undefined {
  const own = actor.scopes;
  if (scopes.operator && !own.operator) return 'it is an operator key and yours is not';
  if (scopes.admin && !own.admin) return 'it is an admin key and yours is not';
  if (own.services !== '*') {
    if (scopes.services === '*') return `it reaches every service and yours only ${own.services.join(', ')}`;
    const outside = scopes.services.filter((s) => !(own.services as string[]).includes(s));
    if (outside.length > 0) return `it reaches ${outside.join(', ')}, outside your services (${own.services.join(', ')})`;
  }
  if (own.readOnly && !scopes.readOnly) return 'it may write and yours is read-only';
  if (!scopes.readOnly) {
    // what it may write to must be writable by the actor too, service by service
    if (scopes.services === '*' && scopes.writes === undefined) {
      if (own.writes !== undefined) return `it may write to every service and yours only to ${own.writes.join(', ') || 'none'}`;
    } else {
      const writable = scopes.writes ?? (scopes.services as string[]);
      const outside = writable.filter((service) => !mayWrite(own, service));
      if (outside.length > 0) return `it may write to ${outside.join(', ')}, which yours may not`;
    }
  }
  if (own.toolSet && scopes.toolSet !== own.toolSet) {
    return scopes.toolSet
      ? `it is bound to tool set ${scopes.toolSet} and yours to ${own.toolSet}`
      : `it has no tool set and yours is bound to ${own.toolSet}`;
  }
  return undefined;
}

/** Throws `forbidden` unless a key with `scopes` lies within `actor` (to create it or to revoke it). */
export function assertKeyWithin(actor: Principal, scopes: KeyScopes, verb: 'create' | 'revoke'): void {
  const why = widerThan(actor, scopes);
  if (why) throw new GatewayError('forbidden', `${principalNoun(actor)} may not ${verb} a key wider than itself: ${why}`);
}

/**
 * Throws `forbidden` unless `actor` may approve a grant with `scopes` (consent), or revoke one: within its own powers,
 * or, to revoke, the actor's own grant (a member ends what they allowed, whatever it reaches).
 */
export function assertGrantWithin(
  actor: Principal,
  grant: { scopes: KeyScopes; memberId?: string | null },
  verb: 'approve' | 'revoke',
): void {
  if (verb === 'revoke' && actor.memberId && grant.memberId === actor.memberId) return;
  if (verb === 'revoke' && !actor.scopes.admin) {
    throw new GatewayError('forbidden', `${principalNoun(actor)} may revoke only its own grants`);
  }
  const why = widerThan(actor, grant.scopes);
  if (why) throw new GatewayError('forbidden', `${principalNoun(actor)} may not ${verb} a grant wider than itself: ${why}`);
}

/** Why `actor` may not change what governs every key on `service` (toggles, base URL, settings, connection), or undefined. */
export function serviceChangeProblem(actor: Principal, service: string): string | undefined {
  const own = actor.scopes;
  if (own.services !== '*' && !own.services.includes(service)) return `it is limited to ${own.services.join(', ')}`;
  if (own.readOnly) return 'it is read-only';
  if (own.toolSet) return `it is bound to tool set ${own.toolSet}`;
  return undefined;
}

/** Throws `forbidden` unless `actor` may change `service`'s integration settings or connection. */
export function assertMayChangeService(actor: Principal, service: string): void {
  const why = serviceChangeProblem(actor, service);
  if (why) throw new GatewayError('forbidden', `${principalNoun(actor)} may not change ${service}'s settings or connection: ${why}`);
}

/** Throws `forbidden` unless `actor` may create, replace or delete tool sets: a key not narrowed in any way. */
export function assertMayEditToolSets(actor: Principal): void {
  const own = actor.scopes;
  const why = own.toolSet
    ? `it is bound to tool set ${own.toolSet}`
    : own.services !== '*'
      ? `it is limited to ${own.services.join(', ')}`
      : own.readOnly
        ? 'it is read-only'
        : undefined;
  if (why)
    throw new GatewayError(
      'forbidden',
      `${principalNoun(actor)} may not edit tool sets: ${why} (a tool set may reach every service, reads and writes)`,
    );
}

/**
 * Throws `forbidden` unless `actor` may manage event subscriptions: a subscriber receives every application's events,
 * so only a key narrowed in no way (no services, tool set or reading) manages them (docs/events.md, "Subscriptions").
 */
export function assertMaySubscribe(actor: Principal): void {
  const own = actor.scopes;
  const why =
    own.services !== '*'
      ? `it is limited to ${own.services.join(', ')}`
      : own.toolSet
        ? `it is bound to tool set ${own.toolSet}`
        : own.readOnly
          ? 'it is read-only'
          : undefined;
  if (why) throw new GatewayError('forbidden', `${principalNoun(actor)} may not manage event subscriptions: ${why}`);
}
