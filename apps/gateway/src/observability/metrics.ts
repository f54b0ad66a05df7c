import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuditDetail,
  type AuditRecord,
  type EngineObserver,
  ERROR_CODES,
  ERROR_STATUS,
  errorBody,
  GatewayError,
  type ListenState,
  type Principal,
  type Registry as Services,
  type UpstreamObservation,
} from '@portico/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics. Every number comes from one observation point of the engine (`Engine.observe`): the audit
 * record each call already produces (requests, their duration, rate-limit refusals, OAuth connects and refreshes) and
 * each upstream call (its latency and outcome); plus the HTTP answers of every door, the audit records pruned by
 * retention, and the process' own metrics. An observation costs about a microsecond per metric (prom-client's label
 * hashing), a few per request.
 *
 * Labels are bounded whatever the callers send: a service is a registered service key or `(unknown)`, an operation
 * one of that service's operations or `(unknown)`, a code one of the error codes (or `ok`), a status one of the
 * statuses the error table can produce; nothing is labelled by key, workspace, path or any other input.
 */

/** Seconds: from a cached answer (5 ms) to a long upstream budget (60 s). */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
export const UNKNOWN = '(unknown)';

/** Every status an audited outcome can have: success or a code of the error table. */
const STATUS_LABELS = new Map<number, string>([200, ...Object.values(ERROR_STATUS)].map((status) => [status, String(status)]));
const CODES = new Set<string>(ERROR_CODES);

let processRegistry: Registry | undefined;

/** Process metrics (CPU, memory, handles, event-loop delay, GC): one set per process, however many gateways it runs. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type Door = 'mcp' | 'rest' | 'admin' | 'oauth' | 'dashboard' | 'health' | 'metrics' | 'other';

/** Which door a path belongs to: a handful of values, never the path. */
export function doorOf(path: string): Door {
  if (path.startsWith('/api/v1/')) return 'rest';
  if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return 'mcp';
  if (path.startsWith('/api/admin/')) return 'admin';
  if (path.startsWith('/api/connect/')) return 'oauth';
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return 'dashboard';
  if (path === '/healthz' || path === '/readyz') return 'health';
  if (path === '/metrics') return 'metrics';
  return 'other';
}

export class GatewayMetrics {
  private readonly own = new Registry();
  private readonly all: Registry;
  private readonly requests: Counter<'service' | 'operation' | 'protocol' | 'status' | 'code'>;
  private readonly requestSeconds: Histogram<'service' | 'protocol'>;
  private readonly upstreamSeconds: Histogram<'service' | 'outcome'>;
  private readonly rateLimited: Counter<'service' | 'protocol' | 'source'>;
  private readonly refreshes: Counter<'service' | 'outcome'>;
  private readonly connects: Counter<'service' | 'outcome'>;
  private readonly responses: Counter<'door' | 'status'>;
  private readonly pruned: Counter;
  private readonly auditTrail: Counter<'outcome'>;
  private readonly listen: Counter<'event'>;
  private listenUp: (() => boolean | undefined) | undefined;

  /** Subscribe it with `engine.observe(metrics.observer)`. */
  readonly observer: EngineObserver = {
    audited: (record, detail) => this.audited(record, detail),
    upstream: (observation) => this.upstreamCall(observation),
    auditTrail: ({ held = 0, written = 0, dropped = 0 }) => {
      if (held > 0) this.auditTrail.inc({ outcome: 'held' }, held);
      if (written > 0) this.auditTrail.inc({ outcome: 'written' }, written);
      if (dropped > 0) this.auditTrail.inc({ outcome: 'dropped' }, dropped);
    },
  };

