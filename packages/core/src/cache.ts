/** Longest time a settings change made elsewhere can go unseen if its change notification is lost. */
export const SETTINGS_CACHE_MS = 5_000;

/** The key of a per-workspace, per-service cache entry; change notifications name entries the same way. */
export const cacheKey = (workspaceId: string, service: string) => `${workspaceId}\u0000${service}`;
