import { describe, expect, it } from 'vitest';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from '../connections/crypto.js';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './key-format.js';

describe('API keys', () => {
  it('are prefixed, long, unique and carry a checksum that catches a typo', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^portico_[0-9A-Za-z]{38}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    const key = [...keys][0] as string;
    const last = key.at(-8) === 'a' ? 'b' : 'a';
    const typo = `${key.slice(0, -8)}${last}${key.slice(-7)}`;
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
  });

  it('hash to SHA-256 hex', () => {
    expect(hashApiKey('portico_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('portico_x')).not.toBe(hashApiKey('portico_y'));
  });
});

describe('Encryptor', () => {
  const key = parseEncryptionKey(generateEncryptionKey());

  it('round-trips and never contains the plaintext', () => {
    const encryptor = new Encryptor(key);
    const sealed = encryptor.encrypt('secret-token-value', 'ws/notion');
    expect(sealed).not.toContain('secret-token-value');
    expect(sealed.startsWith(`enc1:${key.id}:`)).toBe(true);
    expect(encryptor.decrypt(sealed, 'ws/notion')).toBe('secret-token-value');
    expect(encryptor.encrypt('same', 'a')).not.toBe(encryptor.encrypt('same', 'a'));
  });

  it('refuses a ciphertext moved to another connection, tampered with, or sealed with an unknown key', () => {
    const encryptor = new Encryptor(key);
    const sealed = encryptor.encrypt('secret', 'ws/notion');
    expect(() => encryptor.decrypt(sealed, 'ws/slack')).toThrow();
    const parts = sealed.split(':');
    parts[4] = Buffer.from('tampered').toString('base64');
    expect(() => encryptor.decrypt(parts.join(':'), 'ws/notion')).toThrow();
    const other = new Encryptor(parseEncryptionKey(generateEncryptionKey()));
    expect(() => other.decrypt(sealed, 'ws/notion')).toThrow(/not in the key ring/);
  });

  it('decrypts with a previous key during a rotation', () => {
    const old = new Encryptor(key);
    const sealed = old.encrypt('secret', 'a');
    const rotated = new Encryptor(parseEncryptionKey(generateEncryptionKey()), [key]);
    expect(rotated.decrypt(sealed, 'a')).toBe('secret');
    expect(Encryptor.keyIdOf(rotated.encrypt('secret', 'a'))).toBe(rotated.activeKeyId);
  });

  it('rejects keys of the wrong size', () => {
    expect(() => parseEncryptionKey('c2hvcnQ=')).toThrow(/32 bytes/);
    expect(parseEncryptionKey('ab'.repeat(32)).key.length).toBe(32);
  });
});
