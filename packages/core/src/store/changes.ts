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

// The caches that hear these notifications (API keys, integration settings, tool sets, credentials) name and bound
// their entries alike:

/** Longest time a settings change made elsewhere can go unseen if its change notification is lost. */
export const SETTINGS_CACHE_MS = 5_000;

/** The key of a per-workspace, per-service cache entry; change notifications name entries the same way. */
export const cacheKey = (workspaceId: string, service: string) => `${workspaceId}\u0000${service}`;
