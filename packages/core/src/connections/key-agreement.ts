import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { errorSummary } from '../errors.js';
import type { Logger } from '../logger.js';
import type { InstanceRecord, Store } from '../store/types.js';
import { Encryptor } from './crypto.js';
import type { KeyRing } from './key-ring.js';

/** How often a serving instance reports its keys, by default; it counts as live for three periods after. */
export const HEARTBEAT_MS = 10_000;
/** Rows of instances not seen for this long are deleted (they crashed or were killed). */
const FORGET_MS = 24 * 3600_000;

export interface KeyAgreementView {
  /** The key new secrets are sealed with: the configured active key, or the newest one every live instance knows. */
  sealing: string;
  /** The configured active key. */
  active: string;
  /** Live instances (this one included when it serves). */
  instances: InstanceRecord[];
  /** Live instances that cannot decrypt with the configured active key. */
  lacking: InstanceRecord[];
}

/** What the encryption probe holds, sealed, and the associated data it is sealed with. */
const PROBE_TEXT = 'portico encryption probe';
const PROBE_AAD = 'portico:encryption-probe';

/** Whether this process can open what the cluster sealed: `ok`, or the key id it lacks (never a key). */
export type ProbeCheck = { ok: true } | { ok: false; keyId: string | undefined; reason: string };

/**
 * The two-phase key rotation, enforced: every serving instance reports (heartbeats) the keys it decrypts with in
 * the store, and every process seals new secrets with its configured active key only once each live instance can
 * decrypt with it — until then with the newest key of its ring that all of them know. So an instance restarted with
 * a new key (and the old one as a previous key) keeps sealing with the old key until the last instance knows the new
 * one, and the key is promoted by itself; `portico encryption rotate` refuses to re-encrypt while an instance lacks it.
 * An instance that re-reads the same key file on the same host counts as knowing every key of that file.
 */
export class KeyAgreement {
  private readonly id = randomUUID();
  private readonly host = hostname();
  private readonly startedAt = new Date().toISOString();
  private timer: NodeJS.Timeout | undefined;
  private intervalMs = HEARTBEAT_MS;
  private serving = false;
  private lastSealing: string | undefined;
  /**
   * This instance's heartbeat writes, one after the other: stop() waits for the last, so that no beat in flight (one
   * slower than the period on a loaded database among them) can bring the row back after it is removed.
   */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly keys: KeyRing,
    private readonly logger: Logger,
    /** The key file this process re-reads, when keys come from one. */
    private readonly keyFile: string | null,
  ) {}

  /**
   * The heartbeat period of the cluster (`PORTICO_INSTANCE_HEARTBEAT_SECONDS`): an instance counts as live for three
   * periods after its last beat, for a serving instance and a command-line run alike.
   */
  heartbeatEvery(intervalMs: number): void {
    this.intervalMs = intervalMs;
  }

  /** Starts the heartbeat of a serving instance: one beat now (before the first request), then every `intervalMs`. */
  async start(intervalMs = this.intervalMs): Promise<void> {
    this.intervalMs = intervalMs;
    this.serving = true;
    await this.beat();
    this.timer = setInterval(() => {
      this.beat().catch((error) => this.logger.warn({ err: errorSummary(error) }, 'could not report this instance’s encryption keys'));
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the heartbeat and removes this instance's row: the others no longer wait for it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.serving) return;
    this.serving = false;
    await this.writing.catch(() => {});
    await this.store.instances.remove(this.id).catch(() => {});
  }

  /** Reports this instance's keys (when serving), reads the live instances, and seals with the key they all know. */
  async beat(): Promise<KeyAgreementView> {
    const now = Date.now();
    if (this.serving) {
      const record: InstanceRecord = {
        id: this.id,
        host: this.host,
        pid: process.pid,
        keyIds: this.keys.configured.keyIds,
        keyFile: this.keyFile,
        startedAt: this.startedAt,
        seenAt: new Date(now).toISOString(),
      };
      const write = this.writing.catch(() => {}).then(() => (this.serving ? this.store.instances.beat(record) : undefined));
      this.writing = write;
      await write;
      await this.store.instances.remove({ before: new Date(now - FORGET_MS).toISOString() });
    }
    const instances = await this.store.instances.live(new Date(now - 3 * this.intervalMs).toISOString());
    const view = this.view(instances);
    this.keys.sealWith(view.sealing);
    if (view.sealing !== this.lastSealing) this.announce(view);
    this.lastSealing = view.sealing;
    if (this.serving) await this.sealProbe();
    return view;
  }

  /**
   * Keeps the encryption probe sealed with the key this process seals with: writes it when the database has none
   * (the first instance, or a database from before the probe), and re-seals it after the cluster moved to a newer key —
   * only when this process can open the one there, so that an instance with a wrong key never overwrites it.
   */
  async sealProbe(): Promise<void> {
    const current = await this.store.instances.probe();
    const sealer = this.keys.current;
    if (current !== undefined) {
      if (Encryptor.keyIdOf(current) === sealer.activeKeyId) return;
      if (!(await this.check(current)).ok) return;
    }
    await this.store.instances.sealProbe(sealer.encrypt(PROBE_TEXT, PROBE_AAD), current);
  }

  /** Whether this process can open the probe the cluster sealed (ok when there is none yet). */
  async checkProbe(): Promise<ProbeCheck> {
    const sealed = await this.store.instances.probe();
    return sealed === undefined ? { ok: true } : this.check(sealed);
  }

  private async check(sealed: string): Promise<ProbeCheck> {
    const keyId = Encryptor.keyIdOf(sealed);
    try {
      if (this.keys.for(sealed).decrypt(sealed, PROBE_AAD) === PROBE_TEXT) return { ok: true };
      return { ok: false, keyId, reason: 'the probe opened to an unexpected value' };
    } catch (error) {
      return { ok: false, keyId, reason: errorSummary(error) };
    }
  }

  private view(instances: InstanceRecord[]): KeyAgreementView {
    const ring = this.keys.configured;
    const knows = (instance: InstanceRecord, keyId: string) =>
      instance.keyIds.includes(keyId) || (this.keyFile !== null && instance.keyFile === this.keyFile && instance.host === this.host);
    const lackingOf = (keyId: string) => instances.filter((instance) => !knows(instance, keyId));
    const common = ring.keyIds.find((keyId) => lackingOf(keyId).length === 0);
    return { sealing: common ?? ring.activeKeyId, active: ring.activeKeyId, instances, lacking: lackingOf(ring.activeKeyId) };
  }

  private announce(view: KeyAgreementView): void {
    const lacking = view.lacking.map((i) => `${i.host}:${i.pid}`);
    if (view.sealing === view.active && view.lacking.length === 0) {
      this.logger.info(
        { key: view.active, instances: view.instances.length },
        'every live instance can decrypt with the active encryption key: sealing with it',
      );
    } else if (view.sealing !== view.active) {
      this.logger.warn(
        { key: view.active, sealing: view.sealing, lacking },
        'not every live instance can decrypt with the active encryption key yet: sealing with the newest key they all know',
      );
    } else {
      this.logger.error(
        { key: view.active, lacking },
        'no encryption key is known to every live instance: credentials sealed here cannot be read by the instances listed',
      );
    }
  }
}