  constructor(
    private readonly services: Services,
    version: string,
  ) {
    const registers = [this.own];
    this.requests = new Counter({
      name: 'portico_requests_total',
      help: 'Operation calls over REST and MCP, by service, operation, protocol, status and error code (ok for success)',
      labelNames: ['service', 'operation', 'protocol', 'status', 'code'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'portico_request_duration_seconds',
      help: 'Duration of operation calls in the gateway, from authorization to the answer, by service and protocol',
      labelNames: ['service', 'protocol'],
      buckets: SECONDS,
      registers,
    });
    this.upstreamSeconds = new Histogram({
      name: 'portico_upstream_request_duration_seconds',
      help: 'Duration of upstream calls (every attempt and retry wait of one call), by service and outcome (ok or the error code)',
      labelNames: ['service', 'outcome'],
      buckets: SECONDS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'portico_rate_limited_total',
      help: 'Calls refused with rate_limited, by service, protocol and source (gateway: a limit of this gateway; upstream: the upstream said so)',
      labelNames: ['service', 'protocol', 'source'],
      registers,
    });
    this.refreshes = new Counter({
      name: 'portico_oauth_refreshes_total',
      help: 'OAuth access-token refreshes, by service and outcome (ok or the error code)',
      labelNames: ['service', 'outcome'],
      registers,
    });
    this.connects = new Counter({
      name: 'portico_oauth_connects_total',
      help: 'OAuth connect flows that reached the callback, by service and outcome (ok or the error code)',
      labelNames: ['service', 'outcome'],
      registers,
    });
    this.responses = new Counter({
      name: 'portico_http_responses_total',
      help: 'HTTP answers, by door (rest, mcp, admin, oauth, dashboard, health, metrics, other) and status; 499: the client went away',
      labelNames: ['door', 'status'],
      registers,
    });
    this.pruned = new Counter({
      name: 'portico_audit_pruned_total',
      help: 'Audit records deleted by retention (PORTICO_AUDIT_RETENTION_DAYS)',
      registers,
    });
    this.auditTrail = new Counter({
      name: 'portico_audit_records_total',
      help: 'Audit records by outcome: written to the database, held after a failed write (written again later), dropped (the hold was full)',
      labelNames: ['outcome'],
      registers,
    });
    this.listen = new Counter({
      name: 'portico_listen_connection_events_total',
      help: 'PostgreSQL only: losses (lost) and returns (restored) of the LISTEN connection that hears other instances’ changes',
      labelNames: ['event'],
      registers,
    });
    const listenUp = () => this.listenUp?.();
    new Gauge({
      name: 'portico_listen_connection_up',
      help: 'PostgreSQL only: 1 while the LISTEN connection is up, 0 while it is down',
      registers,
      collect() {
        const up = listenUp();
        if (up !== undefined) this.set(up ? 1 : 0);
      },
    });
    new Gauge({ name: 'portico_build_info', help: 'The running version (always 1)', labelNames: ['version'], registers }).set(
      { version },
      1,
    );
    this.all = Registry.merge([processMetrics(), this.own]);
  }

  get contentType(): string {
    return this.all.contentType;
  }

  /** The exposition text. */
  render(): Promise<string> {
    return this.all.metrics();
  }

  /** One HTTP answer of the gateway (any door, any outcome). */
  response(path: string, status: number): void {
    this.responses.inc({ door: doorOf(path), status: status >= 100 && status <= 599 ? String(Math.trunc(status)) : 'other' });
  }

  /** Watches the store's LISTEN connection: its state at each scrape, and its losses and returns as they happen. */
  watchListen(up: () => boolean | undefined): (state: ListenState) => void {
    this.listenUp = up;
    return (state) => this.listen.inc({ event: state.up ? 'restored' : 'lost' });
  }

  /** Records deleted by a retention run. */
  auditPruned(count: number): void {
    if (count > 0) this.pruned.inc(count);
  }

  private audited(record: AuditRecord, detail: AuditDetail): void {
    const service = this.services.get(record.service) ? record.service : UNKNOWN;
    const code = record.code === null ? 'ok' : CODES.has(record.code) ? record.code : 'other';
    if (record.protocol === 'rest' || record.protocol === 'mcp') {
      const protocol = record.protocol;
      const operation = service !== UNKNOWN && this.services.get(service)?.operations.has(record.operation) ? record.operation : UNKNOWN;
      const status = STATUS_LABELS.get(record.status) ?? 'other';
      this.requests.inc({ service, operation, protocol, status, code });
      this.requestSeconds.observe({ service, protocol }, record.durationMs / 1000);
      if (record.code === 'rate_limited') {
        this.rateLimited.inc({ service, protocol, source: detail.upstreamStatus === undefined ? 'gateway' : 'upstream' });
      }
    } else if (record.operation === 'oauth_refresh') {
      this.refreshes.inc({ service, outcome: code });
    } else if (record.operation === 'oauth_connect') {
      this.connects.inc({ service, outcome: code });
    }
  }

  private upstreamCall(observation: UpstreamObservation): void {
    const service = this.services.get(observation.service) ? observation.service : UNKNOWN;
    const outcome = observation.outcome === 'ok' || CODES.has(observation.outcome) ? observation.outcome : 'other';
    this.upstreamSeconds.observe({ service, outcome }, observation.durationMs / 1000);
  }
}

/** The part of Koa's context `metricsRoute` uses (typed structurally: the published types stay off Koa). */
interface MetricsContext {
  state: { principal: Principal };
  set(field: string, value: string): void;
  type: string;
  body: unknown;
}

/** `GET /metrics` on the main port: an operator key only (the route authenticates first). */
export function metricsRoute(metrics: GatewayMetrics) {
  return async (ctx: MetricsContext): Promise<void> => {
    // Gateway-wide counts, every workspace's together: an operator's, not a workspace admin's.
    if (!ctx.state.principal.scopes.operator)
      throw new GatewayError('forbidden', 'Metrics are for operator keys (or set PORTICO_METRICS_PORT)');
    ctx.set('cache-control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = await metrics.render();
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/** `name`, `name:port` or `[v6]:port` → lowercase name without port. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0] ?? '';
}

/**
 * `GET /metrics` on a port of its own (PORTICO_METRICS_PORT), without a key: whoever can reach the port may scrape.
 * It answers nothing else. Bound to loopback (the default), it accepts only loopback names in `Host`, so that a web
 * page cannot read it through DNS rebinding.
 */
export async function startMetricsServer(metrics: GatewayMetrics, host: string, port: number): Promise<MetricsServer> {
  const loopback = isLoopback(host);
  const answer = (res: ServerResponse, failure: GatewayError) => {
    res.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(errorBody(failure)));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    res.once('finish', () => metrics.response('/metrics', res.statusCode));
    if (loopback && !LOOPBACK_NAMES.has(hostName(req.headers.host ?? ''))) {
      return answer(res, new GatewayError('forbidden', 'Host not allowed: the metrics port is reached by a loopback name'));
    }
    if (path !== '/metrics') return answer(res, new GatewayError('not_found', `No route for ${req.method} ${path}`));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return answer(res, new GatewayError('method_not_allowed', 'Metrics are read with GET'));
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => answer(res, new GatewayError('internal_error', 'Internal error')),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown === '0.0.0.0' || shown === '[::]' ? '127.0.0.1' : shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
