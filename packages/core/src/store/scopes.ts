/** What a principal (an API key, or an OAuth grant) may do. */
export interface KeyScopes {
  /** May use the admin API (of the key's own workspace). */
  admin: boolean;
  /**
   * May manage every workspace: create, rename and delete them, and reach any workspace's admin API
   * (`/api/admin/workspaces/{id}/…`). Only admin keys of the default workspace are operators. Absent: false.
   */
  operator?: boolean;
  /** The tool set (id, in the key's workspace) that narrows what the key may call; absent or null: no tool set. */
  toolSet?: string | null;
  /** Services this key may call: `'*'` for all. */
  services: '*' | string[];
  /** Only operations that read (GET-like) may be called. */
  readOnly: boolean;
  /**
   * Of its services, those it may also write to (an OAuth grant's `<service>:write` scopes). Absent: every one of its
   * services, unless `readOnly`. Empty with `readOnly` false never occurs: a grant that writes nowhere is read-only.
   */
  writes?: string[];
}

/** Whether scopes let their holder call operations of `service` that write. */
export function mayWrite(scopes: KeyScopes, service: string): boolean {
  if (scopes.readOnly) return false;
  if (scopes.services !== '*' && !scopes.services.includes(service)) return false;
  return scopes.writes === undefined || scopes.writes.includes(service);
}
