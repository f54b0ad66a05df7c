/**
 * The webhook subscription a plugin registered with its application for a workspace (pipeline/webhook-registrations.ts):
 * its id upstream (null until registered), the secret the application signs with (sealed, bound to workspace and
 * service), the SHA-256 of the one-time setup token its delivery URL carries until the application's handshake, its
 * expiry, and the lease of the instance registering or renewing it.
 */
export interface RegistrationRecord {
  workspaceId: string;
  service: string;
  upstreamId: string | null;
  secret: string | null;
  setupHash: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RegistrationTable {
  /** Adds a registration still to be made upstream, unless the workspace has one for the service; true when added. */
  add(workspaceId: string, service: string, at: string): Promise<boolean>;
  get(workspaceId: string, service: string): Promise<RegistrationRecord | undefined>;
  /** Writes what the application answered (or the setup token), if `owner` still holds the lease. */
  save(record: RegistrationRecord, owner: string): Promise<boolean>;
  /** Keeps the secret a handshake brought, while the setup token is still `setupHash`; spends the token. */
  takeHandshake(workspaceId: string, service: string, setupHash: string, secret: string, at: string): Promise<boolean>;
  delete(workspaceId: string, service: string): Promise<boolean>;
  /** Every workspace's registrations (re-encryption after a key rotation, the key count of `portico encryption`). */
  all(): Promise<RegistrationRecord[]>;
  /** Replaces a secret's ciphertext if it is still `expected` (compare-and-swap). */
  swapSecret(workspaceId: string, service: string, secret: string, expected: string): Promise<boolean>;
  /** Registrations not yet made upstream, or expiring before `before`, at most `limit`: the renewal loop's work. */
  due(before: string, limit: number): Promise<Array<{ workspaceId: string; service: string }>>;
  /** Takes the lease for `owner` until `until` when free, expired at `now`, or the owner's already (one instance at a time). */
  lease(workspaceId: string, service: string, owner: string, until: string, now: string): Promise<boolean>;
  release(workspaceId: string, service: string, owner: string): Promise<void>;
}
