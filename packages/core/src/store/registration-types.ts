/** Which registration: a workspace's, of a service, for one topic the plugin declares (a Clio model: `contact`). */
export interface RegistrationKey {
  workspaceId: string;
  service: string;
  topic: string;
}

/**
 * A webhook subscription a plugin registered with its application for a workspace and topic
 * (pipeline/webhook-registrations.ts): its id upstream (null until registered), the secret the application signs with
 * (sealed, bound to workspace, service and topic), the SHA-256 of the one-time setup token its delivery URL carries until the application's handshake, its
 * expiry, and the lease of the instance registering or renewing it.
 */
export interface RegistrationRecord extends RegistrationKey {
  upstreamId: string | null;
  secret: string | null;
  setupHash: string | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RegistrationTable {
  /** Adds a registration still to be made upstream, unless the workspace has one for the service and topic; true when added. */
  add(key: RegistrationKey, at: string): Promise<boolean>;
  get(key: RegistrationKey): Promise<RegistrationRecord | undefined>;
  /** The workspace's registrations of a service, every topic, by topic. */
  list(workspaceId: string, service: string): Promise<RegistrationRecord[]>;
  /** Writes what the application answered (or the setup token), if `owner` still holds the lease. */
  save(record: RegistrationRecord, owner: string): Promise<boolean>;
  /** Keeps the secret a handshake brought, while the setup token is still `setupHash`; spends the token. */
  takeHandshake(key: RegistrationKey, setupHash: string, secret: string, at: string): Promise<boolean>;
  delete(key: RegistrationKey): Promise<boolean>;
  /** Every workspace's registrations (re-encryption after a key rotation, the key count of `portico encryption`). */
  all(): Promise<RegistrationRecord[]>;
  /** Replaces a secret's ciphertext if it is still `expected` (compare-and-swap). */
  swapSecret(key: RegistrationKey, secret: string, expected: string): Promise<boolean>;
  /** Registrations not yet made upstream, or expiring before `before`, at most `limit`: the renewal loop's work. */
  due(before: string, limit: number): Promise<RegistrationKey[]>;
  /** Takes the lease for `owner` until `until` when free, expired at `now`, or the owner's already (one instance at a time). */
  lease(key: RegistrationKey, owner: string, until: string, now: string): Promise<boolean>;
  release(key: RegistrationKey, owner: string): Promise<void>;
}
