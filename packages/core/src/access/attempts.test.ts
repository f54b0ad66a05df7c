import { describe, expect, it } from 'vitest';
import { MemoryAttemptWindows } from './attempts.js';

describe('attempts per key in a sliding window', () => {
  it('counts up to the limit, then refuses with the seconds until the oldest attempt leaves the window', async () => {
    let now = 1_000;
    const windows = new MemoryAttemptWindows(() => now);
    for (let i = 0; i < 3; i++) {
      expect((await windows.take('a', 3, 60_000)).wait).toBe(0);
      now += 10_000;
    }
    // attempts at 1 s, 11 s and 21 s; at 31 s the first leaves the window at 61 s
    expect(await windows.take('a', 3, 60_000)).toEqual({ wait: 30 });
    expect((await windows.take('b', 3, 60_000)).wait).toBe(0); // another key has its own count
    now = 60_999;
    expect(await windows.take('a', 3, 60_000)).toEqual({ wait: 1 }); // never 0 while refused
    now = 61_000;
    expect((await windows.take('a', 3, 60_000)).wait).toBe(0); // the first left: one more fits
    expect((await windows.take('a', 3, 60_000)).wait).toBeGreaterThan(0);
  });

  it('a refused attempt is not counted: the wait does not grow while a client keeps trying', async () => {
    let now = 0;
    const windows = new MemoryAttemptWindows(() => now);
    expect((await windows.take('a', 1, 60_000)).wait).toBe(0);
    for (now = 1_000; now < 60_000; now += 1_000) expect((await windows.take('a', 1, 60_000)).wait).toBe(Math.ceil((60_000 - now) / 1000));
    now = 60_000;
    expect((await windows.take('a', 1, 60_000)).wait).toBe(0);
  });

  it('a ticket given back frees its attempt, once, and only for its own key', async () => {
    const now = 5;
    const windows = new MemoryAttemptWindows(() => now);
    const first = await windows.take('a', 2, 60_000);
    await windows.take('a', 2, 60_000);
    expect((await windows.take('a', 2, 60_000)).wait).toBeGreaterThan(0);
    if (first.ticket === undefined) throw new Error('counted attempts have a ticket');
    windows.giveBack('b', first.ticket); // not b's
    expect((await windows.take('a', 2, 60_000)).wait).toBeGreaterThan(0);
    windows.giveBack('a', first.ticket);
    expect((await windows.take('a', 2, 60_000)).wait).toBe(0);
    windows.giveBack('a', first.ticket);
    windows.giveBack('a', first.ticket); // given back twice more: frees the attempts of that time, never below zero
    windows.giveBack('a', first.ticket);
    expect(windows.size).toBe(0);
  });

  it('a limit of 0 refuses every attempt', async () => {
    const windows = new MemoryAttemptWindows(() => 0);
    expect((await windows.take('a', 0, 60_000)).wait).toBe(60);
  });

  it('stays bounded under many addresses: keys whose attempts left their window are dropped', async () => {
    let now = 0;
    const windows = new MemoryAttemptWindows(() => now);
    for (let i = 0; i < 10_000; i++) await windows.take(`old-${i}`, 10, 60_000);
    expect(windows.size).toBe(10_000);
    now = 60_000;
    await windows.take('new', 10, 60_000);
    expect(windows.size).toBe(1);
    // a key with a longer window of its own is kept while its attempts are in it
    await windows.take('long', 10, 3_600_000);
    for (let i = 0; i < 10_000; i++) await windows.take(`more-${i}`, 10, 60_000);
    now = 120_000;
    await windows.take('newer', 10, 60_000);
    expect(windows.size).toBe(2); // long and newer
  });
});
