/**
 * Members: the people of a workspace, who sign in to the dashboard with the firm's identity provider (OpenID Connect)
 * and consent for their own assistants. A member is a principal like an API key, with a role.
 */

/** owner and admin manage the workspace (an owner also its admins); a member calls operations and manages only their own grants. */
export type MemberRole = 'owner' | 'admin' | 'member';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

/** How a member narrows the role's powers (a custom role): services, read-only, a tool set. Empty: none. */
export interface MemberNarrowing {
  services?: string[];
  readOnly?: boolean;
  toolSet?: string;
}

export interface MemberRecord {
  /** `mem_…`: also the person's id in grants, sessions and audit records. */
  id: string;
  workspaceId: string;
  /** Lower-cased; unique in a workspace. The invitation is by email; the first sign-in binds issuer and subject. */
  email: string;
  name: string | null;
  role: MemberRole;
  narrowing: MemberNarrowing;
  /** The identity provider's issuer and subject, bound at the first sign-in (null until then). */
  issuer: string | null;
  subject: string | null;
  /** `invite`: added by an admin; `group`: provisioned at sign-in from the provider's group claim. */
  source: 'invite' | 'group';
  createdAt: string;
  /** The key or member that invited them (null: the CLI or a group claim). */
  createdBy: string | null;
  lastSignInAt: string | null;
}

export interface MemberTable {
  /** Adds a member; false when the workspace already has one with this email. */
  create(record: MemberRecord): Promise<boolean>;
  get(workspaceId: string, id: string): Promise<MemberRecord | undefined>;
  list(workspaceId: string): Promise<MemberRecord[]>;
  /** Every membership of a person, by the provider's issuer and subject, oldest first. */
  findBySubject(issuer: string, subject: string): Promise<MemberRecord[]>;
  /** Every membership with this (lower-cased) email, oldest first. */
  findByEmail(email: string): Promise<MemberRecord[]>;
  update(record: MemberRecord): Promise<boolean>;
  /** Removes a member: their grants are revoked and their dashboard sessions end with them. */
  remove(workspaceId: string, id: string, at: string): Promise<boolean>;
}
