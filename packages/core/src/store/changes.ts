import type { StoreChange, StoreChangeListener } from './types.js';

/** The listeners of one store. Delivery is synchronous and isolates listeners from each other and from the writer. */
export class ChangeHub {
  private readonly listeners = new Set<StoreChangeListener>();

  on(listener: StoreChangeListener): () => void {
    // Wrap so that the same function subscribed twice gets two independent subscriptions.
    const entry: StoreChangeListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  emit(change: StoreChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener({ ...change });
      } catch {
        // A listener invalidates caches; its failure must neither fail a write that already committed nor keep
        // the other listeners from hearing about it.
      }
    }
  }
}

export const CHANGE_KINDS: readonly StoreChange['kind'][] = ['api_key', 'integration', 'connection', 'tool_set', 'workspace'];
