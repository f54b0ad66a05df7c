import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors.js';
import { MEMBER_ROLES, type MemberNarrowing, type MemberRecord, type MemberRole } from '../store/member-types.js';
import type { KeyScopes } from '../store/scopes.js';
import type { Store } from '../store/types.js';
import { type Principal, principalNoun } from './api-keys.js';
import { widerThan } from './powers.js';

/** A member's powers as scopes: the role's (admin for owners and admins), narrowed as the member record says. */
export function memberScopes(member: Pick<MemberRecord, 'role' | 'narrowing'>): KeyScopes {
  const { narrowing } = member;
  const scopes: KeyScopes = {
    admin: member.role !== 'member',
    services: narrowing.services ?? '*',
    readOnly: narrowing.readOnly ?? false,
  };
  if (narrowing.toolSet) scopes.toolSet = narrowing.toolSet;
  return scopes;
}

/** The principal of a signed-in member (a dashboard session). */
export function memberPrincipal(member: MemberRecord): Principal {
  return { keyId: member.id, workspaceId: member.workspaceId, scopes: memberScopes(member), memberId: member.id, via: 'member' };
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;
const RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

/** The role an actor has, for ranking: a member's own, an operator key owner-like, an admin key admin, else member. */
function rankOf(actor: Principal, role?: MemberRole): number {
  if (role) return RANK[role];
  if (actor.scopes.operator) return RANK.owner;
  return actor.scopes.admin ? RANK.admin : RANK.member;
}

export interface MemberInput {
  email: string;
  name?: string | null;
  role: MemberRole;
  narrowing?: MemberNarrowing;
}

/**
 * The people of workspaces. Whoever adds, changes or removes a member acts within their own powers, as for keys and
 * grants (access/powers.ts): an admin adds members and admins no wider than itself; only an owner (or an operator
 * key, or the CLI) makes or removes owners.
 */
export class Members {
  /**
   * Told before a member is removed: what they connected of their own goes with them (the engine disconnects their
   * personal connections, revoking each token upstream where the provider allows).
   */
  beforeRemove: ((workspaceId: string, memberId: string) => Promise<unknown>) | undefined;

  constructor(private readonly store: Store) {}

  /** Why `actor` may not give or take away a member with this role and powers, or undefined. */
  problem(actor: Principal, target: Pick<MemberRecord, 'role' | 'narrowing'>, actorRole?: MemberRole): string | undefined {
    if (!actor.scopes.admin) return 'only admins manage members';
    if (rankOf(actor, actorRole) < RANK[target.role]) return `a ${target.role} is made or removed only by an owner`;
    return widerThan(actor, memberScopes(target));
  }

  async invite(workspaceId: string, input: MemberInput, actor: Principal | null, actorRole?: MemberRole): Promise<MemberRecord> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new GatewayError('bad_request', 'email must be an email address');
    if (!MEMBER_ROLES.includes(input.role)) throw new GatewayError('bad_request', `role must be one of ${MEMBER_ROLES.join(', ')}`);
    const narrowing = cleanNarrowing(input.narrowing ?? {});
    const record: MemberRecord = {
      id: `mem_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      workspaceId,
      email,
      name: input.name?.trim().slice(0, 200) || null,
      role: input.role,
      narrowing,
      issuer: null,
      subject: null,
      source: 'invite',
      createdAt: new Date().toISOString(),
      createdBy: actor?.keyId ?? null,
      lastSignInAt: null,
    };
    if (actor) this.assertMay(actor, record, 'add', actorRole);
    if (narrowing.toolSet && !(await this.store.getToolSet(workspaceId, narrowing.toolSet))) {
      throw new GatewayError('bad_request', `No tool set ${narrowing.toolSet} in this workspace`);
    }
    if (!(await this.store.members.create(record))) throw new GatewayError('conflict', `${email} is already a member of this workspace`);
    return record;
  }

  async remove(workspaceId: string, id: string, actor: Principal | null, actorRole?: MemberRole): Promise<MemberRecord> {
    const member = await this.store.members.get(workspaceId, id);
    if (!member) throw new GatewayError('not_found', 'No member with this id in this workspace');
    if (actor) this.assertMay(actor, member, 'remove', actorRole);
    await this.beforeRemove?.(workspaceId, id);
    await this.store.members.remove(workspaceId, id, new Date().toISOString());
    return member;
  }

  private assertMay(actor: Principal, target: MemberRecord, verb: 'add' | 'remove', actorRole?: MemberRole): void {
    const why = this.problem(actor, target, actorRole);
    if (why) throw new GatewayError('forbidden', `${principalNoun(actor)} may not ${verb} this member: ${why}`);
  }
}

function cleanNarrowing(narrowing: MemberNarrowing): MemberNarrowing {
  const out: MemberNarrowing = {};
  if (narrowing.services !== undefined) {
    if (!Array.isArray(narrowing.services) || narrowing.services.some((s) => typeof s !== 'string')) {
      throw new GatewayError('bad_request', 'services must be a list of service keys');
    }
    out.services = [...new Set(narrowing.services)];
  }
  if (narrowing.readOnly) out.readOnly = true;
  if (narrowing.toolSet) out.toolSet = String(narrowing.toolSet);
  return out;
}
