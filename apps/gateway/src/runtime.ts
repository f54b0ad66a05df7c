import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_WORKSPACE,
  Encryptor,
  Engine,
  generateEncryptionKey,
  type Logger,
  openStore,
  type Plugin,
  parseEncryptionKey,
  Registry,
  type Store,
} from '@portico/core';
import type { GatewayConfig } from './config.js';
import { loadPlugins } from './plugins.js';

export interface Runtime {
  config: GatewayConfig;
  store: Store;
  registry: Registry;
  engine: Engine;
  plugins: Plugin[];
  logger: Logger;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Plugins to register instead of loading packages (tests, embedding). */
  plugins?: Plugin[];
  /** Extra base URL overrides (sandbox mode), on top of the configuration's. */
  baseUrls?: Record<string, string>;
}

/** Opens the database, loads and registers the plugins, and builds the engine: shared by `serve` and every CLI command. */
export async function openRuntime(config: GatewayConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const plugins = options.plugins ?? (await loadPlugins(config.plugins, logger));
  const registry = new Registry();
  for (const plugin of plugins) {
    const rename = config.serviceRenames[plugin.service];
    registry.register(plugin, rename ? { service: rename } : {});
  }
  const store = openStore(config.databaseUrl, config.databaseSchema ? { schema: config.databaseSchema } : {});
  await store.migrate();
  const engine = new Engine({
    registry,
    store,
    encryptor: loadEncryptor(config, logger),
    logger,
    baseUrlOverrides: { ...config.baseUrls, ...options.baseUrls },
    oauthClients: config.oauthClients,
    // Without PORTICO_PUBLIC_URL, the address the gateway will listen on (the server corrects it once listening).
    publicUrl: config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`,
    upstream: {
      timeoutMs: config.upstreamTimeoutMs,
      retryLimit: config.upstreamRetries,
      retryAfterCapMs: config.retryAfterCapMs,
    },
  });
  return {
    config,
    store,
    registry,
    engine,
    plugins,
    logger,
    async close() {
      await engine.close();
      await store.close();
    },
  };
}

/**
 * The encryption key comes from PORTICO_ENCRYPTION_KEY, else from `<data dir>/encryption.key`, which is generated
 * (mode 0600) on first run. Losing that file makes stored upstream credentials unreadable: back it up.
 */
export function loadEncryptor(config: GatewayConfig, logger: Logger): Encryptor {
  if (config.encryptionKey) return new Encryptor(parseEncryptionKey(config.encryptionKey));
  const file = join(config.dataDir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${generateEncryptionKey()}\n`, { mode: 0o600, flag: 'wx' });
    logger.warn({ file }, 'generated a new encryption key for upstream credentials; back this file up, or set PORTICO_ENCRYPTION_KEY');
  }
  return new Encryptor(parseEncryptionKey(readFileSync(file, 'utf8')));
}

export { DEFAULT_WORKSPACE };
