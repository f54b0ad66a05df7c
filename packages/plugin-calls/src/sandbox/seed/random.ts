import { createHash } from 'node:crypto';
import { storyTimestamp, zonedTimestamp } from '@portico/core/testing/emulator';

// Deterministic helpers: the same data on every start.

/** Small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** CallRail-style id: a three-letter prefix and 32 hex digits. */
export function hexId(prefix: string, seed: string): string {
  return `${prefix}${createHash('md5').update(seed).digest('hex')}`;
}

export function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function between(min: number, max: number, random: () => number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A local time of a company's zone on `date`, `seconds` after midnight, with the offset the zone has then. */
export function stamp(date: string, seconds: number, zone: string): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  // what happened today is placed by the sandbox clock's rule: never after now
  return storyTimestamp(zonedTimestamp(date, `${pad(h)}:${pad(m)}:${pad(s)}`, { millis: true, zone }));
}

export type Random = () => number;
