import type { ConnectionRecord, IntegrationState } from '@portico/core';

/** An integration as the admin API shows it: its toggles and settings in the workspace, and its connection's state. */
export function publicIntegration(
  service: string,
  name: string,
  operations: number,
  state: IntegrationState,
  connection: ConnectionRecord | undefined,
) {
  return {
    service,
    name,
    operations,
    mcp_enabled: state.mcpEnabled,
    rest_enabled: state.restEnabled,
    base_url: state.baseUrl,
    settings: state.settings,
    connection_policy: state.connectionPolicy,
    connection: connection ? { kind: connection.kind, status: connection.status, updated_at: connection.updatedAt } : null,
  };
}
