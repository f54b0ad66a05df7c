import { type Engine, type Logger, type MemberRecord, type MemberRole, memberPrincipal, type Principal } from '@portico/core';
import * as oidc from 'openid-client';
import type { MemberSignInOptions } from '../../config/member-sign-in.js';

/** What a sign-in started: the provider's URL to send the browser to, and the value of the cookie that binds it. */
export interface SignInStart {
  url: string;
  cookie: string;
}

/** The browser-bound part of a sign-in in progress, kept in a short-lived HttpOnly cookie (nothing secret to others). */
interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  next: string | undefined;
}

/** A refusal the person reads on the sign-in page (never the provider's or the token's details). */
export class SignInRefused extends Error {}

const loopbackHttp = (url: URL) => url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
const RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

/**
 * The authorization code flow with PKCE, state and nonce, as `openid-client` runs it: discovery (cached; retried
 * after a failure), the provider's redirect back to `/dashboard/sign-in/callback`, the ID token checked by the
 * library. The person is then found among the members: by the provider's subject once bound, else by an invitation
 * to their verified email (which binds it), else by the groups claim (which provisions them in the configured
 * workspace with the role their groups map to).
 */
export class MemberSignIn {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    readonly options: MemberSignInOptions,
    private readonly engine: Engine,
    private readonly logger: Logger,
  ) {}

  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.options.issuer);
      const auth = this.options.clientSecret ? oidc.ClientSecretPost(this.options.clientSecret) : oidc.None();
      this.configuration = oidc
        .discovery(issuer, this.options.clientId, undefined, auth, {
          timeout: 5,
          ...(loopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .catch((error: unknown) => {
          this.configuration = undefined; // the next sign-in tries again
          throw error;
        });
    }
    return this.configuration;
  }

  async begin(redirectUri: string, next: string | undefined): Promise<SignInStart> {
    const config = await this.config();
    const pending: Pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      next,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, cookie: Buffer.from(JSON.stringify(pending)).toString('base64url') };
  }

  /** The provider sent the browser back: the member it signs in, and where to go next. */
  async complete(
    callbackUrl: URL,
    cookie: string | undefined,
  ): Promise<{ member: MemberRecord; principal: Principal; next: string | undefined }> {
    const pending = readPending(cookie);
    if (!pending) throw new SignInRefused('This sign-in was not started here, or took too long: sign in again.');
    if (callbackUrl.searchParams.get('error')) {
      this.logger.info({ error: callbackUrl.searchParams.get('error') }, 'identity provider refused the sign-in');
      throw new SignInRefused('The identity provider did not sign you in.');
    }
    let claims: Record<string, unknown>;
    try {
      const config = await this.config();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const id = (tokens.claims() ?? {}) as Record<string, unknown>;
      // Many providers keep email, name and groups out of the ID token (OpenID Connect Core §5.4): the UserInfo
      // endpoint has them, for the same subject (checked by the library); issuer and subject stay the ID token's.
      const info = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, String(id.sub)) : {};
      claims = { ...info, iss: id.iss, sub: id.sub };
      for (const [name, value] of Object.entries(id)) if (claims[name] === undefined) claims[name] = value;
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? { name: error.name, message: error.message } : String(error) },
        'sign-in with the identity provider failed',
      );
      throw new SignInRefused('The sign-in with the identity provider could not be completed: sign in again.');
    }
    const member = await this.memberOf(claims);
    return { member, principal: memberPrincipal(member), next: pending.next };
  }

  /** The membership the claims belong to, bound or provisioned as the options say; refused when there is none. */
  private async memberOf(claims: Record<string, unknown>): Promise<MemberRecord> {
    const members = this.engine.store.members;
    const issuer = String(claims.iss);
    const subject = String(claims.sub);
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
    const verified = claims.email_verified !== false; // providers that omit it (Entra ID) vouch for their directory
    const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;
    const role = this.roleFromGroups(claims[this.options.groupsClaim]);
    const at = new Date().toISOString();

    let found = await members.findBySubject(issuer, subject);
    if (found.length === 0 && email && verified) {
      // invitations to this email not yet bound to anyone: the person signing in takes them
      const invited = (await members.findByEmail(email)).filter((m) => m.issuer === null);
      for (const m of invited) await members.update({ ...m, issuer, subject });
      found = invited.map((m) => ({ ...m, issuer, subject }));
    }
    if (found.length === 0 && role && email && verified) {
      const created = await this.engine.members.invite(this.options.workspace, { email, name, role }, null);
      const provisioned: MemberRecord = { ...created, issuer, subject, source: 'group' };
      await members.update(provisioned);
      found = [provisioned];
      this.logger.info({ memberId: created.id, workspaceId: created.workspaceId, role }, 'member provisioned from the groups claim');
    }
    const member = found.find((m) => m.workspaceId === this.options.workspace) ?? found[0];
    if (!member) {
      throw new SignInRefused(
        email
          ? `${email} is not a member here. Ask an admin of your workspace to invite you.`
          : 'Your identity provider sent no email address, and you are not a member here.',
      );
    }
    // a member provisioned from groups follows their groups: out of every mapped group, out of the workspace
    let current = member;
    if (member.source === 'group') {
      if (!role) {
        await this.engine.members.remove(member.workspaceId, member.id, null);
        throw new SignInRefused('Your groups no longer give you access here. Ask an admin of your workspace.');
      }
      current = { ...member, role };
    }
    current = { ...current, name: name ?? current.name, lastSignInAt: at };
    await members.update(current);
    return current;
  }

  /** The highest role any of the person's groups maps to. */
  private roleFromGroups(value: unknown): MemberRole | undefined {
    const groups = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(' ') : [];
    let best: MemberRole | undefined;
    for (const { role, group } of this.options.roleGroups) {
      if (groups.includes(group) && (best === undefined || RANK[role] > RANK[best])) best = role;
    }
    return best;
  }
}

function readPending(cookie: string | undefined): Pending | undefined {
  if (!cookie || cookie.length > 4096) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Partial<Pending>;
    if (typeof value.state !== 'string' || typeof value.nonce !== 'string' || typeof value.verifier !== 'string') return undefined;
    const next = typeof value.next === 'string' && value.next.startsWith('/dashboard/authorize?') ? value.next : undefined;
    return { state: value.state, nonce: value.nonce, verifier: value.verifier, next };
  } catch {
    return undefined;
  }
}
