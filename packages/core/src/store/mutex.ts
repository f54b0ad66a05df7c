/**
 * In-process mutual exclusion per key: callers of `run` with the same key run one after another, in call order.
 * A promise chain, not a poll loop: a waiter costs one pending promise and wakes exactly when its turn comes.
 */
export class KeyedMutex {
  /** The promise that settles when the last queued holder of each key is done. Absent when nobody holds the key. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release = (): void => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Our turn ends when we release; the next caller waits for that. `done` never rejects, so neither does the chain.
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await fn();
    } finally {
      release();
      // Forget the key once the queue behind us is empty, so that the map does not grow with every key ever locked.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Whether someone holds or waits for `key` (for tests and diagnostics). */
  isLocked(key: string): boolean {
    return this.tails.has(key);
  }
}
