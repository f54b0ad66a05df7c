import { Encryptor } from './crypto.js';

/**
 * The encryptor of stored secrets (connection credentials, PKCE verifiers). When a ciphertext names a key this
 * process does not know yet, another process rotated the keys: the key ring is re-read (if the operator gave a way
 * to) and the new key picked up without a restart.
 *
 * New secrets are sealed with the configured active key only once every live instance can decrypt with it
 * (key-agreement.ts): until then with the newest key of the ring that all of them know, so that an instance started
 * with a new key never writes a credential the others cannot read.
 */
export class KeyRing {
  private sealing: string | undefined;
  private sealer: { base: Encryptor; encryptor: Encryptor } | undefined;

  constructor(
    private encryptor: Encryptor,
    private readonly reloadKeys: (() => Encryptor) | undefined,
  ) {}

  /** The key ring as configured: its active key is the one the operator chose. */
  get configured(): Encryptor {
    return this.encryptor;
  }

  /** Whether the ring is re-read from a file when a ciphertext names a key it lacks. */
  get reloads(): boolean {
    return this.reloadKeys !== undefined;
  }

  /** The encryptor to seal with as of now: the configured ring, sealing with the key every live instance knows. */
  get current(): Encryptor {
    const id = this.sealing;
    if (!id || id === this.encryptor.activeKeyId || !this.encryptor.hasKey(id)) return this.encryptor;
    if (this.sealer?.base !== this.encryptor || this.sealer.encryptor.activeKeyId !== id) {
      this.sealer = { base: this.encryptor, encryptor: this.encryptor.withActive(id) };
    }
    return this.sealer.encryptor;
  }

  /** Seal with key `id` (one of the ring's) instead of the active one; undefined: the active one. */
  sealWith(id: string | undefined): void {
    this.sealing = id;
  }

  /** The encryptor for `ciphertext`: the key ring is re-read first when the ciphertext names a key it lacks. */
  for(ciphertext: string): Encryptor {
    const keyId = Encryptor.keyIdOf(ciphertext);
    if (keyId && !this.encryptor.hasKey(keyId) && this.reloadKeys) this.encryptor = this.reloadKeys();
    return this.encryptor;
  }
}
