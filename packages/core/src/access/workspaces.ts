import { GatewayError } from '../errors.js';
import { DEFAULT_WORKSPACE, type Store, type Workspace, type WorkspaceUsage } from '../store/types.js';

/** A workspace id: 1-40 lowercase letters, digits and inner hyphens (`smith-law`, `acme2`). */
export const WORKSPACE_ID = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A workspace with what it holds. */
export interface WorkspaceSummary extends Workspace {
  usage: WorkspaceUsage;
}

/** "3 keys, 1 connection, …": what deleting a workspace removes (or removed), in words. */
export function describeUsage(usage: WorkspaceUsage): string {
  const part = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    part(usage.keys, 'API key', 'API keys'),
    part(usage.connections, 'connection', 'connections'),
    part(usage.integrations, 'integration setting', 'integration settings'),
    part(usage.toolSets, 'tool set', 'tool sets'),
    part(usage.auditRecords, 'audit record', 'audit records'),
  ].join(', ');
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) throw new GatewayError('bad_request', 'A workspace name has 1-100 characters');
  return trimmed;
}

/**
 * Managing workspaces: each holds its own keys, integration settings, connections, tool sets and audit trail. The
 * default workspace always exists (the operator keys live there) and cannot be deleted. Who may do what (operator
 * keys only) is the caller's to check: the admin API and the CLI do.
 */
export class Workspaces {
  constructor(
    private readonly store: Store,
    /** Writes buffered audit records before a deletion, so that none of the workspace's is written after it. */
    private readonly flushAudit: () => Promise<void>,
  ) {}

  /**
   * Runs before a workspace is deleted, while its connections still hold their credentials: what it registered with
   * the applications (webhooks) is removed there. An application refusing or not answering is logged and never keeps
   * the workspace.
   */
  beforeDelete: ((workspaceId: string) => Promise<unknown>) | undefined;

  list(): Promise<Workspace[]> {
    return this.store.listWorkspaces();
  }

  get(id: string): Promise<Workspace | undefined> {
    return this.store.getWorkspace(id);
  }

  /** The workspace, or `not_found` (the same answer whether it never existed or the caller may not see it). */
  async require(id: string): Promise<Workspace> {
    const workspace = await this.store.getWorkspace(id);
    if (!workspace) throw new GatewayError('not_found', `No workspace ${id}`);
    return workspace;
  }

  async summary(id: string): Promise<WorkspaceSummary> {
    const workspace = await this.require(id);
    const usage = await this.store.workspaceUsage(id);
    if (!usage) throw new GatewayError('not_found', `No workspace ${id}`);
    return { ...workspace, usage };
  }

  async create(input: { id: string; name?: string }): Promise<Workspace> {
    if (!WORKSPACE_ID.test(input.id)) {
      throw new GatewayError('bad_request', 'A workspace id has 1-40 lowercase letters, digits and inner hyphens (e.g. smith-law)');
    }
    const workspace = { id: input.id, name: checkName(input.name ?? input.id), createdAt: new Date().toISOString() };
    if (!(await this.store.createWorkspace(workspace))) throw new GatewayError('conflict', `Workspace ${input.id} already exists`);
    return workspace;
  }

  async rename(id: string, name: string): Promise<Workspace> {
    const checked = checkName(name);
    if (!(await this.store.renameWorkspace(id, checked))) throw new GatewayError('not_found', `No workspace ${id}`);
    return this.require(id);
  }

  /**
   * Deletes a workspace and everything it holds, once `confirm` repeats its id; without it, `bad_request` saying what
   * would be removed. Its keys stop working at once on every instance (the deletion is a change notification).
   */
  async delete(id: string, confirm: string | undefined): Promise<WorkspaceUsage> {
    const usage = await this.store.workspaceUsage(id);
    if (!usage) throw new GatewayError('not_found', `No workspace ${id}`);
    if (id === DEFAULT_WORKSPACE) {
      throw new GatewayError('conflict', 'The default workspace holds the operator keys and cannot be deleted');
    }
    if (confirm !== id) {
      throw new GatewayError(
        'bad_request',
        `Deleting workspace ${id} removes ${describeUsage(usage)}; to confirm, send confirm set to "${id}"`,
      );
    }
    await this.beforeDelete?.(id);
    await this.flushAudit();
    const removed = await this.store.deleteWorkspace(id);
    if (!removed) throw new GatewayError('not_found', `No workspace ${id}`);
    return removed;
  }
}
