import { assertMayChangeService, Params, Type } from '@portico/core';
import { publicIntegration } from '../../records/integrations.js';
import { validator, type WorkspaceRoutes } from './guards.js';

const ConfigureIntegration = Params({
  mcp_enabled: Type.Optional(Type.Boolean()),
  rest_enabled: Type.Optional(Type.Boolean()),
  base_url: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  connection_policy: Type.Optional(Type.Union([Type.Literal('shared'), Type.Literal('personal'), Type.Literal('personal_else_shared')])),
});

const configureBody = validator(ConfigureIntegration);

/** `…/integrations`: each installed integration in the workspace, and its toggles, base URL and settings. */
export function mountIntegrationRoutes({ router, prefix, workspaceOf, engine, body }: WorkspaceRoutes): void {
  router.get(`${prefix}/integrations`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const connections = new Map((await engine.store.listConnections(workspaceId)).map((c) => [c.service, c]));
    const out = [];
    for (const integration of engine.registry.list()) {
      out.push(
        publicIntegration(
          integration.service,
          integration.plugin.displayName,
          integration.operations.size,
          await engine.integrationState(workspaceId, integration.service),
          connections.get(integration.service),
        ),
      );
    }
    ctx.body = { integrations: out };
  });

  router.patch(`${prefix}/integrations/:service`, async (ctx) => {
    const workspaceId = await workspaceOf(ctx);
    const input = configureBody(await body(ctx));
    const service = ctx.params.service as string;
    const integration = engine.requireIntegration(service);
    assertMayChangeService(ctx.state.principal, service);
    const state = await engine.configureIntegration(workspaceId, service, {
      ...(input.mcp_enabled === undefined ? {} : { mcpEnabled: input.mcp_enabled }),
      ...(input.rest_enabled === undefined ? {} : { restEnabled: input.rest_enabled }),
      ...(input.base_url === undefined ? {} : { baseUrl: input.base_url }),
      ...(input.settings === undefined ? {} : { settings: input.settings }),
      ...(input.connection_policy === undefined ? {} : { connectionPolicy: input.connection_policy }),
    });
    const connection = await engine.store.getConnection(workspaceId, service);
    ctx.body = publicIntegration(service, integration.plugin.displayName, integration.operations.size, state, connection);
  });
}
