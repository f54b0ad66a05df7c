import { assertHttpUrl } from '../checks.js';
import { codeForUpstreamStatus, GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { UpstreamRequest, UpstreamResponse } from '../operation.js';
import type { Credentials, UpstreamFailure } from '../plugin.js';
import type { RegisteredIntegration, RegisteredOperation } from '../registry.js';
import { readUpstreamFailure, retryAfterFromHeaders } from '../upstream-errors.js';
import type { UpstreamClient } from './client.js';

const MAX_MESSAGE = 500;

/** Sends one upstream request of an operation, with the integration's headers and auth, and judges the answer. */
export class UpstreamSender {
  constructor(
    private readonly client: UpstreamClient,
    private readonly logger: Logger,
  ) {}

  async send(
    integration: RegisteredIntegration,
    operation: RegisteredOperation,
    request: UpstreamRequest,
    baseUrl: string,
    credentials: Credentials,
    settings: Record<string, unknown>,
  ): Promise<UpstreamResponse> {
    const upstream = integration.plugin.upstream;
    const absolute = request.url !== undefined;
    if (absolute) assertHttpUrl(request.url as string, 'upstream url');
    const withAuth = request.auth ?? !absolute;
    const headers = {
      ...upstream.headers?.(settings),
      ...(withAuth ? (upstream.authHeaders?.(credentials) ?? { authorization: `Bearer ${credentials.accessToken}` }) : {}),
      ...request.headers,
    };
    const url = request.url ?? `${baseUrl.replace(/\/+$/, '')}${request.path ?? ''}`;
    const response = await this.client.send({ ...request, url, headers });
    const failure = upstream.inspect ? upstream.inspect(response) : readUpstreamFailure(response, { maxLength: MAX_MESSAGE });
    if (failure) {
      const error = upstreamError(integration.plugin.displayName, failure, response);
      this.logger.warn(
        { service: integration.service, operation: operation.name, upstreamStatus: response.status, code: error.code },
        'upstream answered with an error',
      );
      throw error;
    }
    return response;
  }
}

function upstreamError(displayName: string, failure: UpstreamFailure, response: UpstreamResponse): GatewayError {
  const code = codeForUpstreamStatus(failure.status);
  const detail = failure.message ? `: ${failure.message.slice(0, MAX_MESSAGE)}` : '';
  const options = { upstreamStatus: response.status, retryAfter: failure.retryAfter ?? retryAfterFromHeaders(response.headers) };
  switch (code) {
    case 'bad_request':
      return new GatewayError(code, `${displayName} rejected the request${detail}`, options);
    case 'upstream_unauthorized':
      return new GatewayError(
        code,
        `${displayName} rejected the stored credentials (${failure.status})${detail}; reconnect the integration`,
        options,
      );
    case 'not_found':
      return new GatewayError(code, `${displayName} found no such record${detail}`, options);
    case 'conflict':
      return new GatewayError(code, `${displayName} reported a conflict${detail}`, options);
    case 'rate_limited':
      return new GatewayError(code, `${displayName} is rate limiting this connection${detail}`, options);
    default:
      return new GatewayError(code, `${displayName} failed (${failure.status})${detail}`, options);
  }
}
