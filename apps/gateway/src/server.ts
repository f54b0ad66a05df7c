import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WORKSPACE, type Logger, type Plugin, type SandboxServer } from '@portico/core';
import { createApp, LOOPBACK_HOSTS } from './app.js';
import type { GatewayConfig } from './config.js';
import { loadPlugins } from './plugins.js';
import { openRuntime, type Runtime } from './runtime.js';
import { VERSION } from './version.js';

export interface StartOptions {
  config: GatewayConfig;
  logger: Logger;
  /** Start each plugin's sandbox upstream, connect the plugin to it and enable REST for it. */
  sandbox?: boolean;
  /** Plugins to serve instead of loading packages. */
  plugins?: Plugin[];
}

export interface RunningGateway {
  url: string;
  runtime: Runtime;
  server: Server;
  sandboxes: Record<string, SandboxServer>;
  /** A key created at this start (first start, or every sandbox start), shown once. */
  createdKey?: { name: string; key: string };
  close(): Promise<void>;
}

const SANDBOX_KEY_NAME = 'sandbox';

export async function startGateway(options: StartOptions): Promise<RunningGateway> {
  const { config, logger } = options;
  const plugins = options.plugins ?? (await loadPlugins(config.plugins, logger));
  const sandboxes: Record<string, SandboxServer> = {};
  if (options.sandbox) {
    for (const plugin of plugins) {
      if (!plugin.sandbox) {
        logger.warn({ plugin: plugin.service }, 'plugin has no sandbox; it stays pointed at its real upstream');
        continue;
      }
      const service = config.serviceRenames[plugin.service] ?? plugin.service;
      sandboxes[service] = await (await plugin.sandbox()).startSandbox();
    }
  }
  const baseUrls = Object.fromEntries(Object.entries(sandboxes).map(([service, s]) => [service, s.url]));
  const runtime = await openRuntime(config, logger, { plugins, baseUrls });
  const { engine, store } = runtime;

  let createdKey: RunningGateway['createdKey'];
  if (options.sandbox) {
    for (const [service, sandbox] of Object.entries(sandboxes)) {
      await engine.connectToken(DEFAULT_WORKSPACE, service, sandbox.token, { ...sandbox.connection, sandbox: true });
      await engine.configureIntegration(DEFAULT_WORKSPACE, service, { restEnabled: true, mcpEnabled: true });
    }
    // One sandbox key at a time: the previous one is revoked, so demo keys do not pile up.
    for (const key of await store.listApiKeys(DEFAULT_WORKSPACE)) {
      if (key.name === SANDBOX_KEY_NAME && !key.revokedAt) await store.revokeApiKey(DEFAULT_WORKSPACE, key.id, new Date().toISOString());
    }
    const created = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: SANDBOX_KEY_NAME,
      scopes: { admin: true, services: '*', readOnly: false },
    });
    createdKey = { name: SANDBOX_KEY_NAME, key: created.key };
  } else if ((await store.listApiKeys(DEFAULT_WORKSPACE)).length === 0) {
    const created = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'initial-admin',
      scopes: { admin: true, services: '*', readOnly: false },
    });
    createdKey = { name: 'initial-admin', key: created.key };
  }

  const app = createApp({
    engine,
    allowedHosts: allowedHosts(config),
    mcpTools: config.mcpTools,
    mcpLegacySse: config.mcpLegacySse,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    version: VERSION,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = config.publicUrl ?? `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  engine.publicUrl = url;
  logger.info({ url, integrations: runtime.registry.list().map((i) => i.service), sandbox: Boolean(options.sandbox) }, 'gateway listening');

  return {
    url,
    runtime,
    server,
    sandboxes,
    ...(createdKey ? { createdKey } : {}),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await runtime.close();
      for (const sandbox of Object.values(sandboxes)) await sandbox.close();
    },
  };
}

/**
 * Which Host/Origin names /api accepts: the operator's list; else, on a loopback interface, loopback names plus the
 * public URL's host; else any (a gateway exposed on a network is reached under names we cannot guess).
 */
function allowedHosts(config: GatewayConfig): readonly string[] | '*' {
  if (config.allowedHosts) return config.allowedHosts.includes('*') ? '*' : config.allowedHosts;
  const loopback = config.host === 'localhost' || config.host === '::1' || config.host.startsWith('127.');
  if (!loopback) return '*';
  const names = [...LOOPBACK_HOSTS, config.host];
  if (config.publicUrl) names.push(new URL(config.publicUrl).hostname.toLowerCase());
  return names;
}
