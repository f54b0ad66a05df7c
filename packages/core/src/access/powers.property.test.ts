import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grantScopes } from '../authorization/scopes.js';
import { MEMBER_ROLES, type MemberRole } from '../store/member-types.js';
import type { KeyScopes } from '../store/scopes.js';
import type { Principal } from './api-keys.js';
import { memberScopes } from './members.js';
import { assertGrantWithin, widerThan } from './powers.js';

/**
 * No principal — an API key, a member, an OAuth grant — can create, approve or revoke anything wider than itself, over
 * random scopes. "Wider" is written out here independently of powers.ts, as what a holder can actually do: call an
 * operation of a service that reads or writes, within a tool set, as admin or operator. The gateway's check must agree
 * with it both ways: nothing wider passes, and nothing within is refused.
 */
const SERVICES = ['clio', 'notion', 'slack'];
const RUNS = 2_000;

const scopesArb: fc.Arbitrary<KeyScopes> = fc
  .record({
    admin: fc.boolean(),
    operator: fc.boolean(),
    services: fc.oneof(fc.constant('*' as const), fc.subarray(SERVICES)),
    readOnly: fc.boolean(),
    writes: fc.option(fc.subarray(SERVICES), { nil: undefined }),
    toolSet: fc.constantFrom(null, 'intake', 'billing'),
  })
  .map((s) => {
    const scopes: KeyScopes = { admin: s.admin, services: s.services, readOnly: s.readOnly, toolSet: s.toolSet };
    if (s.operator && s.admin) scopes.operator = true;
    // as grants store them: only services it reaches, and a grant that writes nowhere is read-only
    if (s.writes !== undefined && !s.readOnly) {
      const writes = s.services === '*' ? s.writes : s.writes.filter((w) => (s.services as string[]).includes(w));
      if (writes.length === 0) scopes.readOnly = true;
      else scopes.writes = writes;
    }
    return scopes;
  });

/** What a holder of `s` can do on `service`: nothing, read, or read and write. */
function can(s: KeyScopes, service: string, access: 'read' | 'write'): boolean {
  const reaches = s.services === '*' || s.services.includes(service);
  if (!reaches) return false;
  if (access === 'read') return true;
  return !s.readOnly && (s.writes === undefined || s.writes.includes(service));
}

/** The independent rule: everything `target` can do, `actor` can do; a tool set binds both alike. */
function within(actor: KeyScopes, target: KeyScopes): boolean {
  if (target.operator && !actor.operator) return false;
  if (target.admin && !actor.admin) return false;
  if (actor.toolSet && target.toolSet !== actor.toolSet) return false;
  // a read-only holder hands out nothing that is not read-only, even one that reaches no service yet
  if (actor.readOnly && !target.readOnly) return false;
  // "every service" is more than any list: a key limited to all three known services still reaches fewer than '*'
  if (target.services === '*' && actor.services !== '*') return false;
  const targetWritesAll = target.services === '*' && target.writes === undefined && !target.readOnly;
  const actorWritesAll = actor.services === '*' && actor.writes === undefined && !actor.readOnly;
  if (targetWritesAll && !actorWritesAll) return false;
  return SERVICES.every((service) =>
    (['read', 'write'] as const).every((access) => !can(target, service, access) || can(actor, service, access)),
  );
}

const principal = (scopes: KeyScopes, memberId?: string): Principal => ({
  keyId: 'key_actor',
  workspaceId: 'default',
  scopes,
  ...(memberId ? { memberId, via: 'member' as const } : {}),
});

describe('one rule for powers, over random scopes', () => {
  it('a key creates a key, or approves a grant, exactly when it lies within the creator', () => {
    fc.assert(
      fc.property(scopesArb, scopesArb, (actor, target) => {
        const allowed = widerThan(principal(actor), target) === undefined;
        expect(allowed).toBe(within(actor, target));
        const grant = { ...target, admin: false, operator: false };
        let approved = true;
        try {
          assertGrantWithin(principal(actor), { scopes: grant }, 'approve');
        } catch {
          approved = false;
        }
        expect(approved).toBe(within(actor, grant));
      }),
      { numRuns: RUNS, seed: 20261129 },
    );
  });

  it('a member consents, from per-service choices, to nothing they may not do themselves', () => {
    const choices = fc.dictionary(fc.constantFrom(...SERVICES), fc.constantFrom('read' as const, 'write' as const), { minKeys: 1 });
    const member = fc.record({
      role: fc.constantFrom(...MEMBER_ROLES),
      services: fc.option(fc.subarray(SERVICES, { minLength: 1 }), { nil: undefined }),
      readOnly: fc.boolean(),
    });
    fc.assert(
      fc.property(member, choices, fc.constantFrom(null, 'intake'), (m, chosen, toolSet) => {
        const own = memberScopes({
          role: m.role as MemberRole,
          narrowing: { ...(m.services ? { services: m.services } : {}), readOnly: m.readOnly },
        });
        const scopes = grantScopes(new Map(Object.entries(chosen)), toolSet);
        let approved = true;
        try {
          assertGrantWithin(principal(own, 'mem_1'), { scopes, memberId: 'mem_1' }, 'approve');
        } catch {
          approved = false;
        }
        expect(approved).toBe(within(own, scopes));
      }),
      { numRuns: RUNS, seed: 20261129 },
    );
  });

  it('a grant is revoked by its own member whatever it reaches, by an admin only within the admin, by no one else', () => {
    fc.assert(
      fc.property(scopesArb, scopesArb, fc.boolean(), (actor, target, own) => {
        const grant = { scopes: { ...target, admin: false }, memberId: own ? 'mem_1' : 'mem_2' };
        let revoked = true;
        try {
          assertGrantWithin(principal(actor, 'mem_1'), grant, 'revoke');
        } catch {
          revoked = false;
        }
        expect(revoked).toBe(own || (actor.admin && within(actor, grant.scopes)));
      }),
      { numRuns: RUNS, seed: 20261129 },
    );
  });
});
