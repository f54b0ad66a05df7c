/**
 * Inbound events, as the store keeps them: each normalised event once per workspace, service and upstream id; the
 * replay keys of recent deliveries; and each workspace's signing secret per service, sealed like credentials.
 */

/** One stored event. `seq` orders a workspace's events as they were received; readers page with it (the cursor). */
export interface EventRecord {
  seq: number;
  /** `evt_…`: the gateway's id of the event. */
  id: string;
  workspaceId: string;
  service: string;
  /** `call.completed`, `message.posted`… (contract/events.ts). */
  type: string;
  /** The application's id of the event: unique within workspace and service. */
  upstreamId: string;
  recordId: string | null;
  occurredAt: string | null;
  receivedAt: string;
  payload: unknown;
}

/** A page of a workspace's events, oldest first (or newest first), after the cursor `after` (a `seq`; 0 from the start). */
export interface EventQuery {
  workspaceId: string;
  after: number;
  /** Only these services (the caller's); `*`: any. */
  services: readonly string[] | '*';
  service?: string;
  type?: string;
  limit: number;
  /** Newest first (the dashboard's order) instead of oldest first. */
  newestFirst?: boolean;
  /** Only the events received before this `seq` (with `newestFirst`, the cursor of an older page). */
  before?: number;
}

/** A workspace's signing secret for one service's webhooks: `secret` is a ciphertext, bound to workspace and service. */
export interface EventSecretRecord {
  workspaceId: string;
  service: string;
  secret: string;
  createdAt: string;
  updatedAt: string;
}

export interface EventTable {
  getSecret(workspaceId: string, service: string): Promise<EventSecretRecord | undefined>;
  /** Which services of the workspace have a secret (never the secrets). */
  listSecretServices(workspaceId: string): Promise<string[]>;
  putSecret(record: EventSecretRecord): Promise<void>;
  /** Every workspace's secrets (for re-encryption after a key rotation). */
  allSecrets(): Promise<EventSecretRecord[]>;
  /** Replaces a secret's ciphertext if it is still `expected` (compare-and-swap); false when it changed meanwhile. */
  swapSecret(record: EventSecretRecord, expected: string): Promise<boolean>;
  deleteSecret(workspaceId: string, service: string): Promise<boolean>;
  /**
   * Remembers a delivery's replay key until `expiresAt`, forgetting the keys expired at `now` first. False when the
   * key is remembered already: the delivery is a replay. Atomic across the processes sharing the database.
   */
  remember(workspaceId: string, service: string, key: string, expiresAt: string, now: string): Promise<boolean>;
  /** Forgets a replay key: its delivery could not be stored, and the application's retry must be accepted. */
  forget(workspaceId: string, service: string, key: string): Promise<void>;
  /** Stores the events whose upstream id is new to their workspace and service; returns those stored, with their `seq`. */
  append(records: readonly Omit<EventRecord, 'seq'>[]): Promise<EventRecord[]>;
  list(query: EventQuery): Promise<EventRecord[]>;
  /** Deletes, of the workspace's `limit` oldest events, those received before `before`; how many it deleted. */
  prune(workspaceId: string, before: string, limit: number): Promise<number>;
}
