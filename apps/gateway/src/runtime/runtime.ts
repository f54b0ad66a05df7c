import {
  type AttemptWindows,
  type Encryptor,
  Engine,
  type ListenState,
  type Logger,
  type OAuthClientConfig,
  openStore,
  type Plugin,
  Registry,
  SqliteStore,
  type Store,
  type UpstreamLimitOptions,
  type UpstreamLimits,
  type UpstreamSlots,
} from '@portico/core';
import type { GatewayConfig } from '../config/load.js';
import { loadPlugins } from '../plugins/load.js';
import { openAuditExport } from './audit-export.js';
import { keepDataDirPrivate, keyFile, loadEncryptor, readKeyFile } from './key-file.js';
import { upstreamLimitOptions } from './upstream-limits.js';
import { waitForDatabase } from './wait-for-database.js';

export interface Runtime {
  config: GatewayConfig;
  store: Store;
  registry: Registry;
  engine: Engine;
  plugins: Plugin[];
  logger: Logger;
  /** Calls `watcher` at each loss and return of the PostgreSQL LISTEN connection (logged here); returns an unsubscribe. */
  watchListen(watcher: (state: ListenState) => void): () => void;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Plugins to register instead of loading packages (tests, embedding). */
  plugins?: Plugin[];
  /**
   * Extra base URL overrides (sandbox mode), on top of the configuration's. The engine keeps this very object (the
   * configuration's are added to it): sandbox mode repoints a service by changing it (server/sandbox-cluster.ts).
   */
  baseUrls?: Record<string, string>;
  /** Sandbox mode: each sandbox's own upstream limits, replacing its plugin's (upstream-limits.ts). */
  sandboxLimits?: Record<string, UpstreamLimits | undefined>;
  /** Sandbox mode: the OAuth clients of the sandboxes that play their application's authorization server. */
  sandboxOAuthClients?: Record<string, OAuthClientConfig>;
  /** How long to retry (with backoff) while the database cannot be reached at start; 0 or absent: no retry. */
  waitForDatabaseMs?: number;
  /**
   * A worker of `serve --workers N`: the primary coordinates its store and holds its upstream slots and the counts of
   * its per-address abuse limits (workers/).
   */
  worker?: {
    wrapStore(store: Store): Store;
    upstreamSlots(options: Partial<UpstreamLimitOptions>): UpstreamSlots;
    attempts: AttemptWindows;
  };
}

/** Loads the configured plugins (or takes `plugins`) and registers them under their services, renamed as configured. */
export async function loadRegistry(config: GatewayConfig, logger: Logger, plugins?: readonly Plugin[]): Promise<Registry> {
  const registry = new Registry();
  for (const plugin of plugins ?? (await loadPlugins(config.plugins, logger, { extra: config.extraPlugins }))) {
    const rename = config.serviceRenames[plugin.service];
    registry.register(plugin, rename ? { service: rename } : {});
  }
  return registry;
}

