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
}
