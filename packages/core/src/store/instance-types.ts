/**
 * A running gateway instance, as it reports itself every few seconds (its heartbeat): which encryption keys it can
 * decrypt with, so that no instance seals a credential with a key another live instance lacks
 * (connections/key-agreement.ts; the SQL: store/instances.ts). Key ids are fingerprints (the first 8 hex digits of the key's SHA-256), not keys.
 */
export interface InstanceRecord {
  /** Random per process start. */
  id: string;
  host: string;
  pid: number;
  /** Ids of the keys it decrypts with, its configured active key first. */
  keyIds: string[];
  /** The key file it re-reads when a ciphertext names a key it lacks (`host` and path), or null (keys from the environment). */
  keyFile: string | null;
  startedAt: string;
  seenAt: string;
}

export interface InstanceTable {
  /** Inserts or refreshes the instance's row. */
  beat(record: InstanceRecord): Promise<void>;
  /** Instances seen at or after `since`, oldest start first. */
  live(since: string): Promise<InstanceRecord[]>;
  /** Drops one instance (it stopped), or every instance last seen before `before` (`{ before }`). */
  remove(target: string | { before: string }): Promise<number>;
  /** The encryption probe: a value sealed with the key the cluster seals with (connections/key-agreement.ts); undefined before the first. */
  probe(): Promise<string | undefined>;
  /** Writes the probe if it is still `previous` (undefined: only if there is none); false when another process changed it first. */
  sealProbe(sealed: string, previous: string | undefined): Promise<boolean>;
}
