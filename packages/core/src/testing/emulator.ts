import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions, SandboxServer } from '../contract/plugin.js';
import { anchorSandboxClock } from './clock.js';

export {
  FIRM_ZONE,
  isoOffset,
  localOffsetMinutes,
  reoffsetLocal,
  toZoned,
  zonedDate,
  zonedTimestamp,
  zoneOffsetMinutes,
} from './zone.js';

import {
  BodyTooLargeError,
  CONTROL_PREFIX,
  DEFAULT_MAX_BODY_BYTES,
  type EmulatorReply,
  type EmulatorRequest,
  FAIL_NEXT_PATH,
  jsonReply,
  parseForm,
  parseJson,
  RESET_PATH,
  readBody,
  textReply,
  writeReply,
} from './emulator-http.js';
import { FaultQueue, FaultSpecError, type FaultWriter, faultReply, parseFault } from './faults.js';

export {
  addDays,
  anchorSandboxClock,
  daysBetween,
  daysFromToday,
  isIsoDate,
  pinSandboxClock,
  SANDBOX_TODAY_ENV,
  STORY_MORNING_ENDS,
  sandboxClockPinned,
  sandboxNow,
  sandboxToday,
  shiftFromAuthored,
  shiftSeededDates,
  storyInstant,
  storyTimestamp,
  timestampFromToday,
} from './clock.js';
export {
  BodyTooLargeError,
  bytesReply,
  CONTROL_PREFIX,
  DEFAULT_MAX_BODY_BYTES,
  type EmulatorReply,
  type EmulatorRequest,
  FAIL_NEXT_PATH,
  InvalidJsonError,
  isJsonObject,
  jsonReply,
  parseForm,
  parseJson,
  queryObject,
  queryValues,
  RESET_PATH,
  readBody,
  sendJson,
  textReply,
  writeReply,
} from './emulator-http.js';
export {
  AuthorizationCodes,
  type AuthorizationCodesOptions,
  type AuthorizeCodeOptions,
  authorizeCode,
  basicCredentials,
  type ClientCredentials,
  oauthError,
  redirectBack,
  tokenParams,
} from './emulator-oauth.js';
export {
  defaultFaultWriter,
  type Fault,
  FaultQueue,
  type FaultSpec,
  FaultSpecError,
  type FaultWriter,
  faultMatches,
  faultReply,
  parseFault,
} from './faults.js';
export * from './firm.js';
export { FIRM_IDENTITY_CLIENT_ID, type FirmIdentityProvider, startFirmIdentityProvider } from './firm-identity.js';
export { ACCOUNT_HOLDER, type FirmSignIn, firmSignIn } from './firm-sign-in.js';
export { emitReply, emitSpec, type WebhookDelivery, WebhookSender } from './webhooks.js';

/**
 * The emulator kit: what every plugin's sandbox upstream (an in-process HTTP emulator of the application's wire
 * format) needs besides its routes. It listens on loopback, reads bodies with a size limit, answers JSON, and serves
 * the two control endpoints in one shape for every plugin:
 *
 * - `POST /__sandbox/fail-next` with a {@link FaultSpec} queues a failure for the next matching request(s);
 * - `POST /__sandbox/reset` re-anchors the sandbox clock (./clock.ts) to today, restores the seeded data and drops
 *   queued failures.
 *
 * A plugin supplies its seed, its routes and, where its error format is not `{ "error": "…" }`, how a failure is
 * written on its wire. Only `node:` modules are used: a sandbox loads nothing a production gateway does not have.
 */

// ---- the server -----------------------------------------------------------------------------------------------------

/** Where an emulator listens: `origin` is `http://host:port`, `url` the base URL a plugin is pointed at. */
export interface EmulatorAddress {
  origin: string;
  url: string;
}

