import { createHash } from 'node:crypto';

/** A UUID derived from a seed, so that the sandbox's data is the same on every start. */
export function deterministicId(seed: string): string {
  const hex = createHash('sha1').update(seed).digest('hex').slice(0, 32);
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return dashed(`${hex.slice(0, 12)}4${hex.slice(13, 16)}${variant}${hex.slice(17, 32)}`);
}

function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Notion accepts ids with or without dashes, in any case: reduce them to the dashed lowercase form. */
export function canonicalId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const hex = raw.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  if (raw.includes('-') && !/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(raw)) return undefined;
  return dashed(hex);
}

const PROPERTY_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:;=?@[]^{}~';

/** Short property ids, URL-encoded as Notion hands them out (`%3AUPp`). */
export function propertyId(seed: string): string {
  const digest = createHash('sha1').update(seed).digest();
  let id = '';
  for (let i = 0; i < 4; i++) id += PROPERTY_ID_ALPHABET.charAt((digest[i] ?? 0) % PROPERTY_ID_ALPHABET.length);
  return encodeURIComponent(id);
}

/** Decodes a percent-encoded id once; ids that are not valid percent-encoding are taken literally. */
export function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Notion's timestamps have minute precision; the sandbox clock moves one minute per write, so results stay deterministic. */
export class Clock {
  private ms: number;

  constructor(start: string) {
    this.ms = Date.parse(start);
  }

  tick(): string {
    this.ms += 60_000;
    return new Date(this.ms).toISOString();
  }
}
