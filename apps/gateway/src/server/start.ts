import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import { DEFAULT_WORKSPACE, type Logger, type Plugin, PostgresStore, type SandboxServer } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';
import type { MemberSignInOptions } from '../config/member-sign-in.js';
import { observe } from '../observability/observe.js';
import { Readiness } from '../observability/readiness.js';
import { startTracing } from '../observability/tracing.js';
import { loadPlugins } from '../plugins/load.js';
import { loadDashboardAssets } from '../routes/dashboard/assets.js';
import { openRuntime, type Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import { VERSION } from '../version.js';
import { createApp } from './app.js';
import { answerClientError } from './edge.js';
import { allowedHosts } from './hosts.js';
import { joinSandbox, type SandboxCluster } from './sandbox-cluster.js';
import { UnansweredResponses } from './unanswered.js';

export interface StartOptions {
  config: GatewayConfig;
  logger: Logger;
  /** Start each plugin's sandbox upstream, connect the plugin to it and enable REST for it. */
  sandbox?: boolean;
  /** Plugins to serve instead of loading packages. */
  plugins?: Plugin[];
  /** Node's HTTP timers (tests shorten them); defaults: Node's (request 300 s, headers 60 s, checked every 30 s). */
  http?: { requestTimeoutMs?: number; headersTimeoutMs?: number; checkIntervalMs?: number };
  /** A worker of `serve --workers N`: the primary migrated and made the first key; it coordinates the store and slots. */
  worker?: RuntimeOptions['worker'];
}

export interface RunningGateway {
  url: string;
  runtime: Runtime;
  server: Server;
  sandboxes: Record<string, SandboxServer>;
  /** Base URL of the metrics port (PORTICO_METRICS_PORT); undefined when /metrics is on the main port. */
  metricsUrl?: string;
  /** A key created at this start (first start, or a sandbox start that is not joining running instances), shown once. */
  createdKey?: { name: string; key: string };
  /** Sandbox mode on PostgreSQL: another instance of the cluster printed the sandbox key; this one joined it. */
  joinedSandbox?: boolean;
  /** Sandbox mode without PORTICO_OIDC_*: the firm's people sign in to the dashboard through the sandbox's provider. */
  sandboxSignIn?: { issuer: string; name: string };
  /**
   * Graceful stop: `/readyz` answers 503 at once; for `drainMs` (default PORTICO_DRAIN_SECONDS) the instance keeps
   * serving, with `Connection: close` on the connections open before; then it stops accepting connections, closes each
   * after its answer (idle ones three seconds later), lets requests in flight finish for up to `graceMs` (default
   * PORTICO_SHUTDOWN_GRACE_MS; past it their connections are closed), flushes the audit log and closes the database.
   * Calling it again returns the same stop.
   */
  close(graceMs?: number, drainMs?: number): Promise<void>;
}

export async function startGateway(options: StartOptions): Promise<RunningGateway> {
  const { config, logger } = options;
  const hosts = allowedHosts(config); // before anything starts: a refusal leaves nothing to clean up
  const dashboardAssets = config.dashboard ? await loadDashboardAssets() : undefined;
  // Spans over OTLP only when an endpoint is set: the SDK is loaded then, not otherwise (observability/tracing.ts).
  const tracing = config.otlp ? await startTracing(config.otlp, logger) : undefined;
  const plugins = options.plugins ?? (await loadPlugins(config.plugins, logger, { extra: config.extraPlugins }));
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
  const sandboxLimits = Object.fromEntries(Object.entries(sandboxes).map(([service, s]) => [service, s.limits]));
  // the sandboxes' own OAuth: people connect their own sandbox accounts through it (an operator's client wins)
  const sandboxOAuthClients = Object.fromEntries(
    Object.entries(sandboxes).flatMap(([service, s]) => (s.oauth ? [[service, s.oauth] as const] : [])),
  );
  const runtime = await openRuntime(config, logger, {
    plugins,
    baseUrls,
    sandboxLimits,
    sandboxOAuthClients,
    waitForDatabaseMs: config.databaseWaitSeconds * 1000,
    ...(options.worker ? { worker: options.worker } : {}),
  }).catch(async (error: unknown) => {
    await tracing?.close();
    throw error;
  });
  const { engine, store } = runtime;
  await engine.keyAgreement.start(config.heartbeatSeconds * 1000); // report this instance's keys (two-phase rotation)
  engine.events.outbound.delivery.start(); // events to the workspaces' subscribers (docs/events.md)

  let createdKey: RunningGateway['createdKey'];
  let sandboxCluster: SandboxCluster | undefined;
  if (options.sandbox) {
    try {
      sandboxCluster = await joinSandbox({ store, engine, logger, sandboxes, baseUrls });
    } catch (error) {
      await runtime.close();
      for (const sandbox of Object.values(sandboxes)) await sandbox.close();
      throw error;
    }
    createdKey = sandboxCluster.createdKey;
  } else if (!options.worker) {
    createdKey = await createInitialKey(runtime);
  }

  const identity = options.sandbox && !config.memberSignIn && !options.worker ? await sandboxIdentity(runtime) : undefined;
  const observability = observe(config, runtime, logger); // metrics and audit retention
  const readiness = new Readiness(store, logger, () => engine.keyAgreement.checkProbe());
  const app = createApp({
    ...(dashboardAssets ? { dashboard: { assets: dashboardAssets } } : {}),
    memberSignIn: config.memberSignIn ?? identity?.signIn,
    engine,
    metrics: observability.metrics,
    metricsOnMainPort: observability.onMainPort,
    readiness,
    allowedHosts: hosts,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    mcpTools: config.mcpTools,
    mcpResultBudget: config.mcpResultBudget,
    mcpLegacySse: config.mcpLegacySse,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    version: VERSION,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  });
  const server = createServer(
    options.http?.checkIntervalMs === undefined ? {} : { connectionsCheckingInterval: options.http.checkIntervalMs },
    app.callback(),
  );
  server.keepAliveTimeout = 65_000;
  if (options.http?.requestTimeoutMs !== undefined) server.requestTimeout = options.http.requestTimeoutMs;
  if (options.http?.headersTimeoutMs !== undefined) server.headersTimeout = options.http.headersTimeoutMs;
  // Requests Node refuses itself (malformed, oversized head, timeout) get the documented body, not an empty answer.
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, logger));
  // During shutdown, responses close their connections (the client reconnects elsewhere): from the drain on, those on
  // the connections open before it; once the port is closed, all (docs/adr/0027-drain-and-keep-alive.md).
  let stage: 'serving' | 'draining' | 'closed' = 'serving';
  const unanswered = new UnansweredResponses();
  server.on('connection', (socket: Socket & { [acceptedDraining]?: true }) => {
    if (stage === 'draining') socket[acceptedDraining] = true;
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (stage === 'closed' || (stage === 'draining' && !(request.socket as { [acceptedDraining]?: true })[acceptedDraining])) {
      response.shouldKeepAlive = false;
      return;
    }
    response.once('close', unanswered.add(response));
  });
  /** Makes every response not yet begun close its connection. */
  const closeAfterAnswers = () => {
    for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false;
    unanswered.clear();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await observability.start();
  } catch (error) {
    if (server.listening) server.close();
    await observability.close();
    await sandboxCluster?.close();
    await runtime.close();
    for (const sandbox of Object.values(sandboxes)) await sandbox.close();
    await tracing?.close();
    throw error;
  }
  // After listening, a server error (e.g. EMFILE on accept) is logged; it must not end the process.
  server.on('error', (error) => logger.error({ err: error }, 'server error'));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = config.publicUrl ?? `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  engine.publicUrl = url;
  // the sandboxes send their webhooks to this instance, on loopback, for the default workspace
  const local = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  for (const [service, sandbox] of Object.entries(sandboxes))
    sandbox.webhooks?.deliverTo(`${local}/api/events/${DEFAULT_WORKSPACE}/${service}`);
  // webhook subscriptions the plugins register with their applications go to the public URL (the sandboxes: this one)
  engine.webhooks.baseUrl = config.publicUrl ?? (options.sandbox ? local : undefined);
  engine.webhooks.start();
  logger.info({ url, integrations: runtime.registry.list().map((i) => i.service), sandbox: Boolean(options.sandbox) }, 'gateway listening');

  let closing: Promise<void> | undefined;
  const stop = async (graceMs: number, drainMs: number) => {
    readiness.startDraining();
    stage = 'draining';
    const deliveries = engine.events.outbound.delivery.stop(); // no new deliveries; those in flight finish meanwhile
    const registrations = engine.webhooks.stop(); // no new registrations or renewals; those in flight finish
    closeAfterAnswers();
    // Kept-alive connections waiting for a request are left open: closing one now would reset the request a balancer
    // may be writing onto it at this moment. Its next answer closes it; one left idle is closed after the drain.
    if (drainMs > 0) {
      // Still listening: a balancer that sends on a connection it kept alive is answered (and told to close it) while
      // its health checks see /readyz fail and take the instance out. A connection opened during the drain is kept
      // alive until the port closes: a balancer that checks nothing (nginx) then reuses it instead of opening one a
      // request, and opens none the moment the port closes, which would reset it.
      logger.info({ drainSeconds: drainMs / 1000 }, 'draining: readiness answers 503, answers close the connections open before');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    const started = performance.now();
    stage = 'closed';
    closeAfterAnswers();
    const forced = await drain(server, graceMs);
    logger.info(
      { ms: Math.round(performance.now() - started), ...(forced ? { closedConnections: forced } : {}) },
      forced ? 'shutdown grace over: closed the remaining connections' : 'all requests finished',
    );
    await deliveries;
    await registrations;
    await observability.close();
    await sandboxCluster?.close(); // another sandbox instance takes over the upstreams
    await runtime.close(); // flushes the audit log, then closes the database
    for (const sandbox of Object.values(sandboxes)) await sandbox.close();
    await identity?.provider.close();
    await tracing?.close(); // exports the last spans (the audit log's last write among them)
  };
  return {
    url,
    runtime,
    server,
    sandboxes,
    ...(observability.metricsUrl ? { metricsUrl: observability.metricsUrl } : {}),
    ...(createdKey ? { createdKey } : {}),
    ...(sandboxCluster?.joined ? { joinedSandbox: true } : {}),
    ...(identity ? { sandboxSignIn: { issuer: identity.provider.issuer, name: identity.signIn.name } } : {}),
    close(graceMs = config.shutdownGraceMs, drainMs = config.drainSeconds * 1000) {
      closing ??= stop(graceMs, drainMs);
      return closing;
    },
  };
}

/**
 * The operator key of a first start, unless a key exists. Instances starting together on an empty database: one
 * mints the key, the others wait, then find it there. (`serve --workers N`: the primary, before forking.)
 */
export function createInitialKey({ store, engine }: Runtime): Promise<RunningGateway['createdKey']> {
  return store.withClusterLock('initial-key', async () => {
    if ((await store.listApiKeys(DEFAULT_WORKSPACE)).length > 0) return undefined;
    const created = await engine.createApiKey({
      workspaceId: DEFAULT_WORKSPACE,
      name: 'initial-admin',
      scopes: { admin: true, operator: true, services: '*', readOnly: false },
    });
    return { name: 'initial-admin', key: created.key };
  });
}

/**
 * The firm's identity provider of sandbox mode, where nothing else signs members in: the firm's people sign in to the
 * dashboard as themselves (a page lists them), provisioned in the default workspace by their groups — the managing
 * partner an owner, the partners admins, everyone else a member. One process on the embedded database only: the
 * instances of a cluster would each run a provider of their own (docs/adr/0013-sandbox-mode.md).
 */
async function sandboxIdentity({ store }: Runtime) {
  if (store instanceof PostgresStore) return undefined;
  const { startFirmIdentityProvider, FIRM } = await import('@portico/core/testing/emulator');
  const provider = await startFirmIdentityProvider();
  const signIn: MemberSignInOptions = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    name: `${FIRM.shortName} (sandbox)`,
    workspace: DEFAULT_WORKSPACE,
    groupsClaim: 'groups',
    roleGroups: provider.roleGroups,
  };
  return { provider, signIn };
}

/** Marks a connection accepted while draining. */
const acceptedDraining = Symbol('accepted while draining');

/** How often idle keep-alive connections are closed once the port is closed. */
const DRAIN_SWEEP_MS = 50;
/**
 * How long after the port closes idle keep-alive connections are left open: time for a balancer that checks nothing
 * (nginx) to use up the ones it kept (each answer closes its connection) or be refused a new one and set the instance
 * aside, so that it no longer picks them — also under a load of a few requests a second, where one second was too
 * short and a closing connection met the request nginx was writing onto it.
 */
export const DRAIN_SWEEP_AFTER_MS = 3_000;

/**
 * Stops listening (new connections are refused) and waits for the connections left to finish for up to `graceMs`:
 * each answers with `Connection: close`. A kept-alive connection still idle `DRAIN_SWEEP_AFTER_MS` later is closed.
 * Then closes whatever is left. Resolves with how many were closed by force.
 *
 * `net.Server#close`, not `http.Server#close`: Node's http server also closes every idle kept-alive connection the
 * moment it stops listening, while a balancer that has not yet been refused may be writing a request onto one
 * (docs/adr/0027-drain-and-keep-alive.md).
 */
function drain(server: Server, graceMs: number): Promise<number> {
  return new Promise((resolve) => {
    let forced = 0;
    let sweep: NodeJS.Timeout | undefined;
    const sweepStart = setTimeout(
      () => {
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
      },
      Math.min(DRAIN_SWEEP_AFTER_MS, graceMs),
    );
    const deadline = setTimeout(() => {
      server.getConnections((_error, count) => {
        forced = count;
        server.closeAllConnections();
      });
    }, graceMs);
    // Right after the poll phase (setImmediate), which accepted the connections waiting in the backlog: closing the
    // port resets those still waiting, after the balancer has sent its request on them.
    setImmediate(() =>
      NetServer.prototype.close.call(server, () => {
        clearTimeout(sweepStart);
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve(forced);
      }),
    );
  });
}
