import type { Connections } from '../connections/credentials.js';
import { repeatable, type UpstreamRequest, type UpstreamResponse } from '../contract/operation.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import { carriesIdempotencyKey } from '../upstream/idempotency.js';
import type { ConnectionCall } from '../upstream/limits.js';
import { CredentialsRejected, type UpstreamSender } from '../upstream/send.js';

type Loaded = Awaited<ReturnType<Connections['credentialsFor']>>;

/** What the upstream requests of one call share: where they go, and the credentials, refreshed at most once. */
export interface UpstreamCall {
  sender: UpstreamSender;
  connections: Pick<Connections, 'refreshRejected'>;
  integration: RegisteredIntegration;
  operation: RegisteredOperation;
  baseUrl: string;
  settings: Record<string, unknown>;
  connection: ConnectionCall;
  /** The credentials requests are sent with now: replaced by the refresh. */
  loaded: Loaded;
  /** The refresh this call started or joined, once a request was rejected. */
  refresh: Promise<unknown> | undefined;
}

/** One upstream request of a call (an operation's `run` sends several), with the credentials the call holds now. */
export async function sendRefreshing(call: UpstreamCall, upstream: UpstreamRequest): Promise<UpstreamResponse> {
  const sentWith = call.loaded;
  try {
    return await call.sender.send(
      call.integration,
      call.operation,
      upstream,
      call.baseUrl,
      sentWith.credentials,
      call.settings,
      call.connection,
    );
  } catch (error) {
    return afterRejection(call, upstream, error, sentWith);
  }
}

/**
 * After a failed upstream request: a 401 to our credentials on a connection with a refresh token gets one refresh per
 * call (shared with every call that saw the same rejection, connections/credentials.ts), then the refused request is
 * sent once more if sending it twice is safe; otherwise the caller is told to send the call again. Any other failure
 * is thrown as it is.
 */
export async function afterRejection(
  call: UpstreamCall,
  upstream: UpstreamRequest,
  error: unknown,
  sentWith: Loaded,
): Promise<UpstreamResponse> {
  const withOurCredentials = upstream.auth ?? upstream.url === undefined;
  if (!(error instanceof CredentialsRejected) || !withOurCredentials || !sentWith.credentials.refreshToken) throw error;
  const { integration, operation, connection } = call;
  call.refresh ??= call.connections.refreshRejected(integration, connection.workspaceId, sentWith, connection.trace).then((fresh) => {
    call.loaded = fresh;
  });
  await call.refresh;
  if (call.loaded.credentials.accessToken === sentWith.credentials.accessToken) throw error; // refreshed already: not the token
  if (!repeatable(operation.definition, upstream) && !carriesIdempotencyKey(upstream)) {
    throw new GatewayError(
      'upstream_unauthorized',
      `${integration.plugin.displayName} rejected the stored credentials (401); they were refreshed, but ${operation.name} ` +
        `(${upstream.method}) was not sent again as it may not be safe to repeat: send the call again`,
      { upstreamStatus: error.upstreamStatus ?? 401 },
    );
  }
  return call.sender.send(integration, operation, upstream, call.baseUrl, call.loaded.credentials, call.settings, connection);
}
