import { Encryptor } from './crypto.js';

/**
 * The encryptor of stored secrets (connection credentials, PKCE verifiers). When a ciphertext names a key this
 * process does not know yet, another process rotated the keys: the key ring is re-read (if the operator gave a way
 * to) and the new key picked up without a restart.
 */
export class KeyRing {
  constructor(
    private encryptor: Encryptor,
    private readonly reloadKeys: (() => Encryptor) | undefined,
  ) {}

  /** The encryptor as of now (replaced when the key ring is re-read). */
  get current(): Encryptor {
    return this.encryptor;
  }

  /** The encryptor for `ciphertext`: the key ring is re-read first when the ciphertext names a key it lacks. */
  for(ciphertext: string): Encryptor {
    const keyId = Encryptor.keyIdOf(ciphertext);
    if (keyId && !this.encryptor.hasKey(keyId) && this.reloadKeys) this.encryptor = this.reloadKeys();
    return this.encryptor;
  }
}
