import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'enc1';

export interface EncryptionKey {
  /** Short identifier stored beside each ciphertext, so that a key ring can hold old and new keys. */
  id: string;
  key: Buffer;
}

/** Parses a 32-byte key given as base64 (44 chars) or hex (64 chars). */
export function parseEncryptionKey(text: string): EncryptionKey {
  const trimmed = text.trim();
  let key: Buffer;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) key = Buffer.from(trimmed, 'hex');
  else key = Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new Error('the encryption key must be 32 bytes, given as base64 (44 characters) or hex (64 characters)');
  }
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export function generateEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

/**
 * AES-256-GCM with a random 96-bit nonce per message. The caller's associated data (the connection's identity)
 * is authenticated, so a ciphertext copied onto another connection's row fails to decrypt.
 * Format: `enc1:<key id>:<nonce b64>:<tag b64>:<ciphertext b64>`.
 */
export class Encryptor {
  private readonly keys = new Map<string, Buffer>();
  private readonly active: EncryptionKey;

  /** `active` encrypts; `previous` keys only decrypt (during a rotation). */
  constructor(active: EncryptionKey, previous: readonly EncryptionKey[] = []) {
    this.active = active;
    for (const k of [...previous, active]) this.keys.set(k.id, k.key);
  }

  get activeKeyId(): string {
    return this.active.id;
  }

  hasKey(id: string): boolean {
    return this.keys.has(id);
  }

  /** Ids of every key in the ring, the active one first. */
  get keyIds(): string[] {
    return [this.active.id, ...[...this.keys.keys()].filter((id) => id !== this.active.id)];
  }

  /** The same key ring, sealing with key `id` (one of its keys) instead of the active one. */
  withActive(id: string): Encryptor {
    const key = this.keys.get(id);
    if (!key) throw new Error(`key ${id} is not in the key ring`);
    return new Encryptor(
      { id, key },
      [...this.keys].map(([other, value]) => ({ id: other, key: value })),
    );
  }

  encrypt(plaintext: string, associatedData: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.active.key, nonce);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, this.active.id, nonce.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
  }

  decrypt(sealed: string, associatedData: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 5 || parts[0] !== FORMAT) throw new Error('not an encrypted value');
    const [, keyId, nonce, tag, body] = parts as [string, string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`encrypted with key ${keyId}, which is not in the key ring`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }

  /** Key id a sealed value was encrypted with. */
  static keyIdOf(sealed: string): string | undefined {
    const parts = sealed.split(':');
    return parts[0] === FORMAT ? parts[1] : undefined;
  }
}
