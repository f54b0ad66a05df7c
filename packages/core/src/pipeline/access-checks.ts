import { type Principal, principalNoun } from '../access/api-keys.js';
import type { IntegrationState } from '../access/integration-settings.js';
import type { AllowedOperations } from '../access/tool-sets.js';
import { stepUpScope } from '../authorization/scopes.js';
import type { RegisteredIntegration, Registry } from '../contract/registry.js';
import { GatewayError } from '../errors.js';

// The pipeline's checks of who may call what, through which door (pipeline.ts runs them in this order).

export type Checked = { integration: RegisteredIntegration; allowed: AllowedOperations | undefined };

export function assertToolSetService(principal: Principal, service: string, allowed: AllowedOperations | undefined): void {
  if (allowed && !allowed.hasService(service)) {
    throw new GatewayError(
      'forbidden',
      `${principalNoun(principal)}'s tool set (${principal.scopes.toolSet}) has no operation of ${service}`,
    );
  }
}

/**
 * A call beyond the principal's scopes: `forbidden`, and for an OAuth grant's token the scopes that would let it
 * through, so that the doors can answer with a step-up challenge (`insufficient_scope` with `scope=`).
 */
export function beyondScopes(
  principal: Principal,
  message: string,
  service: string,
  needed: 'read' | 'write',
  registry: Registry,
): GatewayError {
  if (principal.via !== 'grant') return new GatewayError('forbidden', message);
  const services = registry.list().map((i) => i.service);
  return new GatewayError(
    'forbidden',
    `${message}; authorize again with the scope ${needed === 'write' ? `${service}:write` : `${service}:read`}`,
    {
      requiredScope: stepUpScope(principal.scopes, service, needed, services),
    },
  );
}

/** The tool set's services and the workspace's door switches, in that order. */
export function checkState(
  principal: Principal,
  integration: RegisteredIntegration,
  protocol: 'mcp' | 'rest' | 'dashboard',
  allowed: AllowedOperations | undefined,
  state: IntegrationState,
): Checked {
  const service = integration.service;
  assertToolSetService(principal, service, allowed);
  if (protocol === 'rest' && !state.restEnabled) {
    throw new GatewayError(
      'forbidden',
      `REST access to ${service} is disabled for this workspace (enable it with: portico integrations configure ${service} --rest on)`,
    );
  }
  if (protocol === 'mcp' && !state.mcpEnabled) {
    throw new GatewayError('forbidden', `MCP access to ${service} is disabled for this workspace`);
  }
  // 'dashboard': an admin trying an operation; the MCP and REST switches govern those doors, not the admin's console.
  return { integration, allowed };
}
