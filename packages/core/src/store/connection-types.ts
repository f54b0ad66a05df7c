// A workspace's stored connections to applications, shared and personal, and whose a person's call uses.

/**
 * Whose upstream account a member's call acts as: the workspace's `shared` connection always, the member's own
 * (`personal`: none is a tool error saying how to connect one), or the member's own where they connected one and else
 * the shared one (`personal_else_shared`). A call made with an API key always uses the shared connection.
 */
export type ConnectionPolicy = 'shared' | 'personal' | 'personal_else_shared';

export const CONNECTION_POLICIES: readonly ConnectionPolicy[] = ['shared', 'personal', 'personal_else_shared'];

/** What an integration without a policy of its own does: nothing changes until a member connects their own account. */
export const DEFAULT_CONNECTION_POLICY: ConnectionPolicy = 'personal_else_shared';

export type ConnectionStatus = 'active' | 'needs_reconnect';

export interface ConnectionRecord {
  workspaceId: string;
  service: string;
  /** The member whose own account this is (a personal connection); null: the workspace's shared connection. */
  memberId?: string | null;
  /** `token` (pasted by an operator) or `oauth2`. */
  kind: 'token' | 'oauth2';
  /** Encrypted credentials (see Encryptor); never plaintext. */
  secret: string;
  /** Non-secret facts: QuickBooks realm id, Clio region, the account's name… */
  meta: Record<string, unknown>;
  status: ConnectionStatus;
  /** When the access token expires, if it does. */
  expiresAt: string | null;
  /** Incremented on every write: lets several instances detect concurrent refreshes. */
  version: number;
  createdAt: string;
  updatedAt: string;
}
