import { MEMBER_ROLES, type MemberRole } from '@portico/core';

/** Signing members in with the firm's identity provider (OpenID Connect): what `PORTICO_OIDC_*` configure. */
export interface MemberSignInOptions {
  /** The provider's issuer; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only). */
  clientSecret?: string | undefined;
  /** The provider's name on the sign-in button ("Okta", "Google Workspace"). */
  name: string;
  /** The workspace that people provisioned from a group claim join, and whose membership is chosen first. */
  workspace: string;
  /** The claim that lists the person's groups (`groups`; Entra ID `roles`). */
  groupsClaim: string;
  /** Groups that make a member, by role; a person in none (and not invited) is refused. */
  roleGroups: ReadonlyArray<{ role: MemberRole; group: string }>;
}

/** The variables of members' sign-in with the firm's identity provider, as `portico env` lists them. */
export const MEMBER_SIGN_IN_VARIABLES = [
  {
    name: 'PORTICO_OIDC_ISSUER',
    default: '(none)',
    meaning:
      "The firm's OpenID Connect provider (Entra ID, Google Workspace, Okta, Keycloak): members sign in to the dashboard with it (docs/workspaces.md)",
  },
  { name: 'PORTICO_OIDC_CLIENT_ID', default: '(none)', meaning: "The gateway's client id at that provider" },
  {
    name: 'PORTICO_OIDC_CLIENT_SECRET',
    default: '(none: a public client)',
    meaning: "The gateway's client secret at that provider (or PORTICO_OIDC_CLIENT_SECRET_FILE)",
  },
  { name: 'PORTICO_OIDC_NAME', default: 'your identity provider', meaning: "The provider's name on the sign-in button" },
  {
    name: 'PORTICO_OIDC_WORKSPACE',
    default: 'default',
    meaning: 'The workspace that people provisioned from their groups join, and whose membership a sign-in chooses first',
  },
  { name: 'PORTICO_OIDC_GROUPS_CLAIM', default: 'groups', meaning: "The ID token claim that lists a person's groups (Entra ID: roles)" },
  {
    name: 'PORTICO_OIDC_ROLE_GROUPS',
    default: '(none: invitations only)',
    meaning:
      'Groups that make members, by role: owner=<group>,admin=<group>,member=<group> (any of them; a group may be repeated per role)',
  },
] as const;

const loopbackHttp = (url: URL) => url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);

/** PORTICO_OIDC_*: undefined when members' sign-in is off; a mistake is named in `problems`. */
export function memberSignInConfig(env: NodeJS.ProcessEnv, problems: string[]): MemberSignInOptions | undefined {
  const issuer = env.PORTICO_OIDC_ISSUER || undefined;
  const companions = MEMBER_SIGN_IN_VARIABLES.map((v) => v.name).filter((name) => name !== 'PORTICO_OIDC_ISSUER' && env[name]);
  if (!issuer) {
    if (companions.length > 0) problems.push(`${companions.join(', ')} need PORTICO_OIDC_ISSUER`);
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(issuer);
  } catch {}
  if (!url || (url.protocol !== 'https:' && !loopbackHttp(url)))
    problems.push(`PORTICO_OIDC_ISSUER must be an https URL (got "${issuer}")`);
  const clientId = env.PORTICO_OIDC_CLIENT_ID || '';
  if (!clientId) problems.push('PORTICO_OIDC_ISSUER needs PORTICO_OIDC_CLIENT_ID');
  const roleGroups: Array<{ role: MemberRole; group: string }> = [];
  for (const item of (env.PORTICO_OIDC_ROLE_GROUPS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [role, group] = item.split('=', 2).map((s) => s.trim());
    if (!role || !group || !MEMBER_ROLES.includes(role as MemberRole)) {
      problems.push(`PORTICO_OIDC_ROLE_GROUPS: "${item}" is not <role>=<group> with a role of ${MEMBER_ROLES.join(', ')}`);
      continue;
    }
    roleGroups.push({ role: role as MemberRole, group });
  }
  const workspace = env.PORTICO_OIDC_WORKSPACE || 'default';
  if (!/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/.test(workspace)) problems.push('PORTICO_OIDC_WORKSPACE must be a workspace id');
  return {
    issuer,
    clientId,
    clientSecret: env.PORTICO_OIDC_CLIENT_SECRET || undefined,
    name: (env.PORTICO_OIDC_NAME || 'your identity provider').slice(0, 60),
    workspace,
    groupsClaim: env.PORTICO_OIDC_GROUPS_CLAIM || 'groups',
    roleGroups,
  };
}
