import type { Workspace, WorkspaceUsage } from '@portico/core';

/** What a workspace holds, as the admin API counts it. */
export function publicUsage(usage: WorkspaceUsage) {
  return {
    keys: usage.keys,
    connections: usage.connections,
    integrations: usage.integrations,
    tool_sets: usage.toolSets,
    audit_records: usage.auditRecords,
  };
}

/** A workspace as the admin API shows it, with what it holds. */
export function publicWorkspace(workspace: Workspace, usage: WorkspaceUsage) {
  return { id: workspace.id, name: workspace.name, created_at: workspace.createdAt, holds: publicUsage(usage) };
}
