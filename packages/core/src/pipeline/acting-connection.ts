import type { Connections } from '../connections/credentials.js';
import type { RegisteredIntegration } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import type { ConnectionPolicy } from '../store/types.js';

/** Which connection acted upstream for a call, once chosen: audited with the call. */
export interface Acted {
  connection: 'personal' | 'shared' | null;
}

/**
 * Whose connection a member's call uses: theirs under `personal` (none is the not_connected error that says how to
 * connect one), theirs where they connected one under `personal_else_shared`, never under `shared`. Returns the member
 * whose personal connection acts, or null for the shared one. Who has none is remembered briefly (Connections), so
 * the common call asks the store nothing here.
 */
export async function actingMember(
  connections: Partial<Pick<Connections, 'hasPersonal' | 'cachedHasPersonal'>>,
  integration: RegisteredIntegration,
  workspaceId: string,
  memberId: string,
  policy: ConnectionPolicy,
): Promise<string | null> {
  if (policy === 'shared') return null;
  const has =
    connections.cachedHasPersonal?.(workspaceId, integration.service, memberId) ??
    (await connections.hasPersonal?.(workspaceId, integration.service, memberId));
  if (policy === 'personal_else_shared') return has ? memberId : null;
  if (has === false) {
    throw new GatewayError(
      'not_connected',
      `${integration.plugin.displayName} acts as each person's own account in this workspace, and you have not connected yours: ` +
        'sign in to the Portico dashboard and connect it under Connections (/dashboard/connections), then call again',
    );
  }
  return memberId;
}