/** Opens the database, loads and registers the plugins, and builds the engine: shared by `serve` and every CLI command. */
export async function openRuntime(config: GatewayConfig, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const registry = await loadRegistry(config, logger, options.plugins);
  const plugins = registry.list().map((integration) => integration.plugin);
  const tightened = keepDataDirPrivate(config);
  const listenWatchers = new Set<(state: ListenState) => void>();
  const onListenState = (state: ListenState) => {
    if (state.up)
      logger.info(
        { downMs: state.downMs },
        'the LISTEN connection to PostgreSQL is back: caches dropped, other instances’ changes arrive again',
      );
    else {
      logger.warn(
        { reason: state.reason },
        'lost the LISTEN connection to PostgreSQL: other instances’ changes (revokes, toggles) reach this one only as its caches expire until it is back; reconnecting',
      );
    }
    for (const watcher of listenWatchers) watcher(state);
  };
  const opened = openStore(config.databaseUrl, {
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    poolSize: config.databasePoolSize,
    lockPoolSize: config.databaseLockPoolSize,
    connectTimeoutMs: config.databaseConnectSeconds * 1000,
    applicationName: config.databaseApplicationName,
    onListenState,
  });
  if (opened instanceof SqliteStore) tightened.push(...opened.tightenedFiles);
  if (tightened.length > 0) logger.warn({ files: tightened }, 'other users could read these files: made them owner-only (0700/0600)');
  // `serve` waits for a database that is not up yet (bounded, each retry logged); the CLI's commands do not.
  const migrate = () =>
    opened.migrate({
      mode: config.migrate,
      onApplied: ({ version, name, ms }) => logger.info({ migration: version, name, ms }, 'applied a schema migration'),
    });
  try {
    if (options.waitForDatabaseMs) await waitForDatabase(migrate, options.waitForDatabaseMs, logger);
    else await migrate();
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
  let encryptor: Encryptor;
  try {
    encryptor = loadEncryptor(config, logger, { shared: !(opened instanceof SqliteStore) });
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
  const store = options.worker ? options.worker.wrapStore(opened) : opened;
  const limits = upstreamLimitOptions(registry, config, logger, options.sandboxLimits);
  const auditExport = config.auditExport ? openAuditExport(config.auditExport, logger) : undefined;
  const engine = new Engine({
    registry,
    store,
    encryptor,
    // With a key file, a rotation made by another process is picked up when a ciphertext names the new key.
    ...(config.encryptionKey ? {} : { reloadKeys: () => readKeyFile(keyFile(config)), keyFile: keyFile(config) }),
    logger,
    degradedMs: config.degradedSeconds * 1000,
    baseUrlOverrides: Object.assign(options.baseUrls ?? {}, { ...config.baseUrls, ...options.baseUrls }),
    egress: {
      ...(config.egressAllowPrivate ? { allowPrivate: config.egressAllowPrivate } : {}),
      ...(config.workspaceUpstreamHosts ? { workspaceHosts: config.workspaceUpstreamHosts } : {}),
    },
    oauthClients: { ...options.sandboxOAuthClients, ...config.oauthClients },
    // Without PORTICO_PUBLIC_URL, the address the gateway will listen on (the server corrects it once listening).
    publicUrl: config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`,
    upstream: {
      timeoutMs: config.upstreamTimeoutMs,
      retryLimit: config.upstreamRetries,
      retryAfterCapMs: config.retryAfterCapMs,
      maxResponseBytes: config.upstreamMaxResponseBytes,
    },
    rateLimit: { perMinute: config.rateLimitPerMinute, burst: config.rateLimitBurst },
    authorization: {
      accessTokenTtlMs: config.oauthAccessTokenSeconds * 1000,
      refreshTokenTtlMs: config.oauthRefreshTokenDays * 24 * 60 * 60_000,
    },
    clientMetadataDocuments: { allowHosts: config.oauthCimdAllowHosts, ...(config.oauthCimdCa ? { ca: config.oauthCimdCa } : {}) },
    ...(config.oauthIssuer ? { externalIssuer: config.oauthIssuer } : {}),
    upstreamLimits: limits,
    ...(options.worker ? { upstreamSlots: options.worker.upstreamSlots(limits), attempts: options.worker.attempts } : {}),
    ...(config.auditSpoolDir ? { auditSpool: { dir: config.auditSpoolDir, maxBytes: config.auditSpoolMaxBytes } } : {}),
    ...(auditExport ? { auditExporter: auditExport.write } : {}),
  });
  engine.events.retentionDays = config.eventsRetentionDays;
  const delivery = config.eventsDelivery;
  engine.events.outbound.configure({
    ...(config.egressAllowPrivate ? { egress: { allowPrivate: config.egressAllowPrivate } } : {}),
    delivery: {
      timeoutMs: delivery.timeoutMs,
      retryFirstMs: delivery.retryFirstSeconds * 1000,
      retryMaxMs: Math.max(delivery.retryMaxSeconds, delivery.retryFirstSeconds) * 1000,
      retryForMs: delivery.retryHours * 3_600_000,
    },
  });
  // Seal with the key every live instance knows (two-phase rotation: core's connections/key-agreement.ts).
  engine.keyAgreement.heartbeatEvery(config.heartbeatSeconds * 1000);
  await engine.keyAgreement.beat();
  return {
    config,
    store,
    registry,
    engine,
    plugins,
    logger,
    watchListen(watcher) {
      listenWatchers.add(watcher);
      return () => listenWatchers.delete(watcher);
    },
    async close() {
      await engine.events.outbound.delivery.stop(); // lets deliveries in flight finish, gives their subscriptions up
      await engine.close();
      await auditExport?.close();
      await store.close();
    },
  };
}
