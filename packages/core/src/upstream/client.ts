import http from 'node:http';
import https from 'node:https';
import got, { type Got, HTTPError, RequestError } from 'got';
import { GatewayError } from '../errors.js';
import type { UpstreamRequest, UpstreamResponse } from '../operation.js';

export interface UpstreamClientOptions {
  /** Whole-request timeout (connect to last byte), ms. */
  timeoutMs: number;
  /** Retries for idempotent methods on network errors, 429, 502, 503, 504. */
  retryLimit: number;
  /** Longest `Retry-After` (ms) the gateway waits out itself; a longer one is passed on to the caller as 429. */
  retryAfterCapMs: number;
  /** Upper bound of the exponential back-off between retries, ms. */
  backoffLimitMs?: number;
  userAgent?: string;
}

export const DEFAULT_UPSTREAM_OPTIONS: UpstreamClientOptions = {
  timeoutMs: 30_000,
  retryLimit: 2,
  retryAfterCapMs: 10_000,
  backoffLimitMs: 5_000,
};

interface PreparedRequest extends UpstreamRequest {
  /** Absolute URL after the base URL was applied. */
  url: string;
}

/**
 * The one upstream HTTP client: a single got instance with keep-alive agents, created once per engine.
 * got's defaults are unsafe for a gateway (no timeout, waits out any Retry-After, follows redirects), so every
 * one of them is set here.
 */
export class UpstreamClient {
  private readonly got: Got;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };

  constructor(readonly options: UpstreamClientOptions = DEFAULT_UPSTREAM_OPTIONS) {
    this.got = got.extend({
      agent: this.agents,
      timeout: { request: options.timeoutMs },
      followRedirect: false,
      throwHttpErrors: true, // got retries on statuses only via HTTPError; we catch it below and read the response
      responseType: 'buffer',
      retry: {
        limit: options.retryLimit,
        methods: ['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'],
        statusCodes: [429, 502, 503, 504],
        errorCodes: ['ETIMEDOUT', 'ECONNRESET', 'EADDRINUSE', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN'],
        maxRetryAfter: options.retryAfterCapMs,
        backoffLimit: options.backoffLimitMs ?? 5_000,
      },
      headers: { 'user-agent': options.userAgent ?? 'portico-gateway' },
    });
  }

  async send(request: PreparedRequest): Promise<UpstreamResponse> {
    const searchParams = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) searchParams.append(key, String(item));
      else searchParams.append(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    let body: string | Uint8Array | undefined;
    if (request.raw) {
      body = request.raw.data;
      headers['content-type'] = request.raw.contentType;
    } else if (request.form) {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(request.form)) if (value !== undefined) form.append(key, String(value));
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    try {
      const response = await this.got(request.url, {
        method: request.method,
        searchParams,
        headers,
        body,
      });
      return toUpstreamResponse(response.statusCode, response.headers, response.rawBody);
    } catch (error) {
      if (error instanceof HTTPError) {
        return toUpstreamResponse(error.response.statusCode, error.response.headers, error.response.rawBody as Buffer);
      }
      throw networkFailure(error);
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function toUpstreamResponse(status: number, headers: UpstreamResponse['headers'], raw: Buffer | undefined): UpstreamResponse {
  if (!raw || raw.length === 0) return { status, headers, body: undefined };
  const text = raw.toString('utf8');
  const type = String(headers['content-type'] ?? '');
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return { status, headers, body: JSON.parse(text) };
    } catch {
      // not JSON after all: keep the text
    }
  }
  return { status, headers, body: text };
}

/** Network failures never carry got's error text to the caller: it includes URLs and may include headers. */
function networkFailure(error: unknown): GatewayError {
  if (error instanceof RequestError) {
    if (error.name === 'TimeoutError' || error.code === 'ETIMEDOUT') {
      return new GatewayError('upstream_timeout', 'The upstream did not answer in time', { cause: error });
    }
    return new GatewayError('upstream_error', `Could not reach the upstream (${error.code ?? 'network error'})`, { cause: error });
  }
  return new GatewayError('upstream_error', 'Could not reach the upstream', { cause: error });
}