export interface EmulatorOptions<S> extends SandboxOptions {
  /** The credential the emulator accepts (returned as the sandbox's `token`). */
  token: string;
  /** Path of the base URL (`/v1`); control endpoints are served under it too (`/v1/__sandbox/reset`). */
  basePath?: string;
  /** Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Builds the seeded state: at start and on every `POST /__sandbox/reset`. */
  seed(address: EmulatorAddress): S;
  /** Answers one request (everything but the kit's two control endpoints and injected failures). */
  handle(request: EmulatorRequest, state: S): EmulatorReply | Promise<EmulatorReply>;
  /** Writes an injected failure in the application's format (default {@link defaultFaultWriter}). */
  writeFault?: FaultWriter;
  /** The answer when `handle` throws (default 500 `{ "error": "internal_error" }`). */
  onError?(error: unknown, request: EmulatorRequest): EmulatorReply;
  /** The answer to a body over the limit (default 413 text). */
  tooLarge?: EmulatorReply;
}

export interface EmulatorServer extends SandboxServer {
  origin: string;
}

/**
 * Starts an emulator on loopback (or `host`/`port`) and returns what a plugin's `startSandbox` returns, plus the
 * origin. The state from `seed` lives as long as the server, and `POST /__sandbox/reset` replaces it.
 */
export async function startEmulator<S>(options: EmulatorOptions<S>): Promise<EmulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const faults = new FaultQueue();
  let address: EmulatorAddress = { origin: '', url: '' };
  let state: S | undefined;
  let seq = 0;

  const control = (request: EmulatorRequest): EmulatorReply | undefined => {
    if (request.path !== FAIL_NEXT_PATH && request.path !== RESET_PATH) return undefined;
    if (request.method !== 'POST') return jsonReply(405, { ok: false, error: `use POST ${request.path}` }, { allow: 'POST' });
    if (request.path === RESET_PATH) {
      anchorSandboxClock();
      state = options.seed(address);
      faults.clear();
      return jsonReply(200, { ok: true });
    }
    try {
      faults.add(parseFault(request.json()));
    } catch (error) {
      const message = error instanceof FaultSpecError ? error.message : 'fail-next takes a JSON object';
      return jsonReply(400, { ok: false, error: message });
    }
    return jsonReply(200, { ok: true, pending: faults.size });
  };

  const answer = async (req: IncomingMessage): Promise<EmulatorReply> => {
    let body: Buffer;
    try {
      body = await readBody(req, limit);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return options.tooLarge ?? textReply(413, 'Request Entity Too Large');
      throw error;
    }
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const underBase = basePath !== '' && url.pathname.startsWith(`${basePath}${CONTROL_PREFIX}`);
    const path = underBase ? url.pathname.slice(basePath.length) : url.pathname;
    const isControl = path.startsWith(CONTROL_PREFIX);
    const request: EmulatorRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      url,
      path,
      query: url.searchParams,
      headers: req.headers,
      body,
      seq: isControl ? seq : ++seq,
      origin: address.origin,
      text: () => body.toString('utf8'),
      json: () => parseJson(body),
      form: () => parseForm(body),
      mediaType: () => (String(req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase(),
    };
    const controlled = isControl ? control(request) : undefined;
    if (controlled) return controlled;
    const fault = isControl ? undefined : faults.take(request);
    try {
      if (fault) return faultReply(fault, request, options.writeFault);
      return await options.handle(request, state as S);
    } catch (error) {
      return options.onError?.(error, request) ?? jsonReply(500, { error: 'internal_error' });
    }
  };

  const server = createServer((req, res) => {
    answer(req)
      .then((reply) => writeReply(res, reply))
      .catch(() => {
        if (!res.headersSent) writeReply(res, jsonReply(500, { error: 'internal_error' }));
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${publicHost(host)}:${port}`;
  address = { origin, url: `${origin}${basePath}` };
  anchorSandboxClock();
  state = options.seed(address);

  return {
    url: address.url,
    origin,
    token: options.token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The host to put in URLs: a wildcard address becomes loopback, IPv6 gets brackets. */
function publicHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
